package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.MulticastJoinFlag;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.diagnostics.StateTransitionListener;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.transport.FabricSpec;
import dev.rdmacm.sa.transport.MadTransportException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm mckey}: librdmacm's {@code mckey} (examples/mckey.c) on this project's CM: the same
 * options, the same lines on stdout ({@code mckey: starting server}, {@code mckey: joining},
 * {@code mckey: joined dgid: ... mlid 0x.. sl N}, {@code receiving data transfers} or
 * {@code initiating data transfers}, {@code data transfers complete}, {@code test complete},
 * {@code return status N}) and its status: what {@code run()} returned, as a byte (-1 is 255, a
 * MULTICAST_ERROR's negative errno, getaddrinfo's EAI code), 1 for a usage error.
 * <p>
 * Each of {@code -c} UD ids joins the group and gets its own {@link McKeyNode} (PD, CQ, UD QP); after
 * mckey's 3 s pause for the SM the sender posts {@code -C} datagrams of {@code -S} bytes to the group
 * (immediate data its QP number), a receiver waits for as many. With {@code --fabric ibsim:...} the
 * ports have no verbs device: the ids join and leave, and no QP is made and no data moves (ibsim carries
 * no UD data), as with {@code -C 0}.
 */
@Command(
    name = "mckey",
    versionProvider = VersionProvider.class,
    exitCodeOnInvalidInput = McKeyCommand.USAGE,
    description = {
        "librdmacm's mckey on this project's CM: joins -m's multicast group with -c UD QPs, then receives -C datagrams, "
            + "or with -s sends them.",
        "Exit as mckey: its return status as a byte (0 success, 255 a failed call, a MULTICAST_ERROR's errno), 1 a usage error."
    })
public final class McKeyCommand implements Callable<Integer>
{
    /** mckey's {@code exit(1)} after its usage text. */
    static final int USAGE = 1;
    /** mckey's {@code -1} from a failed librdmacm or verbs call. */
    static final int FAILED = -1;
    /** {@code rdma_resolve_addr}'s 2000 ms in mckey. */
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(2);
    /** How long a join may take; mckey waits forever. */
    private static final Duration EVENT_LIMIT = Duration.ofSeconds(60);
    /** mckey's {@code sleep(3)}: "give SM chance to configure switches". */
    private static final long SM_PAUSE_MS = 3000;
    private static final int RDMA_PS_UDP = 0x0111;
    private static final int RDMA_PS_IPOIB = 0x0002;

    @Option(names = "-m", paramLabel = "ADDR", description = "IP multicast address to join")
    String group;

    @Option(names = "-M", paramLabel = "MGID", description = "RDMA transport specific multicast address (an AF_IB MGID) to join; "
        + "needs -b. This CM joins IP groups only: it fails with EAFNOSUPPORT")
    String unmappedGroup;

    @Option(names = "-s", description = "send datagrams to the group (the client); else receive them (the server)")
    boolean sender;

    @Option(names = "-b", paramLabel = "ADDR", description = "the local address to bind to")
    String bind;

    @Option(names = "-c", paramLabel = "N", defaultValue = "1", description = "QPs (ids) to join the group (default ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "-C", paramLabel = "N", defaultValue = "10", description = "messages per QP (default ${DEFAULT-VALUE})")
    int count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "100", description = "message size, at most the port's active MTU "
        + "(default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "-p", paramLabel = "PS", defaultValue = "0x111", converter = PortSpaceConverter.class,
        description = "port space: 0x111 RDMA_PS_UDP (default) or 0x2 RDMA_PS_IPOIB")
    int portSpace;

    @Option(names = "-o", description = "join as a send-only full member")
    boolean sendOnly;

    @Option(names = "-l", description = "join without multicast loopback (IBV_QP_CREATE_BLOCK_SELF_MCAST_LB, which this project's "
        + "verbs binding does not create: it fails with EOPNOTSUPP)")
    boolean noLoopback;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help and exit")
    boolean help;

    @Option(names = "--version", versionHelp = true, description = "print the version and exit")
    boolean version;

    @Option(names = "--cm", paramLabel = "CM", defaultValue = "auto",
        description = "who joins the groups: userspace (this stack's own multicast: the SA on InfiniBand, the netdev on RoCE), "
            + "kernel (the kernel's CM through /dev/infiniband/rdma_cm, JOIN_MCAST) or auto, this stack's own, which needs no "
            + "CM class (default ${DEFAULT-VALUE})")
    String connectionManager = "auto";

    @CommandLine.Mixin
    FabricOption fabric = new FabricOption();

    @CommandLine.Mixin
    HostsOption hosts = new HostsOption();

    /** mckey's lines as one object instead: the joins, the messages and the status. */
    @CommandLine.Mixin
    JsonOption jsonOption = new JsonOption();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private CommandOutput output;
    /** {@code --cm}'s, read before anything is printed: a bad value is a usage error. */
    private ConnectionManager manager;
    private final List<McKeyNode> nodes = new ArrayList<>();
    private final JsonArray joins = new JsonArray();
    /** The first failure's error object, for --json. */
    private JsonObject error;

