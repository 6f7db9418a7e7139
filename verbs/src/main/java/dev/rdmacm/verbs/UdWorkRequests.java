package dev.rdmacm.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static dev.rdmacm.verbs.IbvConstants.IBV_SEND_SIGNALED;
import static dev.rdmacm.verbs.IbvConstants.IBV_WR_SEND;
import static dev.rdmacm.verbs.IbvConstants.IBV_WR_SEND_WITH_IMM;
import static dev.rdmacm.verbs.IbvLayouts.BE32;
import static dev.rdmacm.verbs.IbvLayouts.IBV_RECV_WR;
import static dev.rdmacm.verbs.IbvLayouts.IBV_SEND_WR;
import static dev.rdmacm.verbs.IbvLayouts.IBV_SGE;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The one send and one receive work request of a UD QP, allocated once and refilled for every post,
 * so posting allocates nothing. Each has a single scatter/gather entry.
 * <pre>
 *  struct ibv_send_wr (128 bytes)                 struct ibv_recv_wr (32 bytes)
 *   0 wr_id  8 next  16 sg_list  24 num_sge        0 wr_id  8 next  16 sg_list  24 num_sge
 *  28 opcode  32 send_flags  36 imm_data (__be32)
 *  40 wr.ud.ah  48 wr.ud.remote_qpn  52 wr.ud.remote_qkey
 *  struct ibv_sge (16 bytes): 0 addr  8 length  12 lkey
 * </pre>
 */
final class UdWorkRequests implements AutoCloseable
{
    static final long SEND_WR_ID_OFFSET = offset(IBV_SEND_WR, "wr_id");
    static final long SEND_NEXT_OFFSET = offset(IBV_SEND_WR, "next");
    static final long SEND_SG_LIST_OFFSET = offset(IBV_SEND_WR, "sg_list");
    static final long SEND_NUM_SGE_OFFSET = offset(IBV_SEND_WR, "num_sge");
    static final long SEND_OPCODE_OFFSET = offset(IBV_SEND_WR, "opcode");
    static final long SEND_FLAGS_OFFSET = offset(IBV_SEND_WR, "send_flags");
    static final long SEND_IMM_DATA_OFFSET = offset(IBV_SEND_WR, "$imm", "imm_data");
    static final long SEND_UD_AH_OFFSET = offset(IBV_SEND_WR, "wr", "ud", "ah");
    static final long SEND_UD_REMOTE_QPN_OFFSET = offset(IBV_SEND_WR, "wr", "ud", "remote_qpn");
    static final long SEND_UD_REMOTE_QKEY_OFFSET = offset(IBV_SEND_WR, "wr", "ud", "remote_qkey");
    static final long RECV_WR_ID_OFFSET = offset(IBV_RECV_WR, "wr_id");
    static final long RECV_NEXT_OFFSET = offset(IBV_RECV_WR, "next");
    static final long RECV_SG_LIST_OFFSET = offset(IBV_RECV_WR, "sg_list");
    static final long RECV_NUM_SGE_OFFSET = offset(IBV_RECV_WR, "num_sge");
    static final long SGE_ADDR_OFFSET = offset(IBV_SGE, "addr");
    static final long SGE_LENGTH_OFFSET = offset(IBV_SGE, "length");
    static final long SGE_LKEY_OFFSET = offset(IBV_SGE, "lkey");

    private final ContextOps ops;
    private final MemorySegment qp;
    /** Automatic: a QP is made and destroyed per connection, and closing a shared arena is a handshake with every thread. */
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment sendWr;
    private final MemorySegment sendSge;
    private final MemorySegment recvWr;
    private final MemorySegment recvSge;
    private final MemorySegment badWr;

