package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rdmacm.cm.AddressResolution;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.ResolutionStep;
import dev.rdmacm.cm.ResolutionTrace;
import dev.rdmacm.cm.SysfsGidDirectory;
import dev.rdmacm.netlink.HardwareAddress;
import dev.rdmacm.protocol.acm.HostsFile;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.verbs.sysfs.SysfsDevices;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@code rdmacm resolve-addr DST}: one {@code rdma_resolve_addr} with the kernel's rules, printing the
 * result (or the errno) and, with {@code --trace}, every step and state transition with its time.
 */
@Command(
    name = "resolve-addr",
    mixinStandardHelpOptions = true,
    description = {
        "Resolves an IP address to an RDMA address as rdma_resolve_addr does.",
        "Route, source netdev, neighbour (ARP/ND), then the RDMA device, port and GID",
        "index from the sysfs GID tables ($SYSFS_PATH when set, else /sys).",
        "Exit 0 resolved, 1 failed, 2 usage."
    })
public final class ResolveAddrCommand implements Callable<Integer>
{
    @Parameters(index = "0", paramLabel = "DST", description = "destination IPv4 or IPv6 address (fe80::2%%eth0 for a scope)")
    private String destination;

    @Option(names = "--src", paramLabel = "SRC", description = "source address to bind (default: the route's choice)")
    private String source;

    @CommandLine.Mixin
    private TimeoutOption timeout = new TimeoutOption();

    @CommandLine.Mixin
    private JsonOption json = new JsonOption();

    @CommandLine.Mixin
    private TraceOption trace = new TraceOption();

    /** With --hosts: the fabric whose local port the hosts file is matched against. */
    @CommandLine.Mixin
    private FabricOption fabric = new FabricOption();

    @CommandLine.Mixin
    private HostsOption hosts = new HostsOption();

    @Option(names = "--netns", paramLabel = "NAME", description = "resolve inside this network namespace (ip netns)")
    private String networkNamespace;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private final Map<String, String> environment;

    public ResolveAddrCommand()
    {
        this(System.getenv());
    }

    /** With the environment whose {@code SYSFS_PATH} names the sysfs root of the RDMA devices. */
    ResolveAddrCommand(final Map<String, String> environment)
    {
        this.environment = environment;
    }

    @Override
    public Integer call()
    {
        final int timeoutMs = timeout.atLeast(0);
        if (hosts.given() != fabric.given())
        {
            throw new IllegalArgumentException(hosts.given() ?
                "--hosts needs --fabric: the hosts file maps addresses to GIDs of that fabric" :
                "--fabric needs --hosts: resolve-addr asks no SA, the fabric only names the local port of the hosts file");
        }
        final HostsFile hostsFile = hosts.read();
        if (!fabric.given())
        {
            return resolve(timeoutMs, null, null);
        }
        final SaClient sa;
        try
        {
            sa = SaClient.start(fabric.spec().open(Duration.ofMillis(Math.min(Math.max(timeoutMs, 1), 5_000))),
                SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
        }
        catch (final MadTransportException ex)
        {
            final String message = "--fabric " + fabric.fabric + ": " + ex.getMessage();
            if (json.json)
            {
                JsonOutput.print(spec.commandLine().getOut(), JsonOutput.errno(Errno.ENODEV, message));
            }
            spec.commandLine().getErr().println("rdmacm: " + message);
            return Main.EXIT_RESOLUTION_FAILURE;
        }
        try (sa)
        {
            return resolve(timeoutMs, hostsFile, sa.localPort());
        }
    }

    private int resolve(final int timeoutMs, final HostsFile hostsFile, final LocalPort local)
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final List<String> transitions = new CopyOnWriteArrayList<>();
        final long start = System.nanoTime();
        RdmaCm.Options options = RdmaCm.Options.defaults()
            .gids(SysfsGidDirectory.read(SysfsDevices.root(environment)))
            .listener((id, from, to, reason) -> transitions.add(String.format(java.util.Locale.ROOT,
                "%10.3f ms %s -> %s (%s)", (System.nanoTime() - start) / 1e6, from, to, reason)));
        if (hostsFile != null)
        {
            options = HostsOption.neighbours(options, hostsFile, local);
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
            if (json.json)
            {
                JsonOutput.print(out, JsonOutput.errno(ex.errno(), ex.getMessage()));
            }
            err.println("rdmacm: " + ex.getMessage());
            return Main.EXIT_RESOLUTION_FAILURE;
        }
        try (cm; EventChannel channel = cm.createEventChannel())
        {
            final InetAddress dst = AddressArgument.parse(destination, "DST", name -> scopeIndex(cm, name));
            final InetAddress src = source == null ? null : AddressArgument.parse(source, "--src", name -> scopeIndex(cm, name));
            final RdmaCmId id = cm.createId(channel);
            try
            {
                id.resolveAddr(src, dst, Duration.ofMillis(timeoutMs));
            }
            catch (final RdmaCmException ex)
            {
                return report(out, err, dst, null, JsonOutput.callError("rdma_resolve_addr", ex.errno(), ex.getMessage()),
                    ex.getMessage(), ex.trace(), transitions);
            }
            final CmEvent event = channel.getEvent();
            event.ack();
            return switch (event)
            {
                case CmEvent.AddrResolved resolved ->
                    report(out, err, dst, resolved.resolution(), null, null, resolved.trace(), transitions);
                case CmEvent.AddrError error -> report(out, err, dst, null, JsonOutput.eventError(error, error.toString()),
                    error.toString(), error.trace(), transitions);
                default -> throw new IllegalStateException("rdma_resolve_addr ended with " + event);
            };
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            err.println("rdmacm: interrupted");
            return Main.EXIT_RESOLUTION_FAILURE;
        }
    }

