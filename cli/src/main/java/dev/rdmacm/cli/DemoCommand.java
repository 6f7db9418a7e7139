package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.AddressFamily;
import dev.rdmacm.addrinfo.QpType;
import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.addrinfo.RdmaGetAddrInfo;
import dev.rdmacm.cli.demo.DemoFabric;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.resolver.spi.HostsNeighbours;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.resolver.ResolutionStep;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.sa.transport.MadTransportException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm demo}: the guided run of the stack. Installs what is missing ({@code scripts/setup},
 * as root), starts ibsim and OpenSM on the bundled topology, writes an ibacm hosts file for its HCAs,
 * and walks {@code rdma_getaddrinfo}, {@code rdma_resolve_addr} and {@code rdma_resolve_route} from
 * Hca2 to the other hosts and to an address nobody has, every step with its time; then stops the two
 * processes it started, by PID.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
        "A guided run of getaddrinfo, resolve_addr and resolve_route on a simulated InfiniBand fabric.",
        "It runs setup, starts ibsim + OpenSM, shows every step and stops what it started. Needs no RDMA hardware. Exit 0 when every walk went as expected."
    })
public final class DemoCommand implements Callable<Integer>
{
    static final String SOURCE_NODE = "Hca2";
    static final int PORT = 7471;
    /** An address the hosts file does not list: its resolution must time out, as an unanswered ARP does. */
    static final String UNKNOWN = "10.0.0.99";

    @Option(names = "--no-setup", description = "do not run scripts/setup first")
    boolean noSetup;

    /** Each resolution's timeout; the unknown address waits 200 ms. */
    @CommandLine.Mixin
    TimeoutOption timeout = new TimeoutOption();

    /** One JSON object: setup, fabric, hosts, every walk with its events, route and steps. */
    @CommandLine.Mixin
    JsonOption jsonOption = new JsonOption();

    private boolean json;
    private int timeoutMs;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final JsonObject report = new JsonObject();
    private PrintWriter out;
    private int section;
    private JsonArray walks;
    private JsonObject walk;

    @Override
    public Integer call() throws IOException, InterruptedException
    {
        timeoutMs = timeout.atLeast(1);
        json = jsonOption.json;
        out = spec.commandLine().getOut();
        if (!noSetup && !setup())
        {
            return Main.EXIT_RESOLUTION_FAILURE;
        }
        heading("fabric");
        final String[] devices = new File("/sys/class/infiniband").list();
        say(devices == null || devices.length == 0 ? "no RDMA hardware here (/sys/class/infiniband is empty): " +
            "starting a simulated InfiniBand fabric" : "RDMA devices " + String.join(", ", devices) +
            " found; the demo still runs on a simulated fabric, which it can take apart");
        final DemoFabric fabric;
        try
        {
            fabric = DemoFabric.start(this::say);
        }
        catch (final MadTransportException | IOException ex)
        {
            return CommandOutput.of(spec, json).error(JsonOutput.errno(Errno.ENODEV, "cannot start ibsim and OpenSM: " + ex.getMessage()));
        }
        final List<Long> pids = fabric.pids();
        report.putObject("fabric").put("ibsim_pid", pids.get(0)).put("opensm_pid", pids.get(pids.size() - 1))
            .put("ibsim_udp_port", fabric.ctlPort());
        boolean ok;
        try
        {
            ok = walk(fabric);
        }
        finally
        {
            heading("stop");
            fabric.close();
            say("stopped OpenSM (pid " + pids.get(pids.size() - 1) + ") and ibsim (pid " + pids.get(0) + ")");
        }
        say(ok ? "demo complete: every resolution went as the kernel's rules say" : "demo FAILED: see above");
        report.put("stopped", true).put("ok", ok);
        if (json)
        {
            CommandOutput.of(spec, true).result(report, ignored -> { });
        }
        out.flush();
        return ok ? Main.EXIT_OK : Main.EXIT_RESOLUTION_FAILURE;
    }

    /** scripts/setup installs what is missing (as root) or prints the apt-get line (not root). */
    private boolean setup() throws IOException, InterruptedException
    {
        heading("setup");
        final Path script = checkoutRoot().resolve("scripts/setup");
        if (!Files.isExecutable(script))
        {
            say("no " + script + " (not run from a checkout): skipping the package check");
            return true;
        }
        say("running " + script + " runtime (installs the missing Debian packages the CLI and this demo need, as root)");
        final Process process = new ProcessBuilder(script.toString(), "runtime").redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        final int exit = process.waitFor();
        output.lines().forEach(line -> say("  " + line));
        report.putObject("setup").put("script", script.toString()).put("exit", exit).put("output", output);
        if (exit != 0)
        {
            CommandOutput.of(spec, json).error(JsonOutput.errno(Errno.EIO, "scripts/setup failed (exit " + exit + ")"));
            return false;
        }
        say("every package the demo needs is installed");
        return true;
    }

