package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.mad.Gsi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static dev.rdmacm.verbs.FakeVerbsContext.hex;
import static dev.rdmacm.verbs.IbvLayouts.IBV_CONTEXT;
import static dev.rdmacm.verbs.IbvLayouts.IBV_CQ;
import static dev.rdmacm.verbs.IbvLayouts.IBV_QP;
import static dev.rdmacm.verbs.IbvLayouts.VERBS_CONTEXT;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Proves that the verbs {@code verbs.h} defines as {@code static inline} reach the right function
 * pointer of a context, with the right arguments, and that results and errors come back, using a
 * fake context whose slots are Java upcalls ({@link FakeVerbsContext}).
 */
class ContextOpsDispatchTest
{
    private final FakeVerbsContext fake = new FakeVerbsContext();
    private final MemorySegment cq = fake.arena().allocate(IBV_CQ);
    private final MemorySegment qp = fake.arena().allocate(IBV_QP);

    ContextOpsDispatchTest()
    {
        cq.set(ADDRESS, offset(IBV_CQ, "context"), fake.context());
        qp.set(ADDRESS, offset(IBV_QP, "context"), fake.context());
    }

    @AfterEach
    void freeTheFakeContext()
    {
        fake.close();
    }

    @Test
    void shouldFindTheSlotsAtTheOffsetsVerbsHCompilesTo()
    {
        assertEquals(96, ContextOps.POLL_CQ_OFFSET);
        assertEquals(104, ContextOps.REQ_NOTIFY_CQ_OFFSET);
        assertEquals(208, ContextOps.POST_SEND_OFFSET);
        assertEquals(216, ContextOps.POST_RECV_OFFSET);
        assertEquals(320, ContextOps.ABI_COMPAT_OFFSET);
        assertEquals(320, ContextOps.CONTEXT_IN_VERBS_CONTEXT);
        assertEquals(312, ContextOps.VERBS_SZ_OFFSET);
        assertEquals(0, ContextOps.VERBS_QUERY_PORT_OFFSET);
    }

    @Test
    void shouldPollThroughPollCqAndReadTheCompletionBack()
    {
        fake.returning(1);
        try (WorkCompletions completions = new WorkCompletions(4))
        {
            final int polled = new ContextOps(fake.context()).pollCq(cq, completions.capacity(), completions.segment());

            assertEquals(List.of("poll_cq cq=" + hex(cq) + " num_entries=4 wc=" + hex(completions.segment())), fake.calls());
            assertEquals(1, polled);
            assertEquals(42L, completions.wrId(0));
            assertEquals(IbvConstants.IBV_WC_SUCCESS, completions.status(0));
            assertEquals(IbvConstants.IBV_WC_RECV, completions.opcode(0));
            assertEquals(296L, completions.byteLength(0));
            assertEquals(0x1234, completions.qpNumber(0));
            assertEquals(1, completions.sourceQp(0));
            assertEquals(IbvConstants.IBV_WC_GRH, completions.flags(0));
            assertEquals(2, completions.pkeyIndex(0));
            assertEquals(0xbeef, completions.sourceLid(0));
            assertEquals(3, completions.serviceLevel(0));
        }
    }

    @Test
    void shouldReportAPollErrorAsAVerbsException()
    {
        fake.returning(-2);
        try (WorkCompletions completions = new WorkCompletions(1))
        {
            final ContextOps ops = new ContextOps(fake.context());

            final VerbsException ex = assertThrows(VerbsException.class, () -> ops.pollCq(cq, 1, completions.segment()));

            assertEquals("ibv_poll_cq", ex.call());
            assertEquals("ibv_poll_cq failed: no errno set: the provider returned -2 (CQ in error)", ex.getMessage());
        }
    }

    @Test
    void shouldArmTheCqThroughReqNotifyCq()
    {
        new ContextOps(fake.context()).reqNotifyCq(cq, true);

        assertEquals(List.of("req_notify_cq cq=" + hex(cq) + " solicited_only=1"), fake.calls());
    }

    @Test
    void shouldReportAReqNotifyErrorWithItsErrno()
    {
        fake.returning(Errno.EINVAL);
        final ContextOps ops = new ContextOps(fake.context());

        final VerbsException ex = assertThrows(VerbsException.class, () -> ops.reqNotifyCq(cq, false));

        assertEquals(Errno.EINVAL, ex.errno());
        assertEquals("EINVAL", ex.errnoName());
        assertEquals("ibv_req_notify_cq failed: errno 22 EINVAL: any completion", ex.getMessage());
    }

