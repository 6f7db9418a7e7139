package dev.rdmacm.cli;

import dev.rdmacm.cm.AddressResolution;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.ResolutionStep;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.acm.HostsFile;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.transport.MadTransportException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

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
        "With --hosts (and --fabric, which names the local port) the hosts file is the neighbour table.",
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
    private final TransitionLog transitions = new TransitionLog();
    private CommandOutput output;

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
            throw new IllegalArgumentException(hosts.given() ? HostsOption.NEEDS_FABRIC :
                "--fabric needs --hosts: resolve-addr asks no SA, the fabric only names the local port of the hosts file");
        }
        output = CommandOutput.of(spec, json.json);
        final HostsFile hostsFile = hosts.read();
        final SaClient sa;
        try
        {
            sa = fabric.start(timeoutMs, SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
        }
        catch (final MadTransportException ex)
        {
            return output.error(fabric.error(ex));
        }
        try (sa)
        {
            return resolve(timeoutMs, hostsFile, sa);
        }
    }

    private int resolve(final int timeoutMs, final HostsFile hostsFile, final SaClient sa)
    {
        final RdmaCm cm;
        try
        {
            cm = RdmaCm.open(CmOptions.of(environment, transitions, hostsFile, sa, networkNamespace));
        }
        catch (final RdmaCmException ex)
        {
            return output.error(JsonOutput.errno(ex.errno(), ex.getMessage()));
        }
        try (cm; EventChannel channel = cm.createEventChannel())
        {
            final InetAddress dst = CmOptions.address(cm, destination, "DST");
            final InetAddress src = source == null ? null : CmOptions.address(cm, source, "--src");
            final RdmaCmId id = cm.createId(channel);
            try
            {
                id.resolveAddr(src, dst, timeoutMs);
            }
            catch (final RdmaCmException ex)
            {
                return output.error(JsonOutput.callError("rdma_resolve_addr", ex.errno(), ex.getMessage())
                    .put("destination", dst.getHostAddress()), trace(ex.trace() == null ? null : ex.trace().steps()));
            }
            final CmEvent event = CmEvents.next(channel, timeoutMs);
            if (event.type() != CmEventType.ADDR_RESOLVED)
            {
                return output.error(JsonOutput.eventError(event, CmEvents.message(event))
                    .put("destination", dst.getHostAddress()), trace(CmEvents.steps(event)));
            }
            final AddressResolution resolution = event.id().resolution();
            return output.result(AddressFields.json(CmEventType.ADDR_RESOLVED.name(), resolution),
                out -> AddressFields.text(out, resolution), trace(resolution.steps()));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return output.error(JsonOutput.errno(Errno.EINTR, "interrupted"));
        }
    }

    private Trace trace(final List<ResolutionStep> steps)
    {
        return trace.trace ? new Trace(steps, null, transitions.lines()) : null;
    }
}