    /** {@code -p}'s text as mckey's {@code strtol(optarg, NULL, 0)} reads it: hex, octal or decimal. */
    static final class PortSpaceConverter implements CommandLine.ITypeConverter<Integer>
    {
        @Override
        public Integer convert(final String text)
        {
            final int value;
            try
            {
                value = Integer.decode(text);
            }
            catch (final NumberFormatException ex)
            {
                throw new CommandLine.TypeConversionException("'" + text + "' is not a number");
            }
            if (value != RDMA_PS_UDP && value != RDMA_PS_IPOIB)
            {
                throw new CommandLine.TypeConversionException("'" + text + "' is neither 0x111 (RDMA_PS_UDP) nor 0x2 (RDMA_PS_IPOIB)");
            }
            return value;
        }
    }

    @Override
    public Integer call() throws InterruptedException
    {
        validateOptions();
        manager = ConnectionManagerOption.parse(spec, connectionManager);
        output = CommandOutput.of(spec, jsonOption.json);
        line("mckey: starting " + (sender ? "client" : "server"));
        int status = run();
        line("test complete");
        line("return status " + status);
        if (output.json())
        {
            if (status == 0)
            {
                output.result(new JsonObject().put("role", sender ? "client" : "server")
                    .put("group", group == null ? unmappedGroup : group).put("connections", connections).put("count", count)
                    .put("size", size).put("joins", joins)
                    .put("messages", nodes.stream().mapToInt(McKeyNode::messages).sum()).put("status", status), ignored -> { });
            }
            else
            {
                output.error((error == null ? JsonOutput.errno(Errno.EIO, "mckey failed") : error).put("status", status));
            }
        }
        return status & 0xff;
    }

