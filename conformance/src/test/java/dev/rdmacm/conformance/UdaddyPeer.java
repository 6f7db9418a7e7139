package dev.rdmacm.conformance;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.UdParameters;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.verbs.AddressHandle;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.CompletionStatus;
import dev.rdmacm.verbs.IbvConstants;
import dev.rdmacm.verbs.MemoryRegion;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.UdQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.WorkCompletions;

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
 * <li>a PD, one CQ of {@code 2 * COUNT} entries, a UD QP of COUNT sends and receives (librdmacm's
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
    /** udaddy.c's fixed port (its {@code -p} names a port space) and its default message size. */
    private static final int UDADDY_PORT = 7174;
    private static final int MESSAGE_SIZE = 100;
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
        try (Node node = new Node(id, count))
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
        try (Node node = new Node(id, count))
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

    /** udaddy.c's cmatest_node: its verbs resources on the id's device, and where its messages go. */
    private static final class Node implements AutoCloseable
    {
        final RdmaCmId id;
        final int count;
        final VerbsContext context;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final UdQueuePair qp;
        final MemoryRegion mem;
        final WorkCompletions completions = new WorkCompletions(8);
        AddressHandle ah;
        int remoteQpn;
        long remoteQkey;

        Node(final RdmaCmId id, final int count) throws Exception
        {
            this.id = id;
            this.count = count;
            this.context = Verbs.open(id.binding().device());
            this.pd = context.allocateProtectionDomain();
            this.cq = context.createCompletionQueue(count * 2, null);
            this.qp = pd.createUdQueuePair(cq, cq, new QueuePairCapabilities(count, count, 1, 1, 0));
            this.mem = pd.allocateMemoryRegion(MESSAGE_SIZE + IbvConstants.GRH_LENGTH, IbvConstants.IBV_ACCESS_LOCAL_WRITE);
            id.attachQp(qp);
        }

        /** udaddy's post_recvs: COUNT receives of the one buffer, GRH area and message. */
        void postReceives()
        {
            for (int i = 0; i < count; i++)
            {
                qp.postReceive(i, mem, 0, MESSAGE_SIZE + IbvConstants.GRH_LENGTH);
            }
        }

        /** udaddy's resolved_handler: the AH from {@code param.ud.ah_attr}, its QPN and Q_Key. */
        void reachVia(final UdParameters ud)
        {
            ah = pd.createAddressHandle(ud.ahAttr());
            remoteQpn = ud.qpNumber();
            remoteQkey = ud.qkey();
        }

        /** udaddy's post_sends: COUNT sends of the message (after no GRH area) with our QP number as immediate data. */
        void postSends(final boolean signaled)
        {
            for (int i = 0; i < count; i++)
            {
                qp.postSendWithImmediate(i, mem, 0, MESSAGE_SIZE, ah, remoteQpn, remoteQkey, signaled, qp.qpNumber());
            }
        }

        /**
         * udaddy's poll_cqs: COUNT successful completions; the first received one, when there is no AH
         * yet, gives the reply AH (create_reply_ah). Receives must carry the GRH area and the message.
         */
        void complete(final boolean receives) throws InterruptedException
        {
            final long deadline = System.nanoTime() + WAIT.toNanos();
            for (int done = 0; done < count; )
            {
                final int n = cq.poll(completions);
                for (int i = 0; i < n; i++)
                {
                    if (completions.completionStatus(i) != CompletionStatus.SUCCESS
                        || receives && (completions.byteLength(i) != MESSAGE_SIZE + IbvConstants.GRH_LENGTH
                        || !completions.hasImmediateData(i)))
                    {
                        fail("udaddy: completion " + completions.completionStatus(i) + " " + completions.byteLength(i) + " bytes, "
                            + (completions.hasImmediateData(i) ? "with" : "without") + " immediate data");
                    }
                    if (receives && ah == null)
                    {
                        ah = pd.createAddressHandle(pd.replyAddress(completions, i, mem.memory().asSlice(0, IbvConstants.GRH_LENGTH),
                            id.binding().port()));
                        remoteQpn = completions.immediateData(i);
                        remoteQkey = qp.query().qkey();
                    }
                }
                done += n;
                if (n == 0)
                {
                    if (System.nanoTime() > deadline)
                    {
                        fail("udaddy: " + done + " of " + count + " completions within " + WAIT);
                    }
                    Thread.sleep(1);
                }
            }
        }

        @Override
        public void close()
        {
            if (ah != null)
            {
                ah.close();
            }
            qp.close();
            cq.close();
            mem.close();
            pd.close();
            context.close();
            completions.close();
        }
    }
}