    /** A scope name such as {@code eth0} in {@code fe80::2%eth0} as an interface index; unknown: a usage error. */
    static int scopeIndex(final RdmaCm cm, final String name)
    {
        try
        {
            return cm.interfaceIndex(name);
        }
        catch (final RdmaCmException ex)
        {
            throw new IllegalArgumentException("scope '%" + name + "': no such interface (" + Errno.name(ex.errno()) + ")");
        }
    }

    private int report(final PrintWriter out, final PrintWriter err, final InetAddress dst,
        final AddressResolution resolution, final ObjectNode error, final String message, final ResolutionTrace steps,
        final List<String> transitions)
    {
        final List<ResolutionStep> trail = resolution != null ? resolution.steps() :
            steps != null ? steps.steps() : List.of();
        if (json.json)
        {
            final ObjectNode object;
            if (resolution != null)
            {
                object = JsonOutput.MAPPER.createObjectNode().put("event", CmEventType.ADDR_RESOLVED.name());
                object.put("destination", dst.getHostAddress());
                object.setAll(JsonOutput.MAPPER.<ObjectNode>valueToTree(fields(resolution)));
            }
            else
            {
                object = error.put("destination", dst.getHostAddress());
            }
            if (trace.trace)
            {
                object.set("steps", JsonOutput.steps(trail));
                object.set("transitions", JsonOutput.transitions(transitions));
            }
            out.println(JsonOutput.write(object));
        }
        else
        {
            if (resolution != null)
            {
                fields(resolution).forEach((key, value) -> out.printf("%-12s %s%n", key, value == null ? "-" : value));
            }
            else
            {
                err.println("rdmacm: resolve-addr " + dst.getHostAddress() + ": " + message);
            }
            if (trace.trace)
            {
                out.println("steps:");
                trail.forEach(step -> out.println("  " + step));
                out.println("transitions:");
                transitions.forEach(t -> out.println("  " + t));
            }
        }
        out.flush();
        return resolution != null ? Main.EXIT_OK : Main.EXIT_RESOLUTION_FAILURE;
    }

    private static Map<String, Object> fields(final AddressResolution r)
    {
        final Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("source", r.source().getHostAddress());
        fields.put("netdev", r.netdev());
        fields.put("ifindex", r.ifindex());
        fields.put("gateway", r.gateway() == null ? null : r.gateway().getHostAddress());
        fields.put("network", r.networkType().name());
        fields.put("src_hw", HardwareAddress.format(r.sourceHardwareAddress()));
        fields.put("dst_hw", r.destinationHardwareText());
        fields.put("sgid", r.sgid().toString());
        fields.put("dgid", r.dgid().toString());
        fields.put("pkey", r.pkey().toString());
        fields.put("device", r.binding().device());
        fields.put("port", r.binding().port());
        fields.put("gid_index", r.binding().gidIndex());
        fields.put("gid_type", r.binding().gidType().text());
        fields.put("loopback", r.loopback());
        return fields;
    }
}
