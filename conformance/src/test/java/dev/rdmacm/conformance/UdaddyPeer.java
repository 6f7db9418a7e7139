package dev.rdmacm.conformance;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.UdParameters;
import dev.rdmacm.protocol.PortSpace;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * librdmacm 44's {@code udaddy} on this project's CM, both its roles in one JVM (a JVM start costs
 * 10-15 s under TCG) and at once, for {@link UdaddyAcrossTheWire}: its server on OUR_ADDR, port 7174 of
 * RDMA_PS_UDP (udaddy's fixed port), for the kernel guest's {@code udaddy -s OUR_ADDR -C COUNT}, and,
 * on a thread of its own once the file GO exists, its client to the kernel guest's
 * {@code udaddy -C COUNT} on PEER_ADDR. Each does what udaddy.c does, step for step, and keeps
 * udaddy's lines, which are printed at the end, the server's first:
 * <ul>
 * <li>({@link UdaddyNode}) a PD, one CQ of {@code 2 * COUNT} entries, a UD QP of COUNT sends and receives (librdmacm's
 *     {@code rdma_create_qp}: RTS at once, Q_Key RDMA_UDP_QKEY), one buffer of {@code SIZE + 40}
 *     (the GRH area first) that every receive and send uses, COUNT receives posted before
 *     {@code rdma_accept} or {@code rdma_connect};</li>
 * <li>the client: on ESTABLISHED an AH from {@code param.ud.ah_attr}, COUNT sends with immediate data
 *     (its QP number) to {@code param.ud}'s QPN and Q_Key, unsignalled, then COUNT receives;</li>
 * <li>the server: COUNT receives, the reply AH from the first completion and its GRH area
 *     ({@code ibv_create_ah_from_wc}), the reply QPN from its immediate data, the Q_Key its own QP's;
 *     then COUNT signalled sends with immediate back, and their completions.</li>
 * </ul>
 * The server listens before {@code listening} goes to stderr. Any departure prints the lines so far and
 * why, and exits 1. Usage: {@code UdaddyPeer OUR_ADDR PEER_ADDR COUNT GO}.
 */
public final class UdaddyPeer
{
    /** udaddy.c's fixed port (its {@code -p} names a port space). */
    private static final int UDADDY_PORT = 7174;
    private static final Duration RESOLVE = Duration.ofSeconds(2);
    /** The longest wait for an event or the messages: a SIDR_REQ's first try is 4096 ms. */
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final List<String> SERVER_LINES = new CopyOnWriteArrayList<>();
    private static final List<String> CLIENT_LINES = new CopyOnWriteArrayList<>();

    private UdaddyPeer()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final InetAddress ours = InetAddress.getByName(args[0]);
        final InetAddress peer = InetAddress.getByName(args[1]);
        final int count = Integer.parseInt(args[2]);
        final Path go = Path.of(args[3]);
        try (RdmaCm cm = RdmaCm.open(); EventChannel serverChannel = cm.createEventChannel();
             EventChannel clientChannel = cm.createEventChannel())
        {
            SERVER_LINES.add("udaddy: starting server");
            final RdmaCmId listener = cm.createId(serverChannel, PortSpace.UDP);
            listener.bindAddr(new InetSocketAddress(ours, UDADDY_PORT));
            listener.listen(0);
            System.err.println("listening");
            final Thread client = Thread.ofPlatform().name("udaddy-client").start(() ->
            {
                try
                {
                    awaitFile(go);
                    runClient(cm, clientChannel, peer, count);
                }
                catch (final Exception | Error ex)
                {
                    fail("udaddy: client: " + ex);
                }
            });
            runServer(serverChannel, listener, count);
            client.join(WAIT.multipliedBy(3));
            if (client.isAlive())
            {
                fail("udaddy: the client did not end within " + WAIT.multipliedBy(3));
            }
        }
        print();
    }

    private static void awaitFile(final Path file) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (!Files.exists(file))
        {
            if (System.nanoTime() > deadline)
            {
                fail("udaddy: no " + file + " within " + WAIT);
            }
            Thread.sleep(10);
        }
    }

    /** udaddy.c's run_server after rdma_listen, then main's last lines. */
    private static void runServer(final EventChannel channel, final RdmaCmId listener, final int count) throws Exception
    {
        final List<String> lines = SERVER_LINES;
        final CmEvent event = channel.getEvent(WAIT);
        if (!(event instanceof CmEvent.ConnectRequest request))
        {
            fail("udaddy: " + describe(event));
            return;
        }
        final RdmaCmId id = request.id();
        try (UdaddyNode node = new UdaddyNode(id, count, WAIT, UdaddyPeer::fail))
        {
            node.postReceives();
            id.accept(new ConnectionParameters(new byte[0], 0, 0, false, 0, 0));
            request.ack();
            lines.add("receiving data transfers");
            node.complete(true);
            lines.add("sending replies");
            node.postSends(true);
            node.complete(false);
            lines.add("data transfers complete");
        }
        id.destroy();
        listener.destroy();
        lines.add("test complete");
        lines.add("return status 0");
    }

    /** udaddy.c's run_client: resolve, route, the node, rdma_connect, then the exchange. */
    private static void runClient(final RdmaCm cm, final EventChannel channel, final InetAddress server, final int count)
        throws Exception
    {
        final List<String> lines = CLIENT_LINES;
        lines.add("udaddy: starting client");
        final RdmaCmId id = cm.createId(channel, PortSpace.UDP);
        lines.add("udaddy: connecting");
        id.resolveAddr(null, new InetSocketAddress(server, UDADDY_PORT), RESOLVE);
        expect(channel, CmEvent.AddrResolved.class);
        id.resolveRoute(RESOLVE);
        expect(channel, CmEvent.RouteResolved.class);
        try (UdaddyNode node = new UdaddyNode(id, count, WAIT, UdaddyPeer::fail))
        {
            node.postReceives();
            id.connect(new ConnectionParameters(new byte[0], 0, 0, false, 0, 0));
            final CmEvent.Established established = expect(channel, CmEvent.Established.class);
            final UdParameters ud = established.ud().orElse(null);
            if (ud == null)
            {
                fail("udaddy: ESTABLISHED without param.ud");
                return;
            }
            node.reachVia(ud);
            lines.add("initiating data transfers");
            node.postSends(false);
            lines.add("receiving data transfers");
            node.complete(true);
            lines.add("data transfers complete");
        }
        id.destroy();
        lines.add("test complete");
        lines.add("return status 0");
    }

    private static <T extends CmEvent> T expect(final EventChannel channel, final Class<T> wanted) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(WAIT);
        if (!wanted.isInstance(event))
        {
            fail("udaddy: " + describe(event));
        }
        event.ack();
        return wanted.cast(event);
    }

    /** udaddy's cma_handler line for an error event. */
    private static String describe(final CmEvent event)
    {
        return event == null ? "no event within " + WAIT : "event: RDMA_CM_EVENT_" + event.type() + ", error: " + event.status();
    }

    /** The server's lines, then the client's. */
    private static void print()
    {
        SERVER_LINES.forEach(System.out::println);
        CLIENT_LINES.forEach(System.out::println);
        System.out.flush();
    }

    private static void fail(final String why)
    {
        print();
        System.out.println(why);
        System.out.flush();
        Runtime.getRuntime().halt(1);
    }
}