    /** Work requests for {@code qp}, posted through {@code ops}. */
    UdWorkRequests(final ContextOps ops, final MemorySegment qp)
    {
        this.ops = ops;
        this.qp = qp;
        sendWr = arena.allocate(IBV_SEND_WR);
        sendSge = arena.allocate(IBV_SGE);
        recvWr = arena.allocate(IBV_RECV_WR);
        recvSge = arena.allocate(IBV_SGE);
        badWr = arena.allocate(ADDRESS);
        sendWr.set(ADDRESS, SEND_NEXT_OFFSET, MemorySegment.NULL);
        sendWr.set(ADDRESS, SEND_SG_LIST_OFFSET, sendSge);
        sendWr.set(JAVA_INT, SEND_NUM_SGE_OFFSET, 1);
        sendWr.set(JAVA_INT, SEND_OPCODE_OFFSET, IBV_WR_SEND);
        recvWr.set(ADDRESS, RECV_NEXT_OFFSET, MemorySegment.NULL);
        recvWr.set(ADDRESS, RECV_SG_LIST_OFFSET, recvSge);
        recvWr.set(JAVA_INT, RECV_NUM_SGE_OFFSET, 1);
    }

    /** {@code ibv_post_send} of {@code data} (registered under {@code lkey}) to a UD destination. */
    void postSend(final long wrId, final MemorySegment data, final int lkey, final MemorySegment ah, final int remoteQpn,
        final int remoteQkey, final boolean signaled)
    {
        post(wrId, data, lkey, ah, remoteQpn, remoteQkey, signaled, IBV_WR_SEND, 0);
    }

    /** {@code IBV_WR_SEND_WITH_IMM}: as {@link #postSend}, with {@code immediate} (host order, sent big-endian). */
    void postSendWithImmediate(final long wrId, final MemorySegment data, final int lkey, final MemorySegment ah,
        final int remoteQpn, final int remoteQkey, final boolean signaled, final int immediate)
    {
        post(wrId, data, lkey, ah, remoteQpn, remoteQkey, signaled, IBV_WR_SEND_WITH_IMM, immediate);
    }

    private void post(final long wrId, final MemorySegment data, final int lkey, final MemorySegment ah, final int remoteQpn,
        final int remoteQkey, final boolean signaled, final int opcode, final int immediate)
    {
        fill(sendSge, data, lkey);
        sendWr.set(JAVA_INT, SEND_OPCODE_OFFSET, opcode);
        sendWr.set(BE32, SEND_IMM_DATA_OFFSET, immediate);
        sendWr.set(JAVA_LONG, SEND_WR_ID_OFFSET, wrId);
        sendWr.set(JAVA_INT, SEND_FLAGS_OFFSET, signaled ? IBV_SEND_SIGNALED : 0);
        sendWr.set(ADDRESS, SEND_UD_AH_OFFSET, ah);
        sendWr.set(JAVA_INT, SEND_UD_REMOTE_QPN_OFFSET, remoteQpn);
        sendWr.set(JAVA_INT, SEND_UD_REMOTE_QKEY_OFFSET, remoteQkey);
        badWr.set(ADDRESS, 0, MemorySegment.NULL);
        ops.postSend(qp, sendWr, badWr);
    }

    /** {@code ibv_post_recv} of {@code buffer} (registered under {@code lkey}). */
    void postRecv(final long wrId, final MemorySegment buffer, final int lkey)
    {
        fill(recvSge, buffer, lkey);
        recvWr.set(JAVA_LONG, RECV_WR_ID_OFFSET, wrId);
        badWr.set(ADDRESS, 0, MemorySegment.NULL);
        ops.postRecv(qp, recvWr, badWr);
    }

    private static void fill(final MemorySegment sge, final MemorySegment data, final int lkey)
    {
        sge.set(JAVA_LONG, SGE_ADDR_OFFSET, data.address());
        sge.set(JAVA_INT, SGE_LENGTH_OFFSET, (int)data.byteSize());
        sge.set(JAVA_INT, SGE_LKEY_OFFSET, lkey);
    }

    /** The work requests' memory goes with this object (an automatic arena): nothing to free now. */
    @Override
    public void close()
    {
    }
}
