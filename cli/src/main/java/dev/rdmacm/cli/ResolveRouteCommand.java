package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.cm.AddressResolution;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.ResolutionStep;
import dev.rdmacm.cm.SysfsGidDirectory;
import dev.rdmacm.protocol.acm.HostsFile;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.cm.ResolvedRoute;
import dev.rdmacm.sa.PcapMadRecorder;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.transport.FabricSpec;
import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.verbs.sysfs.SysfsDevices;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code rdmacm resolve-route DST}: {@code rdma_resolve_addr} then {@code rdma_resolve_route} with
 * the kernel's rules, printing the route as {@code ibv_path_data} records. On an InfiniBand fabric
 * ({@code --fabric}) the path comes from one SA PathRecord Get; with {@code --hosts} an ibacm hosts
 * file stands in for IPoIB's neighbour table, so it runs on ibsim; without a fabric the IP stack
 * resolves the address and RoCE paths are built locally.
 */
@Command(
    name = "resolve-route",
    mixinStandardHelpOptions = true,
    description = {
        "Resolves an IP address and then a route to it, as rdma_resolve_addr and rdma_resolve_route do.",
        "InfiniBand asks the SA for one PathRecord, RoCE builds the path from the route and the netdev.",
        "Exit 0 resolved, 1 failed, 2 usage."
    })
public final class ResolveRouteCommand implements Callable<Integer>
{
    private static final ObjectMapper MAPPER = JsonOutput.MAPPER;

    @Parameters(index = "0", paramLabel = "DST", description = "destination IPv4 or IPv6 address")
    String destination;

    @Option(names = "--src", paramLabel = "SRC", description = "source address to bind (default: the route's choice)")
    String source;

    @Option(names = "--port", paramLabel = "P", defaultValue = "0",
        description = "destination port: the Service ID is (RDMA_PS_TCP << 16) + P (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--tos", paramLabel = "T", description = "type of service (rdma_set_service_type), 0-255")
    Integer tos;

    @CommandLine.Mixin
    TimeoutOption timeout = new TimeoutOption();

    @CommandLine.Mixin
    FabricOption fabric = new FabricOption();

    @CommandLine.Mixin
    HostsOption hosts = new HostsOption();

    @Option(names = "--netns", paramLabel = "NAME", description = "resolve inside this network namespace (ip netns)")
    String networkNamespace;

    @CommandLine.Mixin
    TraceOption trace = new TraceOption();

    @CommandLine.Mixin
    PcapOption pcap = new PcapOption();

    @CommandLine.Mixin
    JsonOption json = new JsonOption();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final List<String> transitions = new CopyOnWriteArrayList<>();
    private int timeoutMs;
    private final Map<String, String> environment;

    public ResolveRouteCommand()
    {
        this(System.getenv());
    }

    /** With the environment whose {@code SYSFS_PATH} names the sysfs root of the RDMA devices. */
    ResolveRouteCommand(final Map<String, String> environment)
    {
        this.environment = environment;
    }

    @Override
    public Integer call()
    {
        validate();
        final PrintWriter out = spec.commandLine().getOut();
        final HostsFile hostsFile = hosts.read();
        final FabricSpec fabricSpec = fabric.spec();
        try (PcapMadRecorder recorder = pcap.recorder())
        {
            SaClient sa = null;
            try
            {
                if (fabricSpec != null)
                {
                    final SaClientConfig config = SaClientConfig.defaults().withCacheTtl(Duration.ZERO);
                    sa = SaClient.start(fabricSpec.open(Duration.ofMillis(Math.min(timeoutMs, 5_000))),
                        recorder == null ? config : config.withRecorder(recorder));
                }
                return resolve(out, sa, hostsFile);
            }
            catch (final MadTransportException ex)
            {
                return fail(out, JsonOutput.errno(Errno.ENODEV, "--fabric " + fabric.fabric + ": " + ex.getMessage()), null);
            }
            finally
            {
                if (sa != null)
                {
                    sa.close(); // before the recorder, which the engine writes to until it stops
                }
            }
        }
    }

