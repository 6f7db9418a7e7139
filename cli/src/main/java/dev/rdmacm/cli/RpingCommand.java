package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.diagnostics.PcapCmMadRecorder;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.verbs.Verbs;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm rping}: librdmacm's {@code rping} (rdma-core 44), protocol for protocol, on this
 * project's CM: the same options, the same {@code ping data: rdma-ping-N: ...} lines, exit 0. The CM
 * MADs go over umad, so the host must not have the kernel's {@code ib_cm} loaded ({@code docs/umad.md});
 * the data path is an RC QP through libibverbs. {@code --trace} prints every state change of the CM
 * connections and of the ids with its time (through the kernel's CM, {@code --cm kernel}, the kernel's answers
 * beside ours); {@code -d} every RDMA CM event and the QP's attributes once connected;
 * {@code --pcap FILE} every CM MAD sent and received, retries included, as RoCE v2 frames. The file is
 * complete whatever the outcome: it is closed after the CM, whose close sends the last REJ or DREQ. Through
 * the kernel's CM the kernel sends the MADs, and {@code --pcap} is refused (docs/decisions.md).
 */
@Command(
    name = "rping",
    versionProvider = VersionProvider.class,
    exitCodeOnInvalidInput = RpingCommand.USAGE,
    description = {
        "librdmacm's rping on this project's CM: -s serves (on -a, else on any address), -c pings the server at -a.",
        "--cm auto (the default) takes this project's CM where it can own the CM class on umad, the kernel's CM where ib_cm holds it.",
        "Exit as rping: 0 success, 255 failure, 22 (EINVAL) a usage error, and getaddrinfo's code for a name -a or -I "
            + "gives that it cannot resolve (EAI_NONAME: 254)."
    })
public final class RpingCommand implements Callable<Integer>
{
    /** {@code RPING_MIN_BUFSIZE}: {@code sizeof("2147483647") + sizeof("rdma-ping-%d: ")}. */
    static final int MIN_SIZE = 26;
    /** {@code RPING_BUFSIZE}: 64 KiB, the largest size one less. */
    static final int MAX_SIZE = 64 * 1024 - 1;
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(2);
    /** How long a CM step may take: the REQ's 16 tries take 98 s before UNREACHABLE. */
    private static final Duration EVENT_LIMIT = Duration.ofSeconds(120);
    /** rping's status on any failure: its {@code exit(-1)} or {@code return -1} from main. */
    static final int FAILED = 255;
    /** rping's status on a usage error: the {@code EINVAL} its main returns. */
    static final int USAGE = 22;
    /** The address a server binds without {@code -a}: rping's zeroed {@code sockaddr_in}, any address. */
    private static final String ANY = "0.0.0.0";

    @Option(names = "-s", description = "server")
    boolean server;

    @Option(names = "-c", description = "client")
    boolean client;

    @Option(names = "-a", paramLabel = "ADDR", description = "the server's address or name: the client's destination, the server's "
        + "bind (default any address; -a ::0 for any IPv6 address)")
    String address;

