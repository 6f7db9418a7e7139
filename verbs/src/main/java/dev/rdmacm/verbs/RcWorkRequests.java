package dev.rdmacm.verbs;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

import static dev.rdmacm.verbs.IbvConstants.IBV_SEND_INLINE;
import static dev.rdmacm.verbs.IbvConstants.IBV_SEND_SIGNALED;
import static dev.rdmacm.verbs.IbvLayouts.BE32;
import static dev.rdmacm.verbs.IbvLayouts.IBV_RECV_WR;
import static dev.rdmacm.verbs.IbvLayouts.IBV_SEND_WR;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The one send and one receive work request of an RC QP, in memory the QP gives once ({@link #LAYOUT}, a part
 * of the QP's one native block) and refilled for every post, so posting allocates nothing; the
 * scatter/gather entries are the caller's {@link ScatterGatherList}, which the request points at.
 * <pre>
 *  struct ibv_send_wr (128 bytes)                 struct ibv_recv_wr (32 bytes)
 *   0 wr_id  8 next  16 sg_list  24 num_sge        0 wr_id  8 next  16 sg_list  24 num_sge
 *  28 opcode  32 send_flags  36 imm_data (__be32)
 *  40 wr.rdma.remote_addr (u64)  48 wr.rdma.rkey (u32)
 * </pre>
 */
final class RcWorkRequests implements AutoCloseable
{
    static final long SEND_WR_ID_OFFSET = offset(IBV_SEND_WR, "wr_id");
    static final long SEND_NEXT_OFFSET = offset(IBV_SEND_WR, "next");
    static final long SEND_SG_LIST_OFFSET = offset(IBV_SEND_WR, "sg_list");
    static final long SEND_NUM_SGE_OFFSET = offset(IBV_SEND_WR, "num_sge");
    static final long SEND_OPCODE_OFFSET = offset(IBV_SEND_WR, "opcode");
    static final long SEND_FLAGS_OFFSET = offset(IBV_SEND_WR, "send_flags");
    static final long SEND_IMM_DATA_OFFSET = offset(IBV_SEND_WR, "$imm", "imm_data");
    static final long SEND_RDMA_REMOTE_ADDR_OFFSET = offset(IBV_SEND_WR, "wr", "rdma", "remote_addr");
    static final long SEND_RDMA_RKEY_OFFSET = offset(IBV_SEND_WR, "wr", "rdma", "rkey");
    static final long RECV_WR_ID_OFFSET = offset(IBV_RECV_WR, "wr_id");
    static final long RECV_NEXT_OFFSET = offset(IBV_RECV_WR, "next");
    static final long RECV_SG_LIST_OFFSET = offset(IBV_RECV_WR, "sg_list");
    static final long RECV_NUM_SGE_OFFSET = offset(IBV_RECV_WR, "num_sge");
    /** The memory the work requests live in: the send request, the receive request, and the {@code bad_wr} a post writes. */
    static final StructLayout LAYOUT = MemoryLayout.structLayout(
        IBV_SEND_WR.withName("send_wr"),
        IBV_RECV_WR.withName("recv_wr"),
        ADDRESS.withName("bad_wr"));
    private static final long SEND_WR_AT = LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement("send_wr"));
    private static final long RECV_WR_AT = LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement("recv_wr"));
    private static final long BAD_WR_AT = LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement("bad_wr"));

    private final ContextOps ops;
    private final MemorySegment qp;
    private final MemorySegment sendWr;
    private final MemorySegment recvWr;
    private final MemorySegment badWr;

    /**
     * Work requests for {@code qp}, posted through {@code ops} (both may be null for a layout test), in
     * {@code memory}, which lives as long as this object is used.
     *
     * @param memory {@link #LAYOUT}'s bytes.
     */
    RcWorkRequests(final ContextOps ops, final MemorySegment qp, final MemorySegment memory)
    {
        this.ops = ops;
        this.qp = qp;
        sendWr = memory.asSlice(SEND_WR_AT, IBV_SEND_WR);
        recvWr = memory.asSlice(RECV_WR_AT, IBV_RECV_WR);
        badWr = memory.asSlice(BAD_WR_AT, ADDRESS);
        sendWr.set(ADDRESS, SEND_NEXT_OFFSET, MemorySegment.NULL);
        recvWr.set(ADDRESS, RECV_NEXT_OFFSET, MemorySegment.NULL);
    }

    /**
     * Fills the send work request: every field a post of {@code opcode} reads, the ones it does not
     * zeroed, so a READ after a SEND carries no stale immediate data.
     */
    void fillSend(final long wrId, final int opcode, final ScatterGatherList sgl, final boolean signaled, final boolean inline,
        final int immediate, final long remoteAddress, final int rkey)
    {
        sendWr.set(JAVA_LONG, SEND_WR_ID_OFFSET, wrId);
        sendWr.set(ADDRESS, SEND_SG_LIST_OFFSET, sgl.segment());
        sendWr.set(JAVA_INT, SEND_NUM_SGE_OFFSET, sgl.count());
        sendWr.set(JAVA_INT, SEND_OPCODE_OFFSET, opcode);
        sendWr.set(JAVA_INT, SEND_FLAGS_OFFSET, (signaled ? IBV_SEND_SIGNALED : 0) | (inline ? IBV_SEND_INLINE : 0));
        sendWr.set(BE32, SEND_IMM_DATA_OFFSET, immediate);
        sendWr.set(JAVA_LONG, SEND_RDMA_REMOTE_ADDR_OFFSET, remoteAddress);
        sendWr.set(JAVA_INT, SEND_RDMA_RKEY_OFFSET, rkey);
    }

    void postSend()
    {
        badWr.set(ADDRESS, 0, MemorySegment.NULL);
        ops.postSend(qp, sendWr, badWr);
    }

    void fillRecv(final long wrId, final ScatterGatherList sgl)
    {
        recvWr.set(JAVA_LONG, RECV_WR_ID_OFFSET, wrId);
        recvWr.set(ADDRESS, RECV_SG_LIST_OFFSET, sgl.segment());
        recvWr.set(JAVA_INT, RECV_NUM_SGE_OFFSET, sgl.count());
    }

    void postRecv()
    {
        badWr.set(ADDRESS, 0, MemorySegment.NULL);
        ops.postRecv(qp, recvWr, badWr);
    }

    MemorySegment sendWr()
    {
        return sendWr;
    }

    MemorySegment recvWr()
    {
        return recvWr;
    }

    /** The work requests' memory is the QP's, which goes with the QP object (an automatic arena): nothing to free now. */
    @Override
    public void close()
    {
    }
}
