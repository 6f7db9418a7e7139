package dev.rdmacm.cli;

import dev.rdmacm.acm.AcmEndpoint;
import dev.rdmacm.acm.AcmEndpointFile;
import dev.rdmacm.acm.AcmLog;
import dev.rdmacm.acm.AcmOptions;
import dev.rdmacm.acm.AcmPort;
import dev.rdmacm.acm.AcmPortDiscovery;
import dev.rdmacm.acm.AcmPortEndpoints;
import dev.rdmacm.acm.AcmShutdownWatchdog;
import dev.rdmacm.acm.AcmUncaughtErrors;
import dev.rdmacm.acm.backend.CmBackedAcmServer;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.resolver.spi.SysfsGidDirectory;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.transport.FabricSpec;
import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.sysfs.LibibverbsDevices;
import dev.rdmacm.verbs.sysfs.SysfsDevices;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code rdmacm acm-server}: an ibacm-compatible resolver service, so that unmodified librdmacm
 * programs and ib_acme use this stack. Runs in the foreground (a service manager daemonizes it) until
 * SIGTERM or SIGINT, which close every socket and remove the socket and port files.
 */
@Command(
    name = "acm-server",
    mixinStandardHelpOptions = true,
    description = {
        "Serves the ibacm client protocol (RESOLVE, PERF_QUERY, EP_QUERY), as ibacm does.",
        "It listens on a unix socket and, in loop/open mode, a TCP port, and answers from address and route caches. Options come from a file in ibacm_opts.cfg format.",
        "With --fabric the attached port is the endpoint, one per P_Key, as ibacm: named by its netdevs' IP addresses, the ibacm_addr.cfg lines for it and the --hosts entries with its GID.",
        "Destination addresses come from the address cache, preloaded from --hosts (or addr_preload acm_hosts in the options).",
        "Route misses go to the SA of --fabric; without --fabric they get ENODATA.",
        "Limits (options file): max_clients 4096 (more are closed, as ibacm closes them); sa_queue_depth 1024 lookups waiting per endpoint (more get ENODATA if NODELAY, else ENOMEM); client_timeout 10000 ms for a client to send a whole request.",
        "One instance per run directory: the lock file (lock_file, by default ibacm.pid in the run directory) is locked as ibacm locks it; a held lock or a live socket refuses the start."
    })
final class AcmServerCommand implements Callable<Integer>
{
    private static final Path CLASS_NET = Path.of("/sys/class/net");

    /** The service waits this long for its fabric at start: a fabric that does not open then is a failed start. */
    private static final long FABRIC_OPEN_MS = 5_000;

    @Option(names = {"-O", "--options"}, paramLabel = "FILE",
        description = "options file in ibacm_opts.cfg format (default: ${DEFAULT-VALUE}; missing = defaults)")
    Path optionsFile = Path.of("/etc/rdma/ibacm_opts.cfg");

    @Option(names = {"-A", "--addr-file"}, paramLabel = "FILE",
        description = "endpoint file, ibacm_addr.cfg: 'address device port pkey' lines name the attached port's endpoints; " +
            "with 'gid lid' columns on every line it defines the endpoints itself (no device needed)")
    Path addrFile;

    @Option(names = "--run-dir", paramLabel = "DIR",
        description = "directory of the socket and port files%n(ibacm-unix.sock, ibacm.sock, ibacm-tcp.port,%nibacm.port; default /run)")
    Path runDir;

    @Option(names = "--server-mode", paramLabel = "MODE", description = "unix, loop or open (overrides the file)")
    String serverMode;

    @Option(names = "--server-port", paramLabel = "PORT", description = "TCP port, 0 = any free port")
    Integer serverPort;

    @Option(names = "--log-level", paramLabel = "N", description = "0 errors, 1 clients, 2 every request")
    Integer logLevel;

    /** The address cache's preload, as {@code addr_preload acm_hosts} with {@code addr_data_file FILE}. */
    @CommandLine.Mixin
    HostsOption hosts = new HostsOption();

    /** Where route misses go; without it there is no SA and misses get ENODATA. */
    @CommandLine.Mixin
    FabricOption fabric = new FabricOption();