    @Test
    void shouldPostAUdSendWithEveryFieldWhereTheProviderReadsIt()
    {
        final MemorySegment data = fake.arena().allocate(256);
        final MemorySegment ah = fake.arena().allocate(24);
        try (UdWorkRequests requests = new UdWorkRequests(new ContextOps(fake.context()), qp))
        {
            requests.postSend(7L, data.asSlice(16, 100), 0x1122, ah, 1, (int)Gsi.QKEY, true);

            assertEquals(List.of("post_send qp=" + hex(qp) + " wr_id=7 next=0x0 num_sge=1 opcode=" + IbvConstants.IBV_WR_SEND
                + " send_flags=" + IbvConstants.IBV_SEND_SIGNALED + " ah=" + hex(ah) + " remote_qpn=1 remote_qkey=0x80010000"
                + " sge.addr=" + hex(data.asSlice(16)) + " sge.length=100 sge.lkey=0x1122"), fake.calls());
        }
    }

    @Test
    void shouldReportARefusedSendWithItsErrnoAndWorkRequest()
    {
        fake.returning(Errno.ENOMEM);
        final MemorySegment data = fake.arena().allocate(256);
        try (UdWorkRequests requests = new UdWorkRequests(new ContextOps(fake.context()), qp))
        {
            final VerbsException ex = assertThrows(VerbsException.class,
                () -> requests.postSend(99L, data, 1, MemorySegment.NULL, 1, 0, false));

            assertEquals("ibv_post_send failed: errno 12 ENOMEM: work request wr_id 99 refused", ex.getMessage());
        }
    }

    @Test
    void shouldPostAReceiveThroughPostRecv()
    {
        final MemorySegment buffer = fake.arena().allocate(296);
        try (UdWorkRequests requests = new UdWorkRequests(new ContextOps(fake.context()), qp))
        {
            requests.postRecv(5L, buffer, 0x33);

            assertEquals(List.of("post_recv qp=" + hex(qp) + " wr_id=5 next=0x0 num_sge=1 sge.addr=" + hex(buffer)
                + " sge.length=296 sge.lkey=0x33"), fake.calls());
        }
    }

    @Test
    void shouldReportARefusedReceiveWithItsErrno()
    {
        fake.returning(Errno.EINVAL);
        final MemorySegment buffer = fake.arena().allocate(296);
        try (UdWorkRequests requests = new UdWorkRequests(new ContextOps(fake.context()), qp))
        {
            final VerbsException ex = assertThrows(VerbsException.class, () -> requests.postRecv(6L, buffer, 0x33));

            assertEquals("ibv_post_recv failed: errno 22 EINVAL: work request wr_id 6 refused", ex.getMessage());
        }
    }

    @Test
    void shouldQueryThePortThroughTheExtendedContextWithTheWhole52ByteStruct()
    {
        final VerbsContext context = new VerbsContext(fake.context(), "fake0");

        final PortAttributes port = context.queryPort(1);

        assertEquals(List.of("query_port ctx=" + hex(fake.context()) + " port=1 len=52"), fake.calls());
        assertEquals(PortState.ACTIVE, port.portState());
        assertEquals(FakeVerbsContext.PORT_LID, port.lid());
        assertEquals(FakeVerbsContext.PORT_SM_LID, port.smLid());
        assertEquals(2, port.lmc());
        assertEquals(1, port.smSl());
        assertEquals(FakeVerbsContext.PORT_CAP_FLAGS, port.portCapFlags());
        assertEquals(FakeVerbsContext.PORT_CAP_FLAGS2, port.portCapFlags2());
        assertEquals(128, port.gidTableLength());
        assertEquals(128, port.pkeyTableLength());
        assertEquals(LinkLayer.INFINIBAND, port.linkLayerType());
        assertEquals("100 Gb/sec (4X EDR)", port.rateText());
    }

    @Test
    void shouldReportAFailedPortQueryWithItsErrno()
    {
        fake.returning(Errno.EINVAL);
        final VerbsContext context = new VerbsContext(fake.context(), "fake0");

        final VerbsException ex = assertThrows(VerbsException.class, () -> context.queryPort(3));

        assertEquals("ibv_query_port failed: errno 22 EINVAL: port 3", ex.getMessage());
    }

    @Test
    void shouldNotUseTheExtendedQueryPortOfAContextThatIsNotExtended()
    {
        fake.context().set(ADDRESS, offset(IBV_CONTEXT, "abi_compat"), MemorySegment.NULL);

        assertFalse(new ContextOps(fake.context()).hasExtendedQueryPort());
    }

    @Test
    void shouldNotUseTheExtendedQueryPortWhenTheVerbsContextIsTooSmall()
    {
        assertTrue(new ContextOps(fake.context()).hasExtendedQueryPort());
        fake.verbsContext().set(JAVA_LONG, offset(VERBS_CONTEXT, "sz"), VERBS_CONTEXT.byteSize() - 1);

        assertFalse(new ContextOps(fake.context()).hasExtendedQueryPort());
    }
}
