package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.EaiCode;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.diagnostics.StateTransitionListener;
import dev.rdmacm.libc.Errno;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm resolve-addrinfo [NODE] [SERVICE]}: rdma-core HEAD's {@code rdma_resolve_addrinfo} on
 * an id, its ADDRINFO_RESOLVED event, then {@code rdma_query_addrinfo}'s entries, printed as
 * {@code rdmacm getaddrinfo} prints them; a failed call prints its errno, which librdmacm sets to the
 * EAI code (or -1) of a failed lookup.
 */
@Command(
    name = "resolve-addrinfo",
    mixinStandardHelpOptions = true,
    description = {
        "Resolves NODE and SERVICE on an rdma_cm_id as rdma-core HEAD's rdma_resolve_addrinfo does, "
            + "waits for ADDRINFO_RESOLVED and prints what rdma_query_addrinfo hands over.",
        "NODE, SERVICE and the hint options are those of getaddrinfo; without a hint option no hints are passed.",
        "Exit status: 0 resolved, 1 resolution failed, 2 usage error."
    })
public final class ResolveAddrinfoCommand implements Callable<Integer>
{
    private static final String CALL = "rdma_resolve_addrinfo";
    private static final Duration EVENT_WAIT = Duration.ofSeconds(10);

    @CommandLine.Mixin
    private NodeServiceArguments target = new NodeServiceArguments();

    @CommandLine.Mixin
    private AddrInfoHintOptions hints = new AddrInfoHintOptions();

    @CommandLine.Mixin
    private JsonOption json = new JsonOption();

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private final Map<String, String> environment;

    public ResolveAddrinfoCommand()
    {
        this(System.getenv());
    }

    /** With the environment whose {@code SYSFS_PATH} names the sysfs root of the RDMA devices. */
    ResolveAddrinfoCommand(final Map<String, String> environment)
    {
        this.environment = environment;
    }

    @Override
    public Integer call() throws InterruptedException
    {
        final CommandOutput output = CommandOutput.of(spec, json.json);
        try (RdmaCm cm = RdmaCm.open(CmOptions.of(environment, StateTransitionListener.NONE, null, null, null).build());
            EventChannel channel = cm.createEventChannel();
            RdmaCmId id = cm.createId(channel))
        {
            try
            {
                id.resolveAddrinfo(target.node(), target.service(), hints.hints());
            }
            catch (final RdmaCmException ex)
            {
                final String name = errnoName(ex.errno());
                return output.error(JsonOutput.error(name, ex.errno(), ErrorMessage.once(ex.getMessage(), name, null, CALL)).put("call", CALL));
            }
            final CmEvent event = channel.getEvent(EVENT_WAIT);
            if (event == null)
            {
                return output.error(JsonOutput.errno(Errno.ETIMEDOUT, "no event within " + EVENT_WAIT.toSeconds() + " s"));
            }
            event.ack();
            if (!(event instanceof CmEvent.AddrinfoResolved))
            {
                return output.error(JsonOutput.error(errnoName(event.status()), event.status(), event.toString())
                    .put("event", event.type().name()).put("status", event.status()));
            }
            final List<RdmaAddrInfo> entries = id.queryAddrinfo();
            final AddrInfoResult.Success success = new AddrInfoResult.Success(entries);
            final JsonObject tree = new JsonObject().put("event", event.type().name())
                .put("entries", GetAddrInfoJson.entries(entries));
            return output.result(tree, out -> out.print(event.type().name() + "\n" + GetAddrInfoText.entries(success)));
        }
    }

    /** An errno's name; librdmacm's errno here may also be an EAI code or -1, which is no errno. */
    private static String errnoName(final int errno)
    {
        if (errno > 0)
        {
            return Errno.name(errno);
        }
        return errno == -1 ? "ERR(-1)" : EaiCode.name(errno);
    }
}
