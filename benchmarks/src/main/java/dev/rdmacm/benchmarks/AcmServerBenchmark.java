package dev.rdmacm.benchmarks;

import dev.rdmacm.acm.AcmGidLookup;
import dev.rdmacm.acm.AcmEndpointFile;
import dev.rdmacm.acm.AcmLog;
import dev.rdmacm.acm.AcmOptions;
import dev.rdmacm.acm.AcmPathQuerier;
import dev.rdmacm.acm.AcmServer;
import dev.rdmacm.acm.SaPathQuerier;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmCounter;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmOp;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
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
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * acm-server resolutions per second and latency percentiles (SampleTime mode gives p50/p99), with
 * several clients on the unix socket ({@code -t 1}, {@code -t 16}, {@code -t 256}):
 * <ul>
 *   <li>{@code resolveFromCache}: RESOLVE by IP address, routes preloaded from an OpenSM path-record
 *       dump and addresses from an ibacm hosts file, nothing asked of an SA;</li>
 *   <li>{@code resolveOnMiss}: RESOLVE of a path by GID from Hca2 to the three other HCAs of an ibsim fabric,
 *       with {@code route_timeout 0} so that no route stays cached: every request that finds no query
 *       in flight for its destination sends one to OpenSM's SA (ibacm's {@code sa_depth} 1), and the
 *       others wait for it.</li>
 * </ul>
 * At the end of a trial the server's counters give the ratio of SA queries to client requests.
 * {@code benchmarks/run AcmServerBenchmark -t 16}; the miss case needs ibsim and OpenSM.
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
    public static class CachedServer
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
            server = AcmServer.start(options, AcmEndpointFile.read(dir.resolve("addr.cfg")), AcmGidLookup.NONE,
                AcmPathQuerier.NONE, quiet);
        }

        @TearDown(Level.Trial)
        public void stop() throws IOException
        {
            printCounters(server);
            server.close();
            deleteTree(dir);
        }
    }

    /** acm-server in front of OpenSM's SA on ibsim, attached to Hca2, keeping no route. */
    @State(Scope.Benchmark)
    public static class MissServer
    {
        Path dir;
        SimulatedFabric fabric;
        SaClient sa;
        AcmServer server;
        Gid source;
        List<Gid> destinations;

        @Setup(Level.Trial)
        public void start() throws IOException
        {
            dir = Files.createTempDirectory("rdmacm-acm-bench-miss");
            fabric = SimulatedFabric.start();
            try
            {
                final FabricPort local = fabric.port("Hca2");
                source = local.gid();
                destinations = fabric.hcaPorts().stream().filter(p -> !p.equals(local)).map(FabricPort::gid).toList();
                Files.writeString(dir.resolve("addr.cfg"), "192.0.2.2 ibsim0 1 0xffff " + local.gid() + " " + local.lid() + "\n");
                sa = SaClient.start(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), "Hca2", Duration.ofSeconds(2)),
                    SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
                final AcmOptions options = new AcmOptions();
                options.apply("run_dir " + dir.resolve("run"), "bench");
                options.apply("route_timeout 0", "bench");
                server = AcmServer.start(options, AcmEndpointFile.read(dir.resolve("addr.cfg")), AcmGidLookup.NONE,
                    new SaPathQuerier(index -> sa, Duration.ofSeconds(3)), new AcmLog(new PrintStream(OutputStream.nullOutputStream()), 0));
            }
            catch (final IOException | RuntimeException ex)
            {
                // JMH runs no tear-down after a failed set-up
                stop();
                throw ex;
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws IOException
        {
            if (server != null)
            {
                printCounters(server);
                server.close();
            }
            if (sa != null)
            {
                sa.close();
            }
            fabric.close();
            deleteTree(dir);
        }
    }

    private static void printCounters(final AcmServer server)
    {
        final long resolves = server.service().counters().get(AcmCounter.RESOLVE);
        final long saQueries = server.service().counters().get(AcmCounter.ROUTE_QUERY);
        final long failed = server.service().counters().get(AcmCounter.ERROR) + server.service().counters().get(AcmCounter.NODATA);
        System.out.printf("%nacm-server: %d resolutions (%d failed), %d SA queries, %.6f SA queries per request%n",
            resolves, failed, saQueries, resolves == 0 ? 0.0 : (double)saQueries / resolves);
    }

    static void deleteTree(final Path dir) throws IOException
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** One client connection and its prepared requests: by IP for the cache, by GID for the misses. */
    @State(Scope.Thread)
    public static class Client
    {
        SocketChannel channel;
        final ByteBuffer[] requests = new ByteBuffer[3];
        final ByteBuffer reply = ByteBuffer.allocateDirect(AcmMessage.MAX_LENGTH);
        private final UnsafeBuffer replyView = new UnsafeBuffer(reply);
        private final AcmHeader header = new AcmHeader();
        int next;

        void connect(final Path socket) throws IOException
        {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.connect(UnixDomainSocketAddress.of(socket));
        }

        @TearDown(Level.Trial)
        public void close() throws IOException
        {
            channel.close();
        }

        int exchange(final ByteBuffer request) throws IOException
        {
            request.clear();
            while (request.hasRemaining())
            {
                channel.write(request);
            }
            // the header first: an error reply is 16 bytes, a path 88
            reply.clear().limit(AcmHeader.LENGTH);
            readFully();
            reply.limit(header.wrap(replyView, 0).length());
            readFully();
            return reply.get(AcmHeader.STATUS_OFFSET);
        }

        private void readFully() throws IOException
        {
            while (reply.hasRemaining())
            {
                if (channel.read(reply) < 0)
                {
                    throw new IOException("server closed the connection");
                }
            }
        }
    }

    @State(Scope.Thread)
    public static class CacheClient extends Client
    {
        @Setup(Level.Trial)
        public void connect(final CachedServer server) throws IOException
        {
            connect(server.server.files().unixSocket());
            requests[0] = request(AcmEpType.ADDRESS_IP, entry -> entry.ipv4(0xc0000202), entry -> entry.ipv4(0xc0000203));
        }
    }

    @State(Scope.Thread)
    public static class MissClient extends Client
    {
        @Setup(Level.Trial)
        public void connect(final MissServer server) throws IOException
        {
            connect(server.server.files().unixSocket());
            for (int i = 0; i < requests.length; i++)
            {
                requests[i] = pathRequest(server.source, server.destinations.get(i % server.destinations.size()));
            }
        }
    }

    /** RESOLVE of a path from {@code sgid} to {@code dgid}, as librdmacm's ucma_ib_resolve sends one for AF_IB. */
    static ByteBuffer pathRequest(final Gid sgid, final Gid dgid)
    {
        final ByteBuffer request = ByteBuffer.allocateDirect(AcmMessage.resolveLength(1));
        final UnsafeBuffer buffer = new UnsafeBuffer(request);
        new AcmHeader().wrap(buffer, 0).version(1).opcode(AcmOp.RESOLVE).length(AcmMessage.resolveLength(1));
        new AcmEpAddrData().wrap(buffer, AcmHeader.LENGTH).type(AcmEpType.PATH).path(new IbvPathRecord())
            .sgid(sgid).dgid(dgid).reversible(true).numbPath(1);
        return request;
    }

    private static ByteBuffer request(final int type, final Consumer<AcmEpAddrData> source, final Consumer<AcmEpAddrData> destination)
    {
        final ByteBuffer request = ByteBuffer.allocateDirect(AcmMessage.resolveLength(2));
        final UnsafeBuffer buffer = new UnsafeBuffer(request);
        new AcmHeader().wrap(buffer, 0).version(1).opcode(AcmOp.RESOLVE).length(AcmMessage.resolveLength(2));
        final AcmEpAddrData entry = new AcmEpAddrData();
        source.accept(entry.wrap(buffer, AcmHeader.LENGTH).flags(AcmEpFlags.SOURCE).type(type));
        destination.accept(entry.wrap(buffer, AcmHeader.LENGTH + AcmEpAddrData.LENGTH).flags(AcmEpFlags.DEST).type(type));
        return request;
    }

    @Benchmark
    public int resolveFromCache(final CacheClient client) throws IOException
    {
        return client.exchange(client.requests[0]);
    }

    @Benchmark
    public int resolveOnMiss(final MissClient client) throws IOException
    {
        final int status = client.exchange(client.requests[client.next]);
        client.next = (client.next + 1) % client.requests.length;
        return status;
    }
}
