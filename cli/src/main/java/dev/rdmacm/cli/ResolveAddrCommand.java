package dev.rdmacm.cli;

import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.resolver.ResolutionStep;
import dev.rdmacm.sa.SaClientConfig;
import picocli.CommandLine.Model.CommandSpec;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm resolve-addr DST}: one {@code rdma_resolve_addr} with the kernel's rules, printing the
 * result (or the errno) and, with {@code --trace}, every step and state transition with its time.
 */
public final class ResolveAddrCommand implements Callable<Integer>
{
    private final AddressOptions options = new AddressOptions();

    private CommandSpec spec;

    private CommandOutput output;

    public ResolveAddrCommand()
    {
        this(System.getenv());
    }

    /** With the environment whose {@code SYSFS_PATH} names the sysfs root of the RDMA devices. */
    ResolveAddrCommand(final Map<String, String> environment)
    {
        options.environment = environment;
    }

    /** This command as picocli's model, built by hand ({@link StartModels}): no annotation is read at start. */
    CommandSpec model()
    {
        spec = CommandSpec.wrapWithoutInspection(this).name("resolve-addr").addMixin("options", options.model());
        spec.usageMessage().description(
            "Resolves an IP address to an RDMA address as rdma_resolve_addr does.",
            "Route, source netdev, neighbour (ARP/ND), then the RDMA device, port and GID index from the sysfs GID tables "
                + "($SYSFS_PATH when set, else /sys).",
            "With --hosts (and --fabric, which names the local port) the hosts file is the neighbour table.",
            "Exit 0 resolved, 1 failed, 2 usage.");
        return StartModels.withStandardHelp(spec);
    }

    @Override
    public Integer call()
    {
        final int timeoutMs = options.timeout.atLeast(0);
        if (options.hosts.given() != options.fabric.given())
        {
            throw new IllegalArgumentException(options.hosts.given() ? HostsOption.NEEDS_FABRIC :
                "--fabric needs --hosts: resolve-addr asks no SA, the fabric only names the local port of the hosts file");
        }
        output = CommandOutput.of(spec, options.json.json);
        return options.run(output, timeoutMs, SaClientConfig.defaults().withCacheTtl(Duration.ZERO),
            (cm, channel, dst, src) -> resolve(cm, channel, dst, src, timeoutMs));
    }

    private int resolve(final RdmaCm cm, final EventChannel channel, final InetAddress dst, final InetAddress src,
        final int timeoutMs) throws InterruptedException
    {
        final RdmaCmId id = cm.createId(channel);
        options.transitions.restart();
        try
        {
            id.resolveAddr(src, dst, Duration.ofMillis(timeoutMs));
        }
        catch (final RdmaCmException ex)
        {
            return output.error(JsonOutput.callError("rdma_resolve_addr", ex.errno(), ex.getMessage())
                .put("destination", options.text(dst)), trace(ex.trace() == null ? null : ex.trace().steps()));
        }
        final CmEvent event = CmEvents.next(channel, timeoutMs);
        if (event.type() != CmEventType.ADDR_RESOLVED)
        {
            return output.error(JsonOutput.eventError(event, CmEvents.message(event))
                .put("destination", options.text(dst)), trace(CmEvents.steps(event)));
        }
        final AddressResolution resolution = event.id().resolution();
        return output.result(AddressFields.json(CmEventType.ADDR_RESOLVED.name(), id, options::interfaceName),
            out -> AddressFields.text(out, id, options::interfaceName), trace(resolution.steps()));
    }

    private Trace trace(final List<ResolutionStep> steps)
    {
        return options.trace.trace ? new Trace(steps, null, options.transitions.transitions()) : null;
    }
}