    private boolean walk(final DemoFabric fabric) throws IOException, InterruptedException
    {
        heading("hosts");
        final JsonArray hostsJson = report.putArray("hosts");
        for (final LocalPort port : fabric.hcaPorts())
        {
            hostsJson.add(host(port));
            say(String.format("%-5s lid %-2d port guid 0x%016x  ->  %s %s", port.name(), port.lid(), port.portGuid(),
                address(port).getHostAddress(), port.gid()));
        }
        final Path file = fabric.hostsFile();
        say("wrote " + file + ": it stands in for IPoIB's neighbour table (there is no IP layer on ibsim)");
        final HostsFile hosts = HostsFile.read(file);

        boolean ok = true;
        walks = report.putArray("walks");
        final List<LocalPort> destinations = new ArrayList<>();
        for (final LocalPort port : fabric.hcaPorts())
        {
            if (!port.name().equals(SOURCE_NODE))
            {
                destinations.add(port);
            }
        }
        // as a library attaches to a fabric and a hosts file: the public calls --fabric and --hosts make
        try (SaClient sa = SaClient.attach(fabric.fabricOption(SOURCE_NODE), Duration.ofSeconds(2),
                SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
             RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().sa(sa)
                 .hostsNeighbours(HostsNeighbours.onPortOf(hosts, sa))
                 .listener((id, from, to, reason) -> say(String.format("  state %-13s -> %-14s %s", from, to, reason))).build());
             EventChannel channel = cm.createEventChannel())
        {
            for (final LocalPort destination : destinations)
            {
                heading("resolve " + SOURCE_NODE + " -> " + destination.name());
                final InetSocketAddress resolved = getaddrinfo(address(destination));
                ok &= resolved != null && resolve(cm, channel, resolved.getAddress(), destination, timeoutMs);
            }
            heading("resolve " + SOURCE_NODE + " -> " + UNKNOWN + " (listed nowhere)");
            ok &= resolve(cm, channel, InetAddress.getByName(UNKNOWN), null, 200);
        }
        catch (final RdmaCmException ex)
        {
            spec.commandLine().getErr().println("rdmacm demo: " + ex.getMessage());
            return false;
        }
        return ok;
    }

    /** {@code rdma_getaddrinfo} of a numeric host: the destination address rdma_resolve_addr is given. */
    private InetSocketAddress getaddrinfo(final InetAddress node)
    {
        final String service = Integer.toString(PORT);
        walk = walks.addObject().put("destination", node.getHostAddress());
        say("rdma_getaddrinfo(\"" + node.getHostAddress() + "\", \"" + service + "\", {ai_flags RAI_NUMERICHOST})");
        final AddrInfoResult result = RdmaGetAddrInfo.withDefaults()
            .getaddrinfo(node.getHostAddress(), service, RdmaAddrInfoHints.NONE.withFlags(RaiFlags.NUMERICHOST));
        if (!(result instanceof AddrInfoResult.Success success) || success.entries().isEmpty())
        {
            say("rdma_getaddrinfo failed: " + result);
            return null;
        }
        final RdmaAddrInfo entry = success.entries().get(0);
        walk.putObject("getaddrinfo").put("ai_family", entry.family()).put("ai_family_name", AddressFamily.name(entry.family()))
            .put("ai_qp_type", entry.qpType()).put("ai_qp_type_name", QpType.name(entry.qpType()))
            .put("ai_port_space", entry.portSpace()).put("ai_port_space_name", GetAddrInfoText.portSpaceName(entry.portSpace()))
            .put("ai_dst_addr", GetAddrInfoJson.sockaddrText(entry.dstAddr()));
        say(String.format("  ai_family %s ai_qp_type %s ai_port_space 0x%04x ai_dst_addr %s ai_route %d bytes " +
            "(no ibacm here: rdma_resolve_route asks the SA)", AddressFamily.name(entry.family()),
            QpType.name(entry.qpType()), entry.portSpace(), entry.dstAddr() == null ? "-" : entry.dstAddr().toText(),
            entry.route().length));
        return new InetSocketAddress(node, PORT);
    }

