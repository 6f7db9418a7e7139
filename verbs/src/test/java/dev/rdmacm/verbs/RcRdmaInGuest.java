package dev.rdmacm.verbs;

import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.IbvConstants.IBV_QP_STATE;
import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER_NETDEV;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER_NETDEV;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): an RC
 * QP on {@code rxe10} connected to one on {@code rxe11} over the veth, each test with a fresh pair.
 * The rxe driver on the other device is the peer that answers: it places WRITEs, answers READs,
 * NAKs a READ under a wrong rkey, and, once its QP is gone, answers nothing, so the requester
 * retries and gives up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class RcRdmaInGuest
{
    private static final int A_PSN = 0x0a_1111;
    private static final int B_PSN = 0x0b_2222;
    private static final int BYTES = 4096;
    /** 4.096 us * 2^14 = 67 ms, as ibv_rc_pingpong. */
    private static final int ACK_TIMEOUT = 14;
    private static final QueuePairCapabilities CAPABILITIES = new QueuePairCapabilities(8, 8, 2, 2, 64);

    private static VerbsContext senderContext;
    private static VerbsContext receiverContext;
    private RcEndpoint a;
    private RcEndpoint b;
    private ScatterGatherList local;

    @BeforeAll
    static void openBothDevices()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        senderContext = Verbs.open(SENDER);
        receiverContext = Verbs.open(RECEIVER);
    }

    @AfterAll
    static void closeBothDevices()
    {
        if (senderContext != null)
        {
            senderContext.close();
        }
        if (receiverContext != null)
        {
            receiverContext.close();
        }
    }

    @BeforeEach
    void connectAFreshPair()
    {
        a = new RcEndpoint(senderContext, SENDER_NETDEV, 16, CAPABILITIES, 3L * BYTES, false);
        b = new RcEndpoint(receiverContext, RECEIVER_NETDEV, 16, CAPABILITIES, 3L * BYTES, false);
        RcEndpoint.connect(a, A_PSN, b, B_PSN, ACK_TIMEOUT, 7);
        local = new ScatterGatherList(2);
        pattern(a.region.memory(), 0, BYTES, 3);
        pattern(b.region.memory(), 0, BYTES, 5);
    }

    @AfterEach
    void closeThePair() throws Exception
    {
        // closing twice is harmless: a test may have closed one end already
        for (final AutoCloseable each : new AutoCloseable[] {local, a, b})
        {
            if (each != null)
            {
                each.close();
            }
        }
    }

    @Test
    void shouldRecordEveryTransitionWithItsAttributeMask()
    {
        assertEquals(List.of(
            new RcEndpoint.Transition(QpState.RESET, QpState.INIT, IBV_QP_STATE | RcQueuePair.INIT_MASK),
            new RcEndpoint.Transition(QpState.INIT, QpState.RTR, IBV_QP_STATE | RcQueuePair.RTR_MASK),
            new RcEndpoint.Transition(QpState.RTR, QpState.RTS, IBV_QP_STATE | RcQueuePair.RTS_MASK)), a.transitions());
    }

    @Test
    void shouldQueryWhatTheTransitionsSet()
    {
        final RcQueuePairAttributes attributes = a.qp.query();

        assertEquals(QpState.RTS, attributes.state());
        assertEquals(b.qp.qpNumber(), attributes.remoteQpn());
        assertEquals(B_PSN, attributes.rqPsn());
        assertEquals(A_PSN, attributes.sqPsn());
        assertEquals(Optional.of(MtuCode.MTU_1024), attributes.pathMtu());
        assertEquals(RcEndpoint.REMOTE_ACCESS, attributes.accessFlags());
        assertEquals(List.of(ACK_TIMEOUT, 7, 7, 4, 4, 12), List.of(attributes.localAckTimeout(), attributes.retryCount(),
            attributes.rnrRetryCount(), attributes.initiatorDepth(), attributes.responderResources(), attributes.minRnrTimer()));
        final AddressVector.GlobalRoute grh = attributes.primaryPath().orElseThrow().grh().orElseThrow();
        assertEquals(b.gid, grh.dgid());
        assertEquals(a.sgidIndex, grh.sgidIndex());
        assertEquals(64, grh.hopLimit());
    }

    @Test
    void shouldListTheQpAsAConnectedRcQpInRdmaResourceShow()
    {
        final Map<String, Object> listed = RdmaResources.ourOnly("qp", SENDER);

        assertEquals("RC", listed.get("type"), listed.toString());
        assertEquals("RTS", listed.get("state"), listed.toString());
        assertEquals(a.qp.qpNumber(), RdmaResources.number(listed, "lqpn"), listed.toString());
        assertEquals(b.qp.qpNumber(), RdmaResources.number(listed, "rqpn"), listed.toString());
        assertEquals(A_PSN, RdmaResources.number(listed, "sq-psn"), listed.toString());
        assertEquals(B_PSN, RdmaResources.number(listed, "rq-psn"), listed.toString());
    }

    @Test
    void shouldPlaceAnRdmaWriteInThePeersRegion()
    {
        local.clear().add(a.region, 0, BYTES);

        a.qp.postRdmaWrite(1, local, b.region.address() + BYTES, b.region.rkey(), true);

        final Completion write = Completion.awaitOne(a.cq);
        assertEquals(CompletionStatus.SUCCESS.value(), write.status(), write.toString());
        assertEquals(CompletionOpcode.RDMA_WRITE.value(), write.opcode(), write.toString());
        assertArrayEquals(bytes(a.region.memory(), 0, BYTES), bytes(b.region.memory(), BYTES, BYTES));
        assertNoCompletion(b.cq);
    }

    @Test
    void shouldReadThePeersRegionIntoTwoLocalPieces()
    {
        local.clear().add(a.region, BYTES, 1000).add(a.region, BYTES + 2000, BYTES - 1000);

        a.qp.postRdmaRead(2, local, b.region.address(), b.region.rkey(), true);

        final Completion read = Completion.awaitOne(a.cq);
        assertEquals(CompletionStatus.SUCCESS.value(), read.status(), read.toString());
        assertEquals(CompletionOpcode.RDMA_READ.value(), read.opcode(), read.toString());
        assertEquals(BYTES, read.byteLength(), read.toString());
        assertArrayEquals(bytes(b.region.memory(), 0, 1000), bytes(a.region.memory(), BYTES, 1000));
        assertArrayEquals(bytes(b.region.memory(), 1000, BYTES - 1000), bytes(a.region.memory(), BYTES + 2000, BYTES - 1000));
    }

    @Test
    void shouldCarryTheImmediateOfAWriteToTheReceiveItConsumes()
    {
        try (ScatterGatherList receive = new ScatterGatherList(1))
        {
            b.qp.postReceive(0x77, receive.add(b.region, 0, 16));
            local.clear().add(a.region, 0, 100);

            a.qp.postRdmaWriteWithImmediate(3, local, b.region.address() + BYTES, b.region.rkey(), 0xdead_beef, true);

            assertEquals(CompletionStatus.SUCCESS.value(), Completion.awaitOne(a.cq).status());
            final Completion consumed = Completion.awaitOne(b.cq);
            assertEquals(CompletionOpcode.RECV_RDMA_WITH_IMM.value(), consumed.opcode(), consumed.toString());
            assertEquals(0xdead_beef, consumed.immediate(), consumed.toString());
            assertTrue((consumed.flags() & IbvConstants.IBV_WC_WITH_IMM) != 0, consumed.toString());
            assertEquals(0x77, consumed.wrId(), consumed.toString());
            assertArrayEquals(bytes(a.region.memory(), 0, 100), bytes(b.region.memory(), BYTES, 100));
        }
    }

    @Test
    void shouldScatterAGatheredSendWithImmediateIntoTheReceive()
    {
        try (ScatterGatherList receive = new ScatterGatherList(2))
        {
            b.qp.postReceive(0x88, receive.add(b.region, BYTES, 50).add(b.region, BYTES + 1000, 500));
            local.clear().add(a.region, 10, 30).add(a.region, 3000, 270);

            a.qp.postSendWithImmediate(4, local, 0x0102_0304, true);

            final Completion sent = Completion.awaitOne(a.cq);
            assertEquals(CompletionOpcode.SEND.value(), sent.opcode(), sent.toString());
            final Completion received = Completion.awaitOne(b.cq);
            assertEquals(CompletionStatus.SUCCESS.value(), received.status(), received.toString());
            assertEquals(CompletionOpcode.RECV.value(), received.opcode(), received.toString());
            assertEquals(300, received.byteLength(), received.toString());
            assertEquals(0x0102_0304, received.immediate(), received.toString());
            assertEquals(b.qp.qpNumber(), received.qpNumber(), received.toString());
            final byte[] sentBytes = concat(bytes(a.region.memory(), 10, 30), bytes(a.region.memory(), 3000, 270));
            final byte[] landed = concat(bytes(b.region.memory(), BYTES, 50), bytes(b.region.memory(), BYTES + 1000, 250));
            assertArrayEquals(sentBytes, landed);
        }
    }

    @Test
    void shouldSendUnsignalledWithoutACompletionOfItsOwn()
    {
        try (ScatterGatherList receive = new ScatterGatherList(1))
        {
            b.qp.postReceive(0x99, receive.add(b.region, BYTES, 64));
            b.qp.postReceive(0x9a, receive.clear().add(b.region, BYTES + 64, 64));
            local.clear().add(a.region, 0, 64);

            a.qp.postSend(5, local, false);
            a.qp.postSend(6, local, true);

            assertEquals(List.of(0x99L, 0x9aL), Completion.awaitAll(b.cq, 2).stream().map(Completion::wrId).toList());
            final Completion only = Completion.awaitOne(a.cq);
            assertEquals(6, only.wrId(), "the unsignalled send leaves no completion: " + only);
        }
    }

    @Test
    void shouldCompleteAReadUnderAWrongRkeyWithTheRemoteAccessError()
    {
        local.clear().add(a.region, 0, 512);

        a.qp.postRdmaRead(7, local, b.region.address(), b.region.rkey() ^ 0xff, true);

        final Completion failed = Completion.awaitOne(a.cq);
        assertEquals(CompletionStatus.REM_ACCESS_ERR, CompletionStatus.ofValue(failed.status()), failed.toString());
        assertEquals(7, failed.wrId(), failed.toString());
        assertEquals(QpState.ERR, a.qp.query().state(), "a QP that got a NAK for its READ is in error");
    }

    @Test
    void shouldRetryAndGiveUpWhenThePeersQpIsGone()
    {
        final RcEndpoint quick = new RcEndpoint(senderContext, SENDER_NETDEV, 16, CAPABILITIES, BYTES, false);
        try
        {
            // a QP of its own with a short ACK timeout and one retry, towards b, which then goes
            quick.connect(b.gid, b.qp.qpNumber(), B_PSN, A_PSN, new RcSendParameters(A_PSN, 8, 1, 7, 4));
            b.close();
            local.clear().add(quick.region, 0, 64);

            quick.qp.postSend(8, local, true);

            final Completion gaveUp = Completion.awaitOne(quick.cq);
            assertEquals(CompletionStatus.RETRY_EXC_ERR, CompletionStatus.ofValue(gaveUp.status()), gaveUp.toString());
            assertEquals(8, gaveUp.wrId(), gaveUp.toString());
            assertEquals(QpState.ERR, quick.qp.query().state());
        }
        finally
        {
            quick.close();
        }
    }

    @Test
    void shouldFlushWhatIsPostedAfterTheMoveToError()
    {
        try (ScatterGatherList receive = new ScatterGatherList(1))
        {
            b.qp.postReceive(0xaa, receive.add(b.region, 0, 64));

            b.qp.error();

            final Completion flushed = Completion.awaitOne(b.cq);
            assertEquals(CompletionStatus.WR_FLUSH_ERR, CompletionStatus.ofValue(flushed.status()), flushed.toString());
            assertEquals(0xaa, flushed.wrId(), flushed.toString());
            assertEquals(QpState.ERR, b.qp.query().state());
        }
    }

    private static void assertNoCompletion(final CompletionQueue cq)
    {
        try (WorkCompletions none = new WorkCompletions(1))
        {
            assertEquals(0, cq.poll(none), "no completion on " + cq);
        }
    }

    private static void pattern(final MemorySegment memory, final long offset, final int length, final int seed)
    {
        for (int i = 0; i < length; i++)
        {
            memory.set(JAVA_BYTE, offset + i, (byte)(i * seed + (i >>> 8)));
        }
    }

    private static byte[] bytes(final MemorySegment memory, final long offset, final int length)
    {
        return memory.asSlice(offset, length).toArray(JAVA_BYTE);
    }

    private static byte[] concat(final byte[] first, final byte[] second)
    {
        final byte[] all = new byte[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }
}