    @Option(names = "-I", paramLabel = "ADDR", description = "the client's source address")
    String source;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7174", description = "port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "0", description = "pings, 0 for no end (default ${DEFAULT-VALUE})")
    int count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "64", description = "ping data size, " + MIN_SIZE + " to " + MAX_SIZE
        + " (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "-P", description = "persistent server: serve one client after another until killed")
    boolean persistent;

    @Option(names = "-q", description = "rping's self-created QP: here rping always creates its QP and the CM moves it "
        + "(this CM's API has no rdma_init_qp_attr or rdma_establish); the MADs on the wire are the same")
    boolean selfCreatedQp;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help and exit")
    boolean help;

    @Option(names = "--version", versionHelp = true, description = "print the version and exit")
    boolean version;

    @Option(names = "-v", description = "display ping data to stdout")
    boolean verbose;

    @Option(names = "-V", description = "validate ping data")
    boolean validate;

    @Option(names = "-d", description = "debug: print every CM event")
    boolean debug;

    @Option(names = "--trace", description = "print every state change of the CM connections (ib_cm's states) and of the ids with "
        + "its time; through the kernel's CM, the kernel's answers beside ours and every field where they differ")
    boolean trace;

    @CommandLine.Mixin
    PcapOption pcap = new PcapOption();

    @CommandLine.Mixin
    ConnectionManagerOption cmOption = new ConnectionManagerOption();

    /** rping's summary as one object instead of its lines: the pings done and whether all went well. */
    @CommandLine.Mixin
    JsonOption jsonOption = new JsonOption();

    private CommandOutput output;
    /** The pings of every connection so far. */
    private int pings;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** CONNECT_REQUESTs that arrived while a persistent server was busy with a client: served next, in order. */
    private final ArrayDeque<CmEvent> waiting = new ArrayDeque<>();

    @Override
    public Integer call() throws InterruptedException
    {
        validateOptions();
        final long traceStart = System.nanoTime();
        final RdmaCm.Options cmOptions = trace ? traced(cmOption.options(spec), traceStart) : cmOption.options(spec);
        output = CommandOutput.of(spec, jsonOption.json);
        final InetAddress destination;
        final InetAddress sourceAddress;
        try
        {
            destination = HostLookup.resolve(address == null ? ANY : address);
            sourceAddress = source == null ? null : HostLookup.resolve(source);
        }
        catch (final HostLookup.Failed ex)
        {
            // rping's get_addr line, and the option it was given to; the status is rping's: the EAI code
            final String option = ex.name.equals(source) ? "-I" : "-a";
            failure(ex.json(option), "rdmacm rping: " + option + " " + ex.name + ": getaddrinfo failed (" + ex.error.message()
                + ") - invalid hostname or IP address");
            return ex.error.code() & 0xff;
        }
        if (server && Verbs.listDevices().isEmpty())
        {
            // as cmtime's create_first_event_channel says it, before anything listens (the names were checked first)
            failure(JsonOutput.errno(Errno.ENODEV, "No RDMA devices were detected"), "No RDMA devices were detected");
            return FAILED;
        }
        final PcapCmMadRecorder recorder;
        try
        {
            recorder = pcap.cmRecorder();
        }
        catch (final UncheckedIOException ex)
        {
            failure(JsonOutput.errno(Errno.EIO, ex.getMessage()), ex.getMessage());
            return FAILED;
        }
        // closed in reverse order: the channel, the CM (its ids' last MADs still recorded), then the file
        try (PcapCmMadRecorder mads = recorder; RdmaCm cm = RdmaCm.open(cmOptions);
            EventChannel channel = cm.createEventChannel())
        {
            if (mads != null)
            {
                cm.cmMadRecorder(mads);
            }
            if (trace)
            {
                // on the port's CM thread, at the moment of the change, with the CM's clock
                cm.connectionTransitions((localCommId, remoteCommId, from, to, now) -> System.err.printf(
                    "cm 0x%08x %s -> %s at +%.3f ms%n", localCommId, from, to, (now - traceStart) / 1e6));
            }
            final int status = server ? serve(cm, channel, destination) : ping(cm, channel, destination, sourceAddress);
            if (output.json())
            {
                output.result(new JsonObject().put("role", server ? "server" : "client")
                    .put("address", AddressText.of(destination, AddressText::localInterfaceName))
                    .put("port", port).put("size", size).put("count", count).put("pings", pings).put("ok", status == 0), ignored -> { });
            }
            return status;
        }
        catch (final RdmaCmException ex)
        {
            failure(JsonOutput.errno(ex.errno(), ex.getMessage()), ex.getMessage());
            return FAILED;
        }
    }

    /**
     * {@code --trace}'s part of the options: every id state change with its reason (through the kernel's CM, its
     * answers beside ours), and every field where the kernel's CM answered otherwise than ours, on stderr.
     */
    private static RdmaCm.Options traced(final RdmaCm.Options options, final long start)
    {
        return options.toBuilder()
            .listener((id, from, to, reason) -> System.err.printf("%s %s -> %s at +%.3f ms: %s%n", id, from, to,
                (System.nanoTime() - start) / 1e6, reason))
            .kernelDifferences(difference -> System.err.println("kernel difference: " + difference))
            .build();
    }

    /** rping's own line on stderr, or under {@code --json} the error object on stdout; the status is the caller's. */
    private void failure(final JsonObject error, final String line)
    {
        if (output.json())
        {
            output.error(error);
        }
        else
        {
            System.err.println(line);
        }
    }

    private void validateOptions()
    {
        if (server == client)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "give one of -s (server) and -c (client)");
        }
        if (client && address == null)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-c needs -a ADDR, the server's address");
        }
        if (client && persistent)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-P is the server's: give it with -s");
        }
        if (size < MIN_SIZE || size > MAX_SIZE)
        {
            // rping's message says "to 65536", one more than it takes; the range here is the one it checks
            throw new CommandLine.ParameterException(spec.commandLine(), "Invalid size " + size + " (valid range is " + MIN_SIZE
                + " to " + MAX_SIZE + ")");
        }
        if (count < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "Invalid count " + count);
        }
        if (port < 0 || port > 0xffff)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-p " + port + ": must be 0-65535");
        }
        if (pcap.given() && cmOption.kernelOnThisHost())
        {
            // docs/decisions.md: the kernel's ib_cm sends and receives the MADs, where this process cannot record them
            throw new CommandLine.ParameterException(spec.commandLine(), "--pcap records the CM MADs of this stack's own CM; "
                + "through the kernel's CM (--cm kernel, or auto where ib_cm is loaded) the kernel's ib_cm sends them: capture "
                + "RoCE v2 (udp port 4791) on the netdev instead");
        }
    }

    private int ping(final RdmaCm cm, final EventChannel channel, final InetAddress destination, final InetAddress sourceAddress)
        throws InterruptedException
    {
        final RdmaCmId id = cm.createId(channel);
        try
        {
            id.resolveAddr(sourceAddress == null ? null : new InetSocketAddress(sourceAddress, 0), new InetSocketAddress(destination, port),
                RESOLVE_TIMEOUT);
            if (expect(channel, CmEventType.ADDR_RESOLVED) == null)
            {
                return FAILED;
            }
            id.resolveRoute(RESOLVE_TIMEOUT);
            if (expect(channel, CmEventType.ROUTE_RESOLVED) == null)
            {
                return FAILED;
            }
            return exchange(id, channel);
        }
        finally
        {
            id.destroy();
        }
    }

    private int serve(final RdmaCm cm, final EventChannel channel, final InetAddress bind) throws InterruptedException
    {
        final RdmaCmId listener = cm.createId(channel);
        try
        {
            listener.bindAddr(new InetSocketAddress(bind, port));
            listener.listen(3);
            if (debug)
            {
                System.err.println("listening on " + bind.getHostAddress() + " port " + port);
            }
            int result;
            do
            {
                final CmEvent request = nextRequest(channel);
                if (request == null)
                {
                    return FAILED;
                }
                final RdmaCmId child = request.id();
                try
                {
                    result = exchange(child, channel);
                }
                catch (final RdmaCmException ex)
                {
                    if (!persistent)
                    {
                        throw ex;
                    }
                    // one client's failure ends its connection, not the persistent server (rping -P's thread per client)
                    System.err.println(ex.getMessage());
                    result = FAILED;
                }
                finally
                {
                    child.destroy();
                }
            }
            while (persistent);
            return result;
        }
        finally
        {
            listener.destroy();
        }
    }

    /**
     * rping's connection: the RC QP on the id's device with its receive posted, then rdma_accept or
     * rdma_connect (rping's parameters: one read each way, 7 retries), the ping loop, and the disconnect.
     */
    private int exchange(final RdmaCmId id, final EventChannel channel) throws InterruptedException
    {
        try (RpingExchange exchange = new RpingExchange(id.binding().device(), size))
        {
            id.attachQp(exchange.queuePair());
            exchange.postReceive();
            if (server)
            {
                id.accept(ConnectionParameters.of(1, 1));
            }
            else
            {
                id.connect(ConnectionParameters.of(1, 1));
            }
            if (expect(channel, CmEventType.ESTABLISHED) == null)
            {
                return FAILED;
            }
            debugQp(exchange);
            final Connection connection = new Connection(channel);
            // under --json stdout is the summary alone
            final boolean printData = verbose && !output.json();
            final int result = server ? exchange.server(printData, connection::up)
                : exchange.client(count, printData, validate, connection::up);
            pings += exchange.pings();
            id.disconnect();
            if (!server)
            {
                connection.awaitDisconnected();
            }
            return result == 0 ? 0 : FAILED;
        }
    }

    /**
     * The next client's CONNECT_REQUEST: one that came while the last client was served, else the next
     * event; a persistent server waits for it as long as it takes, as rping -P does.
     */
    private CmEvent nextRequest(final EventChannel channel) throws InterruptedException
    {
        if (!waiting.isEmpty())
        {
            return waiting.poll();
        }
        if (!persistent)
        {
            return expect(channel, CmEventType.CONNECT_REQUEST);
        }
        while (true)
        {
            final CmEvent event = channel.getEvent(EVENT_LIMIT);
            if (event != null)
            {
                debug(event);
                event.ack();
                if (event.type() == CmEventType.CONNECT_REQUEST)
                {
                    return event;
                }
                System.err.println("cma event RDMA_CM_EVENT_" + event.type() + ", error " + event.status());
            }
        }
    }

    /** The next event, acknowledged; null (after rping's message) when it is not {@code wanted}. */
    private CmEvent expect(final EventChannel channel, final CmEventType wanted) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(EVENT_LIMIT);
        if (event == null)
        {
            System.err.println("no CM event within " + EVENT_LIMIT.toSeconds() + " s, waiting for RDMA_CM_EVENT_" + wanted);
            return null;
        }
        debug(event);
        event.ack();
        if (event.type() != wanted)
        {
            System.err.println("cma event RDMA_CM_EVENT_" + event.type() + ", error " + event.status());
            return null;
        }
        return event;
    }

    private void debug(final CmEvent event)
    {
        if (debug)
        {
            System.err.println("cma_event type RDMA_CM_EVENT_" + event.type() + " status " + event.status() + " id " + event.id());
        }
    }

    private void debugQp(final RpingExchange exchange)
    {
        if (debug)
        {
            System.err.println("qp " + exchange.queuePair().query());
        }
    }

    /** Watches the channel for DISCONNECTED while the data path runs, as rping's CM thread does. */
    private final class Connection
    {
        private final EventChannel channel;
        private volatile boolean up = true;

        Connection(final EventChannel channel)
        {
            this.channel = channel;
        }

        boolean up()
        {
            take(channel.pollEvent());
            return up;
        }

        void awaitDisconnected() throws InterruptedException
        {
            final long deadline = System.nanoTime() + EVENT_LIMIT.toNanos();
            while (up && System.nanoTime() < deadline)
            {
                take(channel.getEvent(Duration.ofMillis(100)));
            }
        }

        private void take(final CmEvent event)
        {
            if (event != null)
            {
                debug(event);
                event.ack();
                if (event.type() == CmEventType.CONNECT_REQUEST && persistent)
                {
                    waiting.add(event);
                }
                else if (event.type() == CmEventType.DISCONNECTED)
                {
                    System.err.println((server ? "server" : "client") + " DISCONNECT EVENT...");
                    up = false;
                }
            }
        }
    }
}
