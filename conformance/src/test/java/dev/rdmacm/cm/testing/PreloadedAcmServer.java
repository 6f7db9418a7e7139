package dev.rdmacm.cm.testing;

import dev.rdmacm.acm.AcmGidLookup;
import dev.rdmacm.acm.AcmEndpointFile;
import dev.rdmacm.acm.AcmLog;
import dev.rdmacm.acm.AcmOptions;
import dev.rdmacm.acm.AcmPathQuerier;
import dev.rdmacm.acm.AcmServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Our acm-server (module acm-server, the ibacm-compatible service) on a run directory, answering
 * RESOLVE only from what its files preload, as an operator would write them: the endpoint file
 * ({@code ibacm_addr.cfg} with GID and LID columns), ibacm's hosts file for the addresses and OpenSM's
 * path-record dump for the routes. Misses are ENODATA (no SA, no address resolver). Unix mode: the
 * socket {@code ibacm-unix.sock} and the {@code ibacm.sock} link librdmacm connects to, no port file.
 */
public final class PreloadedAcmServer implements AutoCloseable
{
    private final Path configDir;
    private final AcmServer server;
    private final ByteArrayOutputStream log;

    private PreloadedAcmServer(final Path configDir, final AcmServer server, final ByteArrayOutputStream log)
    {
        this.configDir = configDir;
        this.server = server;
        this.log = log;
    }

    /**
     * @param configDir where the four files are written (created if need be).
     * @param runDir    where the sockets go: {@code /run} to be librdmacm's ibacm.
     */
    public static PreloadedAcmServer start(final Path configDir, final Path runDir, final String endpoints,
        final String hosts, final String pathDump) throws IOException
    {
        return start(configDir, runDir, "unix", endpoints, hosts, pathDump);
    }

    /**
     * As above, in ibacm's {@code server_mode} {@code serverMode}: {@code loop} adds the TCP listener on
     * loopback, on a free port, and its port file ({@link #portFile()}), which librdmacm reads first.
     */
    public static PreloadedAcmServer start(final Path configDir, final Path runDir, final String serverMode,
        final String endpoints, final String hosts, final String pathDump) throws IOException
    {
        Files.createDirectories(configDir);
        Files.createDirectories(runDir);
        Files.writeString(configDir.resolve("ibacm_addr.cfg"), endpoints);
        Files.writeString(configDir.resolve("ibacm_hosts.data"), hosts);
        Files.writeString(configDir.resolve("opensm-path-records.dump"), pathDump);
        Files.writeString(configDir.resolve("ibacm_opts.cfg"), """
            server_mode %3$s
            server_port 0
            addr_preload acm_hosts
            addr_data_file %1$s/ibacm_hosts.data
            route_preload opensm_full_v1
            route_data_file %1$s/opensm-path-records.dump
            addr_file %1$s/ibacm_addr.cfg
            run_dir %2$s
            timeout 200
            retries 1
            """.formatted(configDir, runDir, serverMode));
        final AcmOptions options = AcmOptions.read(configDir.resolve("ibacm_opts.cfg"));
        final ByteArrayOutputStream log = new ByteArrayOutputStream();
        final AcmServer server = AcmServer.start(options, AcmEndpointFile.read(options.addrFile()), AcmGidLookup.NONE,
            AcmPathQuerier.NONE, new AcmLog(new PrintStream(log, true, StandardCharsets.UTF_8), 2));
        return new PreloadedAcmServer(configDir, server, log);
    }

    /** The socket librdmacm connects to: {@code RUN_DIR/ibacm.sock}. */
    public Path librdmacmSocket()
    {
        return server.files().unixSocket().resolveSibling("ibacm.sock");
    }

    /** The port file of a TCP mode: {@code RUN_DIR/ibacm.port}. */
    public Path portFile()
    {
        return server.files().portFile();
    }

    public String log()
    {
        return log.toString(StandardCharsets.UTF_8);
    }

    public Path configDir()
    {
        return configDir;
    }

    /** Stops the server and removes its socket and link. */
    @Override
    public void close()
    {
        server.close();
    }
}