    /** JSON lines on stdout: a {@code started} object, and a {@code stopped} one with the counters at the signal. */
    @CommandLine.Mixin
    JsonOption json = new JsonOption();

    @Option(names = {"-P", "--foreground"},
        description = "accepted for ibacm compatibility: the service always runs in the foreground")
    boolean foreground;

    /** The device-less endpoint file: each line names its endpoint's GID and LID itself. */
    private static List<AcmEndpoint> endpointsOfFile(final AcmOptions options, final List<String> lines, final AcmLog log)
    {
        if (lines.isEmpty())
        {
            log.log(0, "no endpoint file " + options.addrFile() + " and no --fabric: every RESOLVE will get ESRCADDR");
            return List.of();
        }
        return AcmEndpointFile.parse(lines, options.addrFile().toString());
    }

    /**
     * The one device of a verbs fabric (the first sysfs lists when none is named), read through
     * libibverbs, or from the sysfs tree {@code $SYSFS_PATH} names.
     */
    private static RdmaDevices attachedDevice(final FabricSpec.Verbs verbs)
    {
        final Map<String, String> environment = System.getenv();
        final Path root = SysfsDevices.root(environment);
        final List<String> names = SysfsDevices.names(root);
        final String name = verbs.device() != null ? verbs.device() : names.isEmpty() ? "" : names.getFirst();
        if (!names.contains(name))
        {
            throw new IllegalArgumentException("--fabric " + verbs + ": no RDMA device " + name + " under " +
                root.resolve(SysfsDevices.CLASS_DIRECTORY));
        }
        return LibibverbsDevices.readsTheMachinesOwn(environment) ?
            new RdmaDevices(LibibverbsDevices.SOURCE, List.of(LibibverbsDevices.readDevice(root, name))) :
            new RdmaDevices("sysfs " + root, List.of(SysfsDevices.readDevice(root, name)));
    }

    /** The port the SA client is attached to: the simulated HCA, or the verbs port as sysfs describes it. */
    private static AcmPort portOf(final FabricSpec spec, final SaClient saClient) throws IOException
    {
        return spec instanceof FabricSpec.Verbs verbs ?
            AcmPortDiscovery.ofVerbs(attachedDevice(verbs), verbs.device(), verbs.port(), CLASS_NET) :
            AcmPortDiscovery.ofIbsim(saClient.localPort());
    }

    /** The attached port's endpoints, as ibacm builds them from its device (AcmPortEndpoints). */
    private static List<AcmEndpoint> endpointsOf(final AcmPort port, final AcmOptions options, final List<String> lines,
        final AcmLog log) throws IOException
    {
        final HostsFile hostsFile = options.addrPreload() && Files.isReadable(options.addrDataFile()) ?
            HostsFile.read(options.addrDataFile()) : null;
        final List<AcmEndpoint> endpoints = AcmPortEndpoints.build(port, lines, options.addrFile().toString(), hostsFile,
            options.supportIpsInAddrCfg(), log);
        log.log(0, "attached to " + port + ": " + endpoints.size() + " endpoint(s)" +
            endpoints.stream().map(e -> "\n  " + e + " " + e.addresses()).reduce("", String::concat));
        return endpoints;
    }

    /**
     * The options of the CM that answers address misses (and RoCE routes), which
     * {@link CmBackedAcmServer} opens: the attached device's GIDs alone, where there is one.
     */
    private static RdmaCm.Options cmOptions(final RdmaDevices attached)
    {
        return RdmaCm.Options.builder().gids(attached == null ? null : new SysfsGidDirectory(attached)).build();
    }