    private void validate()
    {
        timeoutMs = timeout.atLeast(1);
        if (port < 0 || port > 0xffff)
        {
            throw new IllegalArgumentException("--port " + port + ": must be 0-65535");
        }
        if (tos != null && (tos < 0 || tos > 0xff))
        {
            throw new IllegalArgumentException("--tos " + tos + ": must be 0-255");
        }
        if (hosts.given() && !fabric.given())
        {
            throw new IllegalArgumentException("--hosts needs --fabric: the hosts file maps addresses to GIDs of that fabric");
        }
        if (pcap.given() && !fabric.given())
        {
            throw new IllegalArgumentException("--pcap needs --fabric: it records the SA MADs sent on that fabric");
        }
    }

    private int resolve(final PrintWriter out, final SaClient sa, final HostsFile hostsFile)
    {
        final long start = System.nanoTime();
        RdmaCm.Options options = RdmaCm.Options.defaults()
            .gids(SysfsGidDirectory.read(SysfsDevices.root(environment)))
            .listener((id, from, to, reason) -> transitions.add(String.format(Locale.ROOT,
                "%10.3f ms %s -> %s (%s)", (System.nanoTime() - start) / 1e6, from, to, reason)));
        if (sa != null)
        {
            options = options.sa(sa);
        }
        if (hostsFile != null)
        {
            options = HostsOption.neighbours(options, hostsFile, sa.localPort());
        }
        if (networkNamespace != null)
        {
            options = options.networkNamespace(NetworkNamespace.byName(networkNamespace));
        }
        final RdmaCm cm;
        try
        {
            cm = RdmaCm.open(options);
        }
        catch (final RdmaCmException ex)
        {
            return fail(out, JsonOutput.errno(ex.errno(), ex.getMessage()), null);
        }
        try (cm; EventChannel channel = cm.createEventChannel())
        {
            final InetAddress dst = AddressArgument.parse(destination, "DST", name -> ResolveAddrCommand.scopeIndex(cm, name));
            final InetAddress src = source == null ? null : AddressArgument.parse(source, "--src", name -> ResolveAddrCommand.scopeIndex(cm, name));
            final RdmaCmId id = cm.createId(channel);
            if (tos != null)
            {
                id.setServiceType(tos);
            }
            try
            {
                id.resolveAddr(src == null ? null : new InetSocketAddress(src, 0), new InetSocketAddress(dst, port),
                    Duration.ofMillis(timeoutMs));
            }
            catch (final RdmaCmException ex)
            {
                return fail(out, JsonOutput.callError("rdma_resolve_addr", ex.errno(), ex.getMessage()),
                    new Trail(ex.trace() == null ? List.of() : ex.trace().steps(), List.of()));
            }
            final CmEvent.ResolutionEvent addr = next(channel);
            if (!(addr instanceof CmEvent.AddrResolved resolved))
            {
                return fail(out, JsonOutput.eventError(addr, "rdma_resolve_addr: " + addr),
                    new Trail(addr.trace().steps(), List.of()));
            }
            final AddressResolution resolution = resolved.resolution();
            try
            {
                id.resolveRoute(Duration.ofMillis(timeoutMs));
            }
            catch (final RdmaCmException ex)
            {
                return fail(out, JsonOutput.callError("rdma_resolve_route", ex.errno(), ex.getMessage()),
                    new Trail(resolution.steps(), ex.trace() == null ?
                    List.of() : ex.trace().steps()));
            }
            final CmEvent.ResolutionEvent route = next(channel);
            if (!(route instanceof CmEvent.RouteResolved routed))
            {
                return fail(out, JsonOutput.eventError(route, "rdma_resolve_route: " + route),
                    new Trail(resolution.steps(), route.trace().steps()));
            }
            print(out, resolution, routed.route(), new Trail(resolution.steps(), routed.trace().steps()));
            return Main.EXIT_OK;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return fail(out, JsonOutput.errno(Errno.EINTR, "interrupted"), null);
        }
    }