    /** One walk; {@code expected} is the destination port, or null when the address must not resolve. */
    private boolean resolve(final RdmaCm cm, final EventChannel channel, final InetAddress destination,
        final LocalPort expected, final int timeout) throws InterruptedException
    {
        final RdmaCmId id = cm.createId(channel, PortSpace.TCP);
        if (walk == null || !destination.getHostAddress().equals(walk.text("destination")))
        {
            walk = walks.addObject().put("destination", destination.getHostAddress());
        }
        if (expected != null)
        {
            walk.put("node", expected.name());
        }
        final JsonArray events = walk.putArray("events");
        final JsonArray stepsJson = walk.putArray("steps");
        final JsonArray routeStepsJson = walk.putArray("route_steps");
        String call = "rdma_resolve_addr";
        try
        {
            say("rdma_resolve_addr(dst " + destination.getHostAddress() + ":" + PORT + ", timeout " + timeout + " ms)");
            id.resolveAddr(null, new InetSocketAddress(destination, PORT), Duration.ofMillis(timeout));
            final CmEvent addr = CmEvents.next(channel, timeout);
            steps(CmEvents.steps(addr), stepsJson);
            events.add(event(addr));
            if (addr.type() != CmEventType.ADDR_RESOLVED)
            {
                say(addr.toString());
                return expected == null && addr.status() == -Errno.ETIMEDOUT;
            }
            final AddressResolution resolution = addr.id().resolution();
            say("ADDR_RESOLVED sgid " + resolution.sgid() + " dgid " + resolution.dgid() + " pkey " +
                resolution.pkey());
            say("rdma_resolve_route(timeout " + timeout + " ms)");
            call = "rdma_resolve_route";
            id.resolveRoute(Duration.ofMillis(timeout));
            final CmEvent route = CmEvents.next(channel, timeout);
            steps(CmEvents.steps(route), routeStepsJson);
            events.add(event(route));
            if (route.type() != CmEventType.ROUTE_RESOLVED)
            {
                say(route.toString());
                return false;
            }
            final ResolvedRoute resolved = route.id().route();
            final JsonArray routeJson = walk.putArray("route");
            resolved.paths().forEach(each -> routeJson.add(PathDataJson.of(each)));
            final PathRecordValue path = resolved.primary().record();
            say(String.format("ROUTE_RESOLVED ibv_path_data flags 0x%x: dlid %d slid %d sl %d mtu %d rate %d " +
                "packet_life_time %d pkey 0x%04x", resolved.primary().flags(), path.dlid().value(), path.slid().value(), path.sl(),
                path.mtu(), path.rate(), path.packetLifeTime(), path.pKey().value()));
            return expected != null && path.dlid().value() == expected.lid() && path.dgid().equals(expected.gid());
        }
        catch (final RdmaCmException ex)
        {
            say("returned " + Errno.name(ex.errno()) + ": " + ex.getMessage());
            events.add(JsonOutput.callError(call, ex.errno(), ex.getMessage()));
            return false;
        }
        finally
        {
            id.destroy();
            walk = null;
        }
    }

    /** A success as {@code {"event": TYPE, "status": 0}}, a failure event as the renderer's event error. */
    private static JsonObject event(final CmEvent event)
    {
        if (event.status() == 0)
        {
            return new JsonObject().put("event", event.type().name()).put("status", 0);
        }
        return JsonOutput.eventError(event, CmEvents.message(event));
    }

    private void steps(final List<ResolutionStep> steps, final JsonArray json)
    {
        for (final ResolutionStep step : steps)
        {
            say("  step " + step);
        }
        json.addAll(JsonOutput.steps(steps));
    }

    private static InetAddress address(final LocalPort port)
    {
        return DemoFabric.address(port);
    }

    /** One HCA as the hosts file lists it, the {@code demo_host} object of docs/json.md. */
    static JsonObject host(final LocalPort port)
    {
        return new JsonObject().put("node", port.name()).put("lid", port.lid())
            .put("gid", port.gid().toString()).put("address", address(port).getHostAddress());
    }

    /** The checkout this command runs from: the first parent of its classes or jar with scripts/setup. */
    static Path checkoutRoot()
    {
        try
        {
            Path dir = Path.of(DemoCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            while (dir != null && !Files.exists(dir.resolve("scripts/setup")))
            {
                dir = dir.getParent();
            }
            return dir == null ? Path.of(".") : dir;
        }
        catch (final URISyntaxException | SecurityException ex)
        {
            return Path.of(".");
        }
    }

    private void heading(final String title)
    {
        if (json)
        {
            return;
        }
        out.println();
        out.println("== " + (++section) + ". " + title);
        out.flush();
    }

    private void say(final String line)
    {
        if (json)
        {
            return;
        }
        out.println(line);
        out.flush();
    }
}