    @Override
    public Integer call() throws Exception
    {
        final AcmOptions options = AcmOptions.read(optionsFile);
        if (addrFile != null)
        {
            options.apply("addr_file " + addrFile, "--addr-file");
        }
        if (runDir != null)
        {
            options.apply("run_dir " + runDir, "--run-dir");
        }
        if (serverMode != null)
        {
            options.apply("server_mode " + serverMode, "--server-mode");
        }
        if (serverPort != null)
        {
            options.apply("server_port " + serverPort, "--server-port");
        }
        if (logLevel != null)
        {
            options.apply("log_level " + logLevel, "--log-level");
        }
        if (hosts.given())
        {
            if (!Files.isReadable(hosts.hosts))
            {
                throw new IllegalArgumentException("--hosts " + hosts.hosts + ": no such readable file");
            }
            options.apply("addr_preload acm_hosts", "--hosts");
            options.apply("addr_data_file " + hosts.hosts, "--hosts");
        }
        final AcmLog log = AcmLog.open(options.logFile(), options.logLevel());
        final List<String> addrLines = Files.exists(options.addrFile()) ?
            AcmEndpointFile.readLines(options.addrFile()) : List.of();
        final FabricSpec spec = fabric.spec();
        // the attached device alone, read once: a full sysfs read is 1024 GID files a port, and the
        // service's CM only ever resolves from its endpoints' own addresses, on that device
        final RdmaDevices attached = spec instanceof FabricSpec.Verbs verbs ? attachedDevice(verbs) : null;
        final boolean roce = spec instanceof FabricSpec.Verbs verbs && verbs.saGid() == null &&
            AcmPortDiscovery.isRoce(attached, verbs.device(), verbs.port());
        final SaClient saClient;
        final List<AcmEndpoint> endpoints;
        if (spec == null)
        {
            saClient = null;
            endpoints = endpointsOfFile(options, addrLines, log);
        }
        else if (roce)
        {
            saClient = null;
            final FabricSpec.Verbs verbs = (FabricSpec.Verbs)spec;
            endpoints = AcmEndpointFile.isDeviceless(addrLines) ? endpointsOfFile(options, addrLines, log) :
                endpointsOf(AcmPortDiscovery.ofVerbs(attached, verbs.device(), verbs.port(), CLASS_NET),
                    options, addrLines, log);
        }
        else
        {
            // the service keeps the route cache; a second cache in sa-client would outlive route_timeout
            saClient = fabric.start(FABRIC_OPEN_MS, SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
            try
            {
                endpoints = AcmEndpointFile.isDeviceless(addrLines) ? endpointsOfFile(options, addrLines, log) :
                    endpointsOf(portOf(spec, saClient), options, addrLines, log);
            }
            catch (final IOException | RuntimeException ex)
            {
                saClient.close();
                throw ex;
            }
        }
        // with a fabric, address misses go to this stack's CM; route misses to the fabric's SA or, on RoCE,
        // which has no SA, to the route the CM builds as the kernel CM builds it
        final CmBackedAcmServer.Builder builder = CmBackedAcmServer.builder(options, endpoints, log);
        if (spec != null)
        {
            builder.cm(cmOptions(attached));
        }
        if (saClient != null)
        {
            builder.sa(saClient);
        }
        else if (roce)
        {
            builder.roceRoutes();
        }
        // The hook exists before the first file does: a SIGTERM that arrives while the server is still
        // starting waits for the start to finish and then removes what it created.
        final AtomicReference<CmBackedAcmServer> server = new AtomicReference<>();
        final CountDownLatch startFinished = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        // An Error on any thread (the SA client's included) ends the service, never a deaf process; the
        // server thread's own are handled by AcmServer. The hook is bounded: SIGTERM is always honoured.
        AcmUncaughtErrors.exitOnError("rdmacm acm-server", System.err);
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            final AcmShutdownWatchdog watchdog = AcmShutdownWatchdog.arm("rdmacm acm-server", System.err);
            try
            {
                startFinished.await(30, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            final CmBackedAcmServer started = server.get();
            if (started != null)
            {
                started.close();
                if (json.json)
                {
                    AcmServerJson.print(AcmServerJson.stopped(started.server()));
                }
            }
            log.close();
            watchdog.close();
            done.countDown();
        }, "acm-server-shutdown"));
        try
        {
            server.set(builder.start());
            if (json.json)
            {
                AcmServerJson.print(AcmServerJson.started(server.get().server()));
            }
        }
        finally
        {
            startFinished.countDown();
        }
        done.await();
        return Main.EXIT_OK;
    }
}
