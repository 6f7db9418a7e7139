package dev.rdmacm.conformance;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.CompletionStatus;
import dev.rdmacm.verbs.IbvConstants;
import dev.rdmacm.verbs.MemoryRegion;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.ScatterGatherList;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.WorkCompletions;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The userspace guest's side of {@link ClientsAcrossTheWire}, one JVM for both servers (a JVM start
 * costs 10-15 s under TCG): first librdmacm's {@code rdma_server} for the kernel guest's
 * {@code rdma_client}, on ADDR:RDMA_PORT, then {@code cmatose}'s server for {@code ucmatose -c N}, on
 * the IPv4 wildcard and CMATOSE_PORT, so that listen covers every RDMA port and each request's id is
 * bound where its REQ came in. Both listen before the first line, {@code listening}, goes to stderr.
 * Each server does what its C original does, step for step (rdma_server.c and cmatose.c, rdma-core 44),
 * and prints the original's lines; any departure prints why and exits 1.
 * Usage: {@code ServesRdmaClientAndCmatose ADDR RDMA_PORT CMATOSE_PORT CONNECTIONS}.
 */
public final class ServesRdmaClientAndCmatose
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** rdma_server.c's and rdma_client.c's message: 16 bytes, inline where the QP allows. */
    private static final int RDMA_MESSAGE = 16;
    /** cmatose.c's defaults: 10 messages of 100 bytes each way on every connection. */
    private static final int CMATOSE_COUNT = 10;
    private static final int CMATOSE_SIZE = 100;

    private ServesRdmaClientAndCmatose()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final InetAddress address = InetAddress.getByName(args[0]);
        final int connections = Integer.parseInt(args[3]);
        try (RdmaCm cm = RdmaCm.open(); EventChannel rdmaChannel = cm.createEventChannel();
             EventChannel cmatoseChannel = cm.createEventChannel())
        {
            final RdmaCmId rdmaListener = cm.createId(rdmaChannel);
            rdmaListener.bindAddr(new InetSocketAddress(address, Integer.parseInt(args[1])));
            rdmaListener.listen(0);
            final RdmaCmId cmatoseListener = cm.createId(cmatoseChannel);
            cmatoseListener.bindAddr(new InetSocketAddress(Integer.parseInt(args[2])));
            cmatoseListener.listen(0);
            System.err.println("listening");
            System.out.println("rdma_server: start");
            rdmaServer(rdmaChannel);
            System.out.println("rdma_server: end 0");
            rdmaListener.destroy();
            System.out.println("cmatose: starting server");
            cmatoseServer(cmatoseChannel, connections);
            cmatoseListener.destroy();
            System.out.println("test complete");
            System.out.println("return status 0");
        }
    }

    /**
     * rdma_server.c: the request's id gets a QP of one send and one receive, 16 bytes inline, every
     * send signalled (sq_sig_all); the receive goes before rdma_accept(id, NULL), whose values are the
     * request's ({@code param.conn}); then one receive, one send back, and the client's disconnect.
     */
    private static void rdmaServer(final EventChannel channel) throws Exception
    {
        final CmEvent.ConnectRequest request = expect(channel, CmEvent.ConnectRequest.class, "rdma_get_request");
        final RdmaCmId id = request.id();
        System.out.println("rdma_server: request on " + id.binding().device() + " initiator_depth "
            + request.parameters().initiatorDepth() + " responder_resources " + request.parameters().responderResources());
        try (Node node = new Node(id, 1, RDMA_MESSAGE, RDMA_MESSAGE))
        {
            if (node.qp.capabilities().maxInlineData() < RDMA_MESSAGE)
            {
                System.out.println("rdma_server: device doesn't support IBV_SEND_INLINE, using sge sends");
            }
            node.postReceives(1);
            id.accept(request.parameters());
            request.ack();
            expect(channel, CmEvent.Established.class, "rdma_accept");
            node.complete(node.recvCq, 1, RDMA_MESSAGE, "rdma_get_recv_comp");
            node.postSends(1);
            node.complete(node.sendCq, 1, -1, "rdma_get_send_comp");
            expect(channel, CmEvent.Disconnected.class, "the client's rdma_disconnect");
            id.disconnect();
        }
        id.destroy();
    }

    /**
     * cmatose.c's run_server: for each request a PD, a send and a receive CQ and a QP of
     * {@code message_count} entries, every send signalled, the receives posted, rdma_accept(id, NULL);
     * once all are ESTABLISHED the sends on every connection, their completions, then the client's
     * replies; then rdma_disconnect on each and a DISCONNECTED for each.
     */
    private static void cmatoseServer(final EventChannel channel, final int connections) throws Exception
    {
        final List<Node> nodes = new ArrayList<>();
        try
        {
            int connectsLeft = connections;
            while (connectsLeft > 0)
            {
                final CmEvent event = channel.getEvent(WAIT);
                switch (event)
                {
                    case CmEvent.ConnectRequest request ->
                    {
                        final Node node = new Node(request.id(), CMATOSE_COUNT, CMATOSE_SIZE, 0);
                        nodes.add(node);
                        node.postReceives(CMATOSE_COUNT);
                        request.id().accept(request.parameters());
                        System.out.println("cmatose: request " + nodes.size() + " on " + request.id().binding() + " from "
                            + request.id().peerAddress().getHostAddress() + ":" + request.id().destinationPort());
                    }
                    case CmEvent.Established ignored -> connectsLeft--;
                    case null -> fail("cmatose: no event within " + WAIT);
                    default -> fail("cmatose: event: " + event.type() + ", error: " + event.status());
                }
                event.ack();
            }
            System.out.println("initiating data transfers");
            for (final Node node : nodes)
            {
                node.postSends(CMATOSE_COUNT);
            }
            System.out.println("completing sends");
            for (final Node node : nodes)
            {
                node.complete(node.sendCq, CMATOSE_COUNT, -1, "cmatose: send completions");
            }
            System.out.println("receiving data transfers");
            for (final Node node : nodes)
            {
                node.complete(node.recvCq, CMATOSE_COUNT, CMATOSE_SIZE, "cmatose: receive completions");
            }
            System.out.println("data transfers complete");
            System.out.println("cmatose: disconnecting");
            for (final Node node : nodes)
            {
                node.id.disconnect();
            }
            for (int left = nodes.size(); left > 0; left--)
            {
                expect(channel, CmEvent.Disconnected.class, "cmatose: disconnect_events").ack();
            }
            System.out.println("disconnected");
        }
        finally
        {
            for (final Node node : nodes)
            {
                node.close();
                node.id.destroy();
            }
        }
    }

    private static <T extends CmEvent> T expect(final EventChannel channel, final Class<T> wanted, final String what)
        throws InterruptedException
    {
        final CmEvent event = channel.getEvent(WAIT);
        if (!wanted.isInstance(event))
        {
            fail(what + ": " + (event == null ? "no event within " + WAIT : event.type() + " status " + event.status()));
        }
        if (!(event instanceof CmEvent.ConnectRequest))
        {
            event.ack();
        }
        return wanted.cast(event);
    }

    private static void fail(final String why)
    {
        System.out.println(why);
        System.out.flush();
        Runtime.getRuntime().halt(1);
    }

    /** One connection's verbs resources, on the device its id is bound to, as the C servers make them. */
    private static final class Node implements AutoCloseable
    {
        final RdmaCmId id;
        final VerbsContext context;
        final ProtectionDomain pd;
        final CompletionQueue sendCq;
        final CompletionQueue recvCq;
        final RcQueuePair qp;
        final MemoryRegion recv;
        final MemoryRegion send;
        final int size;
        final ScatterGatherList sgl = new ScatterGatherList(1);
        final WorkCompletions completions = new WorkCompletions(8);

        Node(final RdmaCmId id, final int depth, final int size, final int inline) throws Exception
        {
            this.id = id;
            this.size = size;
            this.context = Verbs.open(id.binding().device());
            this.pd = context.allocateProtectionDomain();
            this.sendCq = context.createCompletionQueue(depth, null);
            this.recvCq = context.createCompletionQueue(depth, null);
            this.qp = pd.createRcQueuePair(sendCq, recvCq, new QueuePairCapabilities(depth, depth, 1, 1, inline));
            this.recv = pd.allocateMemoryRegion(size, IbvConstants.IBV_ACCESS_LOCAL_WRITE);
            this.send = pd.allocateMemoryRegion(size, 0);
            id.attachQp(qp);
        }

        void postReceives(final int count)
        {
            for (int i = 0; i < count; i++)
            {
                qp.postReceive(i, sgl.clear().add(recv, 0, size));
            }
        }

        /** Signalled, as sq_sig_all makes every send; inline when it fits, as the binding decides. */
        void postSends(final int count)
        {
            for (int i = 0; i < count; i++)
            {
                qp.postSend(i, sgl.clear().add(send, 0, size), true);
            }
        }

        /** Polls until {@code count} completions, each a success (of {@code length} bytes unless -1). */
        void complete(final CompletionQueue cq, final int count, final int length, final String what) throws InterruptedException
        {
            final long deadline = System.nanoTime() + WAIT.toNanos();
            for (int done = 0; done < count; )
            {
                final int n = cq.poll(completions);
                for (int i = 0; i < n; i++)
                {
                    if (completions.completionStatus(i) != CompletionStatus.SUCCESS || length >= 0 && completions.byteLength(i) != length)
                    {
                        fail(what + ": " + completions.completionStatus(i) + " " + completions.byteLength(i) + " bytes");
                    }
                }
                done += n;
                if (n == 0)
                {
                    if (System.nanoTime() > deadline)
                    {
                        fail(what + ": " + done + " of " + count + " completions within " + WAIT);
                    }
                    Thread.sleep(1);
                }
            }
        }

        @Override
        public void close()
        {
            qp.close();
            send.close();
            recv.close();
            sendCq.close();
            recvCq.close();
            pd.close();
            context.close();
            sgl.close();
            completions.close();
        }
    }
}