    private CmEvent.ResolutionEvent next(final EventChannel channel) throws InterruptedException
    {
        // Every resolution ends by its own deadline; the bound only guards against a lost event.
        final CmEvent event = channel.getEvent(Duration.ofMillis(timeoutMs + 10_000L));
        if (event == null)
        {
            throw new IllegalStateException("no event within " + (timeoutMs + 10_000) + " ms");
        }
        event.ack();
        if (!(event instanceof CmEvent.ResolutionEvent resolution))
        {
            throw new IllegalStateException("a resolution ended with " + event);
        }
        return resolution;
    }

    /** The steps of each call, each timed from the start of its own call as the kernel's requests are. */
    private record Trail(List<ResolutionStep> address, List<ResolutionStep> route)
    {
        static final Trail NONE = new Trail(List.of(), List.of());
    }

    private void print(final PrintWriter out, final AddressResolution a, final ResolvedRoute route, final Trail steps)
    {
        if (json.json)
        {
            final ObjectNode root = MAPPER.createObjectNode().put("event", CmEventType.ROUTE_RESOLVED.name());
            root.put("destination", a.destination().getHostAddress());
            root.put("source", a.source().getHostAddress());
            root.put("sgid", a.sgid().toString());
            root.put("dgid", a.dgid().toString());
            root.put("pkey", a.pkey().toString());
            root.put("device", a.binding().device());
            root.put("port", a.binding().port());
            root.put("route_kind", route.kind().name());
            final ArrayNode records = root.putArray("route");
            route.pathData().forEach(record -> records.add(PathDataJson.of(MAPPER, record)));
            traceJson(root, steps);
            out.println(JsonOutput.write(root));
        }
        else
        {
            out.printf("%-26s %s%n", "destination", a.destination().getHostAddress());
            out.printf("%-26s %s%n", "source", a.source().getHostAddress());
            out.printf("%-26s %s%n", "sgid", a.sgid());
            out.printf("%-26s %s%n", "dgid", a.dgid());
            out.printf("%-26s %s port %d%n", "device", a.binding().device(), a.binding().port());
            out.printf("%-26s %s%n", "route", route.kind() == ResolvedRoute.Kind.SA_QUERY ?
                "SA PathRecord (cma_query_ib_route)" : "RoCE, built locally (cma_resolve_iboe_route)");
            for (int i = 0; i < route.pathData().size(); i++)
            {
                out.printf("path %d flags 0x%x (%s)%n", i, route.flags(i),
                    IbvPathData.flagNames(route.flags(i)));
                out.print(PathText.format(List.of(route.paths().get(i))));
            }
            traceText(out, steps);
        }
        out.flush();
    }

    private int fail(final PrintWriter out, final ObjectNode error, final Trail steps)
    {
        final String message = error.get("message").asText();
        if (json.json)
        {
            traceJson(error, steps == null ? Trail.NONE : steps);
            JsonOutput.print(out, error);
        }
        else
        {
            traceText(out, steps == null ? Trail.NONE : steps);
            out.flush();
            spec.commandLine().getErr().println("rdmacm resolve-route " + destination + ": " + message);
            spec.commandLine().getErr().flush();
        }
        return Main.EXIT_RESOLUTION_FAILURE;
    }

    private void traceJson(final ObjectNode root, final Trail trail)
    {
        if (!trace.trace)
        {
            return;
        }
        root.set("steps", JsonOutput.steps(trail.address()));
        root.set("route_steps", JsonOutput.steps(trail.route()));
        root.set("transitions", JsonOutput.transitions(transitions));
    }

    private void traceText(final PrintWriter out, final Trail trail)
    {
        if (!trace.trace)
        {
            return;
        }
        out.println("rdma_resolve_addr steps:");
        trail.address().forEach(step -> out.println("  " + step));
        if (!trail.route().isEmpty())
        {
            out.println("rdma_resolve_route steps:");
            trail.route().forEach(step -> out.println("  " + step));
        }
        out.println("transitions:");
        transitions.forEach(t -> out.println("  " + t));
    }
}
