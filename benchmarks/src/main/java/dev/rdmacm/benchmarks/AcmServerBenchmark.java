package dev.rdmacm.benchmarks;

import dev.rdmacm.acm.AcmAddressResolver;
import dev.rdmacm.acm.AcmEndpointFile;
import dev.rdmacm.acm.AcmLog;
import dev.rdmacm.acm.AcmOptions;
import dev.rdmacm.acm.AcmPathQuerier;
import dev.rdmacm.acm.AcmServer;
import dev.rdmacm.protocol.acm.AcmCounter;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmOp;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * acm-server resolutions per second and latency percentiles (SampleTime mode gives p50/p99), with
 * several clients on the unix socket, served from the route cache (routes preloaded from an OpenSM
 * path-record dump, addresses from an ibacm hosts file). The SA-miss case needs the sa-client
 * backend on ibsim + OpenSM and is not measured yet. At the end of a trial the server's counters give
 * the ratio of SA queries to client requests.
 */
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-exports",
    "java.base/jdk.internal.misc=ALL-UNNAMED"})
@Threads(4)
public class AcmServerBenchmark
{
    @State(Scope.Benchmark)
    public static class Server
    {
        Path dir;
        AcmServer server;

        @Setup(Level.Trial)
        public void start() throws IOException
        {
            dir = Files.createTempDirectory("rdmacm-acm-bench");
            Files.writeString(dir.resolve("addr.cfg"), "192.0.2.2 mlx5_0 1 0xffff fe80::2:c903:0:1 1\n");
            Files.writeString(dir.resolve("hosts.data"), "192.0.2.3 fe80::2:c903:0:2\n");
            Files.writeString(dir.resolve("pr.dump"), """
                Channel Adapter 0x0002c90300000001, base LID 1, "a", port 1
                # LID  : SL : MTU : RATE
                0x0005 : 0  : 4   : 7
                Channel Adapter 0x0002c90300000002, base LID 5, "b", port 1
                # LID  : SL : MTU : RATE
                0x0001 : 0  : 4   : 7
                """);
            final AcmOptions options = new AcmOptions();
            options.apply("run_dir " + dir.resolve("run"), "bench");
            options.apply("addr_preload acm_hosts", "bench");
            options.apply("addr_data_file " + dir.resolve("hosts.data"), "bench");
            options.apply("route_preload opensm_full_v1", "bench");
            options.apply("route_data_file " + dir.resolve("pr.dump"), "bench");
            final AcmLog quiet = new AcmLog(new PrintStream(OutputStream.nullOutputStream()), 0);
            server = AcmServer.start(options, AcmEndpointFile.read(dir.resolve("addr.cfg")), AcmAddressResolver.NONE,
                AcmPathQuerier.NONE, quiet);
        }

        @TearDown(Level.Trial)
        public void stop() throws IOException
        {
            final long resolves = server.service().counters().get(AcmCounter.RESOLVE);
            final long saQueries = server.service().counters().get(AcmCounter.ROUTE_QUERY);
            System.out.printf("%nacm-server: %d resolutions, %d SA queries, %.6f SA queries per request%n",
                resolves, saQueries, resolves == 0 ? 0.0 : (double)saQueries / resolves);
            server.close();
            try (Stream<Path> paths = Files.walk(dir))
            {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @State(Scope.Thread)
    public static class Client
    {
        SocketChannel channel;
        final ByteBuffer request = ByteBuffer.allocateDirect(AcmMessage.resolveLength(2));
        final ByteBuffer reply = ByteBuffer.allocateDirect(AcmMessage.MAX_LENGTH);

        @Setup(Level.Trial)
        public void connect(final Server server) throws IOException
        {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.connect(UnixDomainSocketAddress.of(server.server.files().unixSocket()));
            final UnsafeBuffer buffer = new UnsafeBuffer(request);
            new AcmHeader().wrap(buffer, 0).version(1).opcode(AcmOp.RESOLVE).length(AcmMessage.resolveLength(2));
            final AcmEpAddrData entry = new AcmEpAddrData();
            entry.wrap(buffer, AcmHeader.LENGTH).flags(AcmEpFlags.SOURCE).type(AcmEpType.ADDRESS_IP).ipv4(0xc0000202);
            entry.wrap(buffer, AcmHeader.LENGTH + AcmEpAddrData.LENGTH).flags(AcmEpFlags.DEST)
                .type(AcmEpType.ADDRESS_IP).ipv4(0xc0000203);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException
        {
            channel.close();
        }
    }

    @Benchmark
    public int resolveFromCache(final Client client) throws IOException
    {
        client.request.clear();
        while (client.request.hasRemaining())
        {
            client.channel.write(client.request);
        }
        client.reply.clear().limit(AcmMessage.resolveLength(1));
        while (client.reply.hasRemaining())
        {
            if (client.channel.read(client.reply) < 0)
            {
                throw new IOException("server closed the connection");
            }
        }
        return client.reply.get(AcmHeader.STATUS_OFFSET);
    }
}
