package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.resolver.ResolutionStep;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.resolver.RoutePath;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.sa.PcapMadRecorder;
import dev.rdmacm.sa.SaClientConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm resolve-route DST}: {@code rdma_resolve_addr} then {@code rdma_resolve_route} with
 * the kernel's rules, printing the address as resolve-addr does and the route as {@code ibv_path_data}
 * records. On an InfiniBand fabric ({@code --fabric}) the path comes from one SA PathRecord Get; with
 * {@code --hosts} an ibacm hosts file stands in for IPoIB's neighbour table, so it runs on ibsim;
 * without a fabric the IP stack resolves the address and RoCE paths are built locally.
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
    @CommandLine.Mixin
    AddressOptions options = new AddressOptions();

    @Option(names = "--port", paramLabel = "P", defaultValue = "0",
        description = "destination port: the Service ID is (RDMA_PS_TCP << 16) + P (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--tos", paramLabel = "T", description = "type of service (rdma_set_service_type), 0-255")
    Integer tos;

    @CommandLine.Mixin
    PcapOption pcap = new PcapOption();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private int timeoutMs;
    private CommandOutput output;

    public ResolveRouteCommand()
    {
        this(System.getenv());
    }

    /** With the environment whose {@code SYSFS_PATH} names the sysfs root of the RDMA devices. */
    ResolveRouteCommand(final Map<String, String> environment)
    {
        options.environment = environment;
    }

    @Override
    public Integer call()
    {
        validate();
        output = CommandOutput.of(spec, options.json.json);
        try (PcapMadRecorder recorder = pcap.recorder())
        {
            final SaClientConfig config = SaClientConfig.defaults().withCacheTtl(Duration.ZERO);
            // the SA client closes inside run, before the recorder, which the engine writes to until it stops
            return options.run(output, timeoutMs, recorder == null ? config : config.withRecorder(recorder), this::resolve);
        }
    }

    private void validate()
    {
        timeoutMs = options.timeout.atLeast(1);
        if (port < 0 || port > 0xffff)
        {
            throw new IllegalArgumentException("--port " + port + ": must be 0-65535");
        }
        if (tos != null && (tos < 0 || tos > 0xff))
        {
            throw new IllegalArgumentException("--tos " + tos + ": must be 0-255");
        }
        if (options.hosts.given() && !options.fabric.given())
        {
            throw new IllegalArgumentException(HostsOption.NEEDS_FABRIC);
        }
        if (pcap.given() && !options.fabric.given())
        {
            throw new IllegalArgumentException("--pcap needs --fabric: it records the SA MADs sent on that fabric");
        }
    }

    private int resolve(final RdmaCm cm, final EventChannel channel, final InetAddress dst, final InetAddress src)
        throws InterruptedException
    {
        final RdmaCmId id = cm.createId(channel);
        if (tos != null)
        {
            id.setServiceType(tos);
        }
        options.transitions.restart();
        try
        {
            id.resolveAddr(src == null ? null : new InetSocketAddress(src, 0), new InetSocketAddress(dst, port), Duration.ofMillis(timeoutMs));
        }
        catch (final RdmaCmException ex)
        {
            return failure(JsonOutput.callError("rdma_resolve_addr", ex.errno(), ex.getMessage()), dst, steps(ex), null);
        }
        final CmEvent addr = CmEvents.next(channel, timeoutMs);
        if (addr.type() != CmEventType.ADDR_RESOLVED)
        {
            return failure(JsonOutput.eventError(addr, CmEvents.message(addr)), dst, CmEvents.steps(addr), null);
        }
        final AddressResolution resolution = addr.id().resolution();
        final long routeCalledNanos = options.transitions.nowNanos();
        try
        {
            id.resolveRoute(Duration.ofMillis(timeoutMs));
        }
        catch (final RdmaCmException ex)
        {
            return failure(JsonOutput.callError("rdma_resolve_route", ex.errno(), ex.getMessage()), dst,
                resolution.steps(), Trace.shifted(steps(ex), routeCalledNanos));
        }
        final CmEvent route = CmEvents.next(channel, timeoutMs);
        if (route.type() != CmEventType.ROUTE_RESOLVED)
        {
            return failure(JsonOutput.eventError(route, CmEvents.message(route)), dst, resolution.steps(),
                Trace.shifted(CmEvents.steps(route), routeCalledNanos));
        }
        final ResolvedRoute resolved = route.id().route();
        return output.result(json(id, resolved), out -> text(out, id, resolved),
            trace(resolution.steps(), Trace.shifted(CmEvents.steps(route), routeCalledNanos)));
    }

    private int failure(final JsonObject error, final InetAddress dst, final List<ResolutionStep> addressSteps,
        final List<ResolutionStep> routeSteps)
    {
        return output.error(error.put("destination", options.text(dst)),
            trace(addressSteps, routeSteps == null ? List.of() : routeSteps));
    }

    private static List<ResolutionStep> steps(final RdmaCmException ex)
    {
        return ex.trace() == null ? List.of() : ex.trace().steps();
    }

    private Trace trace(final List<ResolutionStep> addressSteps, final List<ResolutionStep> routeSteps)
    {
        return options.trace.trace ? new Trace(addressSteps, routeSteps, options.transitions.transitions()) : null;
    }

    /**
     * The address fields of resolve-addr, then {@code "route_kind"}, {@code "route"} (the ibv_path_data
     * records, as the kernel returned them) and {@code "path_rec"} (the same paths as librdmacm hands
     * them to the application in {@code id->route.path_rec}).
     */
    private JsonObject json(final RdmaCmId id, final ResolvedRoute route)
    {
        final JsonObject root = AddressFields.json(CmEventType.ROUTE_RESOLVED.name(), id, options::interfaceName);
        root.put("route_kind", route.kind().name());
        final JsonArray records = root.putArray("route");
        for (final RoutePath path : route.paths())
        {
            records.add(PathDataJson.of(path));
        }
        final JsonArray applicationPaths = root.putArray("path_rec");
        for (final RoutePath path : route.paths())
        {
            applicationPaths.add(PathRecJson.of(path));
        }
        return root;
    }

    private void text(final PrintWriter out, final RdmaCmId id, final ResolvedRoute route)
    {
        AddressFields.text(out, id, options::interfaceName);
        out.printf("%-12s %s%n", "route_kind", route.kind() + (route.kind() == ResolvedRoute.Kind.SA_QUERY ?
            ": an SA PathRecord (cma_query_ib_route)" : ": RoCE, built locally (cma_resolve_iboe_route)"));
        for (int i = 0; i < route.paths().size(); i++)
        {
            final RoutePath path = route.paths().get(i);
            out.printf("path %d flags 0x%x (%s)%n", i, path.flags(), IbvPathData.flagNames(path.flags()));
            out.print(PathText.format(List.of(path.record())));
            out.printf("path_rec %d (librdmacm's id->route.path_rec)%n", i);
            PathRecJson.of(path).forEachText((name, value) -> out.printf("  %-26s %s%n", name, value));
        }
    }
}
