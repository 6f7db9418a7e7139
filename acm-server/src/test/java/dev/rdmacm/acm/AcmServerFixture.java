package dev.rdmacm.acm;

import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.testing.ManualNanoClock;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A server on a private run directory under /tmp with a fixed two-endpoint configuration: the files
 * below are what an operator would write, and every test reads them through the real parsers. Never
 * touches /run.
 */
public final class AcmServerFixture implements AutoCloseable
{
    static final String ENDPOINTS = """
        # address   device port pkey   gid                 lid
        127.0.0.1   mlx5_0 1    0xffff fe80::2:c903:0:1    1
        192.0.2.2   mlx5_0 1    0xffff fe80::2:c903:0:1    1
        node-a      mlx5_0 1    0xffff fe80::2:c903:0:1    1
        fd00::2     mlx5_0 1    0xffff fe80::2:c903:0:1    1
        192.0.2.20  mlx5_0 2    0xffff fe80::2:c903:0:11   3
        """;

    static final String HOSTS = """
        # address GID
        192.0.2.3   fe80::2:c903:0:2
        127.0.0.2   fe80::2:c903:0:2
        node-b      fe80::2:c903:0:2
        fd00::3     fe80::2:c903:0:2
        192.0.2.4   fe80::2:c903:0:4
        """;

    /** As OpenSM's opensmdumppr plugin writes it. */
    static final String PATH_DUMP = """
        Channel Adapter 0x0002c90300000001, base LID 1, "node-a HCA-1", port 1
        # LID  : SL : MTU : RATE
        0x0001 : 0  : 4   : 3  \s
        0x0002 : 0  : 4   : 3  \s
        0x0005 : 0  : 4   : 7  \s
        0x0006 : UNREACHABLE

        Channel Adapter 0x0002c90300000002, base LID 5, "node-b HCA-1", port 1
        # LID  : SL : MTU : RATE
        0x0001 : 0  : 4   : 7  \s
        0x0005 : 0  : 4   : 3  \s

        Switch 0x0002c90300000100, base LID 2, "switch", port 0
        # LID  : SL : MTU : RATE
        0x0001 : 0  : 4   : 3  \s
        """;

    final Path dir;
    final Path runDir;
    public final AcmServer server;
    private final ByteArrayOutputStream logBytes;

    private AcmServerFixture(final Path dir, final AcmServer server, final ByteArrayOutputStream logBytes)
    {
        this.dir = dir;
        this.runDir = dir.resolve("run");
        this.server = server;
        this.logBytes = logBytes;
    }

    /** What the server logged so far (level 1). */
    String log()
    {
        synchronized (logBytes)
        {
            return logBytes.toString(StandardCharsets.UTF_8);
        }
    }

    public static AcmServerFixture start(final String extraOptions, final AcmPathQuerier querier) throws IOException
    {
        return start(extraOptions, querier, AcmGidLookup.NONE);
    }

    static AcmServerFixture start(final String extraOptions, final AcmPathQuerier querier,
        final AcmGidLookup resolver) throws IOException
    {
        final long startNs = System.nanoTime();
        return start(extraOptions, querier, resolver, () -> System.nanoTime() - startNs);
    }

    /** A server whose deadlines and lifetimes run on {@code clock}; see {@link #advance(ManualNanoClock, Duration)}. */
    static AcmServerFixture start(final String extraOptions, final AcmPathQuerier querier,
        final AcmGidLookup resolver, final NanoClock clock) throws IOException
    {
        final Path dir = Files.createTempDirectory("rdmacm-acm");
        Files.writeString(dir.resolve("ibacm_addr.cfg"), ENDPOINTS);
        Files.writeString(dir.resolve("ibacm_hosts.data"), HOSTS);
        Files.writeString(dir.resolve("opensm-path-records.dump"), PATH_DUMP);
        Files.writeString(dir.resolve("ibacm_opts.cfg"), """
            # written by the test, in ibacm_opts.cfg format
            server_mode loop
            server_port 0
            addr_preload acm_hosts
            addr_data_file %1$s/ibacm_hosts.data
            route_preload opensm_full_v1
            route_data_file %1$s/opensm-path-records.dump
            addr_file %1$s/ibacm_addr.cfg
            run_dir %1$s/run
            timeout 200
            retries 1
            """.formatted(dir) + extraOptions);
        final AcmOptions options = AcmOptions.read(dir.resolve("ibacm_opts.cfg"));
        final List<AcmEndpoint> endpoints = AcmEndpointFile.read(options.addrFile());
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final AcmLog log = new AcmLog(new PrintStream(bytes, true, StandardCharsets.UTF_8), 1);
        try
        {
            final AcmServer server = AcmServer.start(options, endpoints, resolver, querier, log, clock);
            return new AcmServerFixture(dir, server, bytes);
        }
        catch (final IOException | RuntimeException ex)
        {
            deleteTree(dir);
            throw ex;
        }
    }

    /** Moves the server's clock on and has it look at its deadlines. */
    void advance(final ManualNanoClock clock, final Duration by)
    {
        clock.advance(by);
        server.wakeUp();
    }

    Path unixSocket()
    {
        return server.files().unixSocket();
    }

    @Override
    public void close()
    {
        server.close();
        deleteTree(dir);
    }

    static void deleteTree(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // a temp directory left behind is not worth failing a test for
        }
    }
}
