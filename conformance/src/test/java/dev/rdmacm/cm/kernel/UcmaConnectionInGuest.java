package dev.rdmacm.cm.kernel;

import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.ucma.KernelQpAttributes;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.UcmaConstants;
import dev.rdmacm.ucma.abi.UcmaEventType;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.CompletionStatus;
import dev.rdmacm.verbs.QpState;
import dev.rdmacm.verbs.ScatterGatherList;
import dev.rdmacm.verbs.WorkCompletions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A connection between two ids of ours through the kernel's CM of the kernel guest (ib_cm loaded),
 * each on its own channel, on rxe0: listen, connect, accept, a message over the two QPs, disconnect.
 * The QPs are the verbs binding's, moved with the attributes INIT_QP_ATTR gives
 * ({@link KernelQpAttributes}) at the moments librdmacm moves them: INIT when made, the passive side's
 * RTR and RTS before ACCEPT, the active side's on CONNECT_RESPONSE and then ACCEPT without parameters
 * (the RTU); the QP to ERR before DISCONNECT. And the real {@code rping} client against our listener:
 * accepted, its first message received on our QP.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class UcmaConnectionInGuest
{
    private static final int PORT = 7490;
    private static final int RPING_PORT = 7491;
    /** rping's {@code -S}: the buffer size its first message announces. */
    private static final int RPING_SIZE = 100;
    private static final long LISTENER_UID = 0x4c49_5354L;
    private static final long ACCEPTED_UID = 0x4143_4350L;
    private static final long CONNECTING_UID = 0x434f_4e4eL;

    private static RdmaSockaddr own(final int port)
    {
        final String[] bytes = OWN_IPV4.split("\\.");
        return new Ipv4Sockaddr(Integer.parseInt(bytes[0]) << 24 | Integer.parseInt(bytes[1]) << 16 |
            Integer.parseInt(bytes[2]) << 8 | Integer.parseInt(bytes[3]), port);
    }

    private static EventResponse await(final UcmaChannel channel, final UcmaEventType expected, final long uid)
    {
        final EventResponse event = channel.getEvent(30, TimeUnit.SECONDS);
        assertNotNull(event, "no " + expected + " within 30 s");
        assertEquals(expected, UcmaEventType.of(event.event()), "status " + event.status());
        assertEquals(0, event.status(), expected + "'s status");
        assertEquals(uid, event.uid(), expected + "'s uid");
        return event;
    }

    /** One work completion: its status and byte length. */
    private record Completed(CompletionStatus status, long byteLength)
    {
    }

    private static Completed completion(final CompletionQueue cq)
    {
        try (WorkCompletions completions = new WorkCompletions(1))
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() - deadline < 0)
            {
                if (cq.poll(completions) == 1)
                {
                    return new Completed(completions.completionStatus(0), completions.byteLength(0));
                }
                Thread.onSpinWait();
            }
            throw new AssertionError("no completion within 10 s");
        }
    }

    @Test
    void shouldAcceptTheRealRpingClientAndReceiveItsFirstMessage() throws Exception
    {
        try (UcmaChannel passive = UcmaChannel.open())
        {
            final int listener = passive.createId(LISTENER_UID, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);
            passive.bind(listener, own(RPING_PORT));
            passive.listen(listener, 8);
            final Process rping = new ProcessBuilder("rping", "-c", "-a", OWN_IPV4, "-p", Integer.toString(RPING_PORT), "-C", "1",
                "-S", Integer.toString(RPING_SIZE), "-v").redirectErrorStream(true).start();
            try
            {
                final int accepted = await(passive, UcmaEventType.CONNECT_REQUEST, LISTENER_UID).id();
                try (VerbsEndpoint server = VerbsEndpoint.on(UcmaAnswers.deviceOf(passive.queryAddr(accepted).nodeGuid()));
                    ScatterGatherList sgl = new ScatterGatherList(1))
                {
                    KernelQpAttributes.readyToReceive(passive, accepted, server.qp(), KernelQpAttributes.KERNELS);
                    KernelQpAttributes.readyToSend(passive, accepted, server.qp(), KernelQpAttributes.KERNELS);
                    server.qp().postReceive(1, sgl.add(server.region(), 0, 64));
                    passive.accept(accepted, a -> a.uid(ACCEPTED_UID).connParam().qpNum(server.qp().qpNumber())
                        .responderResources(1).initiatorDepth(1).rnrRetryCount(7).valid(1));
                    await(passive, UcmaEventType.ESTABLISHED, ACCEPTED_UID);

                    // rping's first message: struct rping_rdma_info, its buffer's be64 address, be32 rkey, be32 size
                    final Completed first = completion(server.cq());
                    assertEquals(CompletionStatus.SUCCESS, first.status());
                    assertEquals(16, first.byteLength());
                    assertEquals(RPING_SIZE, server.region().memory().asByteBuffer().getInt(12), "rping_rdma_info.size");

                    server.qp().error();
                    passive.disconnect(accepted);
                    passive.destroyId(accepted);
                }
                passive.destroyId(listener);
            }
            finally
            {
                rping.destroy();
                if (!rping.waitFor(10, TimeUnit.SECONDS))
                {
                    rping.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    @Test
    void shouldConnectSendAndDisconnectTwoIdsOfOursThroughTheKernelCm()
    {
        try (UcmaChannel passive = UcmaChannel.open(); UcmaChannel active = UcmaChannel.open())
        {
            final int listener = passive.createId(LISTENER_UID, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);
            passive.bind(listener, own(PORT));
            passive.listen(listener, 8);

            final int connecting = active.createId(CONNECTING_UID, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);
            active.resolveAddr(connecting, null, own(PORT), 2000);
            await(active, UcmaEventType.ADDR_RESOLVED, CONNECTING_UID);
            active.resolveRoute(connecting, 2000);
            await(active, UcmaEventType.ROUTE_RESOLVED, CONNECTING_UID);
            final String device = UcmaAnswers.deviceOf(active.queryAddr(connecting).nodeGuid());
            assertEquals("rxe0", device);

            try (VerbsEndpoint client = VerbsEndpoint.on(device); VerbsEndpoint server = VerbsEndpoint.on(device);
                ScatterGatherList sgl = new ScatterGatherList(1))
            {
                KernelQpAttributes.init(active, connecting, client.qp());
                active.connect(connecting, c -> c.connParam().qpNum(client.qp().qpNumber()).responderResources(1)
                    .initiatorDepth(1).retryCount(7).rnrRetryCount(7).valid(1));

                final EventResponse request = await(passive, UcmaEventType.CONNECT_REQUEST, LISTENER_UID);
                final int accepted = request.id();
                assertEquals(client.qp().qpNumber(), request.conn().qpNum(), "the REQ's QPN");
                KernelQpAttributes.readyToReceive(passive, accepted, server.qp(), KernelQpAttributes.KERNELS);
                KernelQpAttributes.readyToSend(passive, accepted, server.qp(), KernelQpAttributes.KERNELS);
                server.qp().postReceive(1, sgl.clear().add(server.region(), 0, 64));
                passive.accept(accepted, a -> a.uid(ACCEPTED_UID).connParam().qpNum(server.qp().qpNumber()).responderResources(1)
                    .initiatorDepth(1).rnrRetryCount(7).valid(1));

                final EventResponse response = await(active, UcmaEventType.CONNECT_RESPONSE, CONNECTING_UID);
                assertEquals(server.qp().qpNumber(), response.conn().qpNum(), "the REP's QPN");
                KernelQpAttributes.readyToReceive(active, connecting, client.qp(), KernelQpAttributes.KERNELS);
                KernelQpAttributes.readyToSend(active, connecting, client.qp(), KernelQpAttributes.KERNELS);
                active.accept(connecting, a -> a.connParam().valid(0));
                assertEquals(accepted, await(passive, UcmaEventType.ESTABLISHED, ACCEPTED_UID).id());
                assertEquals(QpState.RTS, client.qp().query().state());
                assertEquals(QpState.RTS, server.qp().query().state());

                final byte[] hello = "hello through the kernel CM".getBytes(StandardCharsets.US_ASCII);
                client.region().memory().asByteBuffer().put(hello);
                client.qp().postSend(2, sgl.clear().add(client.region(), 0, hello.length), true);
                assertEquals(CompletionStatus.SUCCESS, completion(client.cq()).status(), "the send");
                assertEquals(new Completed(CompletionStatus.SUCCESS, hello.length), completion(server.cq()), "the receive");
                final byte[] received = new byte[hello.length];
                server.region().memory().asByteBuffer().get(received);
                assertEquals(new String(hello, StandardCharsets.US_ASCII), new String(received, StandardCharsets.US_ASCII));

                client.qp().error();
                active.disconnect(connecting);
                await(passive, UcmaEventType.DISCONNECTED, ACCEPTED_UID);
                server.qp().error();
                passive.disconnect(accepted);
                await(active, UcmaEventType.DISCONNECTED, CONNECTING_UID);

                assertEquals(4, active.destroyId(connecting), "events_reported: ADDR_RESOLVED, ROUTE_RESOLVED, CONNECT_RESPONSE, DISCONNECTED");
                passive.destroyId(accepted);
                passive.destroyId(listener);
            }
        }
    }
}