    private void validateOptions()
    {
        if ((group == null) == (unmappedGroup == null))
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "give one of -m ADDR and -M MGID, the group to join");
        }
        if (unmappedGroup != null && bind == null)
        {
            // mckey's own words
            throw new CommandLine.ParameterException(spec.commandLine(), "unmapped multicast address requires binding to source address");
        }
        if (connections < 1)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-c " + connections + ": at least 1");
        }
        if (count < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-C " + count + ": at least 0");
        }
        if (size < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-S " + size + ": at least 0");
        }
        if (hosts.given() && !fabric.given())
        {
            throw new CommandLine.ParameterException(spec.commandLine(), HostsOption.NEEDS_FABRIC);
        }
    }

    /** mckey's {@code run()}: its return value. */
    private int run() throws InterruptedException
    {
        final InetAddress source;
        final InetAddress destination;
        try
        {
            source = bind == null ? null : HostLookup.resolve(bind);
            if (unmappedGroup != null)
            {
                return fail(JsonOutput.errno(Errno.EAFNOSUPPORT, "-M " + unmappedGroup + ": an AF_IB group; this CM joins IP groups only"),
                    FAILED);
            }
            destination = HostLookup.resolve(group);
        }
        catch (final HostLookup.Failed ex)
        {
            final String option = ex.name.equals(bind) ? "-b" : "-m";
            return fail(ex.json(option), "getaddrinfo failed (" + ex.error.message() + ") - invalid hostname or IP address",
                ex.error.code());
        }
        if (noLoopback)
        {
            return fail(JsonOutput.errno(Errno.EOPNOTSUPP, "-l: IBV_QP_CREATE_BLOCK_SELF_MCAST_LB is not in this project's verbs binding"),
                FAILED);
        }
        line("mckey: joining");
        final SaClient sa;
        try
        {
            sa = fabric.start(EVENT_LIMIT.toMillis(), SaClientConfig.defaults());
        }
        catch (final MadTransportException ex)
        {
            return fail(fabric.error(ex), FAILED);
        }
        final boolean verbs = !(fabric.spec() instanceof FabricSpec.Ibsim);
        try (sa; RdmaCm cm = RdmaCm.open(CmOptions.of(System.getenv(), StateTransitionListener.NONE, hosts.read(), sa, null)
                .connectionManager(manager).build());
             EventChannel channel = cm.createEventChannel())
        {
            final MulticastJoinFlag flag = sendOnly ? MulticastJoinFlag.SEND_ONLY_FULL_MEMBER : MulticastJoinFlag.FULL_MEMBER;
            final PortSpace space = portSpace == RDMA_PS_UDP ? PortSpace.UDP : PortSpace.IPOIB;
            final List<RdmaCmId> ids = new ArrayList<>();
            try
            {
                int status = join(cm, channel, space, source, destination, flag, verbs, ids);
                if (status == 0 && count > 0 && size > 0 && verbs)
                {
                    status = transfer();
                }
                for (final RdmaCmId id : ids)
                {
                    try
                    {
                        id.leave(destination);
                    }
                    catch (final RdmaCmException ex)
                    {
                        status = fail(JsonOutput.errno(ex.errno(), ex.getMessage()), "mckey: failure leaving: " + ex.getMessage(), FAILED);
                    }
                }
                return status;
            }
            finally
            {
                // mckey's destroy_node: the device's resources before the id
                nodes.forEach(McKeyNode::close);
                ids.forEach(RdmaCmId::destroy);
            }
        }
        catch (final RdmaCmException ex)
        {
            return fail(JsonOutput.errno(ex.errno(), ex.getMessage()), FAILED);
        }
    }

    /** The ids bound (or their address resolved), each node made and its join asked for, then every join's event. */
    private int join(final RdmaCm cm, final EventChannel channel, final PortSpace space, final InetAddress source,
        final InetAddress destination, final MulticastJoinFlag flag, final boolean verbs, final List<RdmaCmId> ids)
        throws RdmaCmException, InterruptedException
    {
        for (int i = 0; i < connections; i++)
        {
            final RdmaCmId id = cm.createId(channel, space);
            ids.add(id);
            if (source != null)
            {
                // mckey binds, then resolves to the group; a bound id may join at once, as the kernel lets it
                id.bindAddr(new InetSocketAddress(source, 0));
            }
            else
            {
                id.resolveAddr(null, new InetSocketAddress(destination, 0), RESOLVE_TIMEOUT);
                final CmEvent resolved = channel.getEvent(EVENT_LIMIT);
                if (resolved == null || !(resolved instanceof CmEvent.AddrResolved))
                {
                    return eventFailure(resolved);
                }
                resolved.ack();
            }
            final McKeyNode node = verbs ? McKeyNode.open(id, sender, count, size) : McKeyNode.none();
            nodes.add(node);
            if (node.mtuTooSmall())
            {
                return fail(JsonOutput.errno(Errno.EINVAL, "-S " + size + ": larger than the active MTU " + node.mtu()),
                    "mckey: message_size " + size + " is larger than active mtu " + node.mtu(), -Errno.EINVAL);
            }
            id.join(destination, flag, node);
        }
        for (int joined = 0; joined < connections; joined++)
        {
            final CmEvent event = channel.getEvent(EVENT_LIMIT);
            if (!(event instanceof CmEvent.MulticastJoin join))
            {
                return eventFailure(event);
            }
            event.ack();
            final var ah = join.ud().ahAttr();
            final String dgid = ah.grh().map(grh -> grh.dgid().toString()).orElse("::");
            line(String.format("mckey: joined dgid: %s mlid 0x%x sl %d", dgid, ah.dlid(), ah.serviceLevel()));
            joins.addObject().put("dgid", dgid).put("mlid", String.format("0x%x", ah.dlid())).put("sl", ah.serviceLevel())
                .put("qpn", String.format("0x%x", join.ud().qpNumber())).put("qkey", String.format("0x%x", join.ud().qkey()));
            ((McKeyNode)join.context()).connect(join.ud());
        }
        return 0;
    }

    /** mckey's line for an error event; its status is the event's. */
    private int eventFailure(final CmEvent event)
    {
        if (event == null)
        {
            return fail(JsonOutput.errno(Errno.ETIMEDOUT, "no CM event within " + EVENT_LIMIT.toSeconds() + " s"),
                "mckey: no CM event within " + EVENT_LIMIT.toSeconds() + " s", -Errno.ETIMEDOUT);
        }
        event.ack();
        final int status = event.status() == 0 ? FAILED : event.status();
        return fail(JsonOutput.eventError(event, "RDMA_CM_EVENT_" + event.type()),
            "mckey: event: RDMA_CM_EVENT_" + event.type() + ", error: " + event.status(), status);
    }

    /** After mckey's pause for the SM: every sender's datagrams posted, or every receiver's awaited. */
    private int transfer() throws InterruptedException
    {
        Thread.sleep(SM_PAUSE_MS);
        line(sender ? "initiating data transfers" : "receiving data transfers");
        for (final McKeyNode node : nodes)
        {
            if (sender)
            {
                node.send();
            }
            else
            {
                node.awaitReceives();
            }
        }
        line("data transfers complete");
        return 0;
    }

    private int fail(final JsonObject json, final int status)
    {
        return fail(json, json.text("message"), status);
    }

    /** mckey's own line on stdout, or under {@code --json} the error object; the first failure is the one reported. */
    private int fail(final JsonObject json, final String line, final int status)
    {
        if (error == null)
        {
            error = json;
        }
        line(line);
        return status;
    }

    /** One of mckey's lines: on stdout as mckey prints them, none under {@code --json} (stdout is the object). */
    private void line(final String text)
    {
        if (!output.json())
        {
            final java.io.PrintWriter out = spec.commandLine().getOut();
            out.println(text);
            out.flush();
        }
    }
}
