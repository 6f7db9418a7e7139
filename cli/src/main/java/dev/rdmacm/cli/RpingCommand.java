package dev.rdmacm.cli;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.diagnostics.PcapCmMadRecorder;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm rping}: librdmacm's {@code rping} (rdma-core 44), protocol for protocol, on this
 * project's CM: the same options, the same {@code ping data: rdma-ping-N: ...} lines, exit 0. The CM
 * MADs go over umad, so the host must not have the kernel's {@code ib_cm} loaded ({@code docs/umad.md});
 * the data path is an RC QP through libibverbs. {@code --trace} prints every state change of the CM
 * connections with its time; {@code -d} every RDMA CM event and the QP's attributes once connected;
 * {@code --pcap FILE} every CM MAD sent and received, retries included, as RoCE v2 frames. The file is
 * complete whatever the outcome: it is closed after the CM, whose close sends the last REJ or DREQ.
 */
@Command(
    name = "rping",
    mixinStandardHelpOptions = true,
    description = {
        "librdmacm's rping on this project's CM: -s serves, -c pings the server at -a.",
        "Needs a host without the kernel's ib_cm (the CM class is registered on umad). Exit 0 success, 1 failure, 2 usage."
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

    @Option(names = "-s", description = "server")
    boolean server;

    @Option(names = "-c", description = "client")
    boolean client;

    @Option(names = "-a", paramLabel = "ADDR", description = "the server's address (the client's destination, the server's bind)")
    String address;

    @Option(names = "-I", paramLabel = "ADDR", description = "the client's source address")
    String source;

    @Option(names = "-p", paramLabel = "PORT", defaultValue = "7174", description = "port (default ${DEFAULT-VALUE})")
    int port;

    @Option(names = "-C", paramLabel = "COUNT", defaultValue = "0", description = "pings, 0 for no end (default ${DEFAULT-VALUE})")
    int count;

    @Option(names = "-S", paramLabel = "SIZE", defaultValue = "64", description = "ping data size, " + MIN_SIZE + "-" + MAX_SIZE
        + " (default ${DEFAULT-VALUE})")
    int size;

    @Option(names = "-v", description = "display ping data to stdout")
    boolean verbose;

    @Option(names = "-V", description = "validate ping data")
    boolean validate;

    @Option(names = "-d", description = "debug: print every CM event")
    boolean debug;

    @Option(names = "--trace", description = "print every state change of the CM connections (ib_cm's states) with its time")
    boolean trace;

    @CommandLine.Mixin
    PcapOption pcap = new PcapOption();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException
    {
        validateOptions();
        final PcapCmMadRecorder recorder;
        try
        {
            recorder = pcap.cmRecorder();
        }
        catch (final UncheckedIOException ex)
        {
            System.err.println(ex.getMessage());
            return FAILED;
        }
        // closed in reverse order: the channel, the CM (its ids' last MADs still recorded), then the file
        try (PcapCmMadRecorder mads = recorder; RdmaCm cm = RdmaCm.open(); EventChannel channel = cm.createEventChannel())
        {
            if (mads != null)
            {
                cm.cmMadRecorder(mads);
            }
            if (trace)
            {
                final long start = System.nanoTime();
                // on the port's CM thread, at the moment of the change, with the CM's clock
                cm.connectionTransitions((localCommId, remoteCommId, from, to, now) -> System.err.printf(
                    "cm 0x%08x %s -> %s at +%.3f ms%n", localCommId, from, to, (now - start) / 1e6));
            }
            return server ? serve(cm, channel) : ping(cm, channel);
        }
        catch (final RdmaCmException ex)
        {
            System.err.println(ex.getMessage());
            return FAILED;
        }
    }

    private void validateOptions()
    {
        if (server == client)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "give one of -s (server) and -c (client)");
        }
        if (address == null)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-a ADDR: the server's address is required");
        }
        if (size < MIN_SIZE || size > MAX_SIZE)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "Invalid size " + size + " (valid range is " + MIN_SIZE
                + " to " + (MAX_SIZE + 1) + ")");
        }
        if (count < 0)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "Invalid count " + count);
        }
        if (port < 0 || port > 0xffff)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-p " + port + ": must be 0-65535");
        }
    }

    private int ping(final RdmaCm cm, final EventChannel channel) throws InterruptedException
    {
        final RdmaCmId id = cm.createId(channel);
        try
        {
            id.resolveAddr(source == null ? null : new InetSocketAddress(inet(source), 0), new InetSocketAddress(inet(address), port),
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

    private int serve(final RdmaCm cm, final EventChannel channel) throws InterruptedException
    {
        final RdmaCmId listener = cm.createId(channel);
        try
        {
            listener.bindAddr(new InetSocketAddress(inet(address), port));
            listener.listen(3);
            if (debug)
            {
                System.err.println("listening on " + address + " port " + port);
            }
            final CmEvent request = expect(channel, CmEventType.CONNECT_REQUEST);
            if (request == null)
            {
                return FAILED;
            }
            final RdmaCmId child = request.id();
            try
            {
                return exchange(child, channel);
            }
            finally
            {
                child.destroy();
            }
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
            final int result = server ? exchange.server(verbose, connection::up)
                : exchange.client(count, verbose, validate, connection::up);
            id.disconnect();
            if (!server)
            {
                connection.awaitDisconnected();
            }
            return result == 0 ? 0 : FAILED;
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

    private static InetAddress inet(final String text)
    {
        try
        {
            return InetAddress.getByName(text);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalArgumentException("address '" + text + "': " + ex.getMessage());
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
                if (event.type() == CmEventType.DISCONNECTED)
                {
                    System.err.println((server ? "server" : "client") + " DISCONNECT EVENT...");
                    up = false;
                }
            }
        }
    }
}
