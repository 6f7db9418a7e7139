package dev.rdmacm.verbs;

import dev.rdmacm.protocol.sa.MtuCode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static dev.rdmacm.verbs.IbvConstants.IBV_ACCESS_LOCAL_WRITE;
import static dev.rdmacm.verbs.IbvConstants.IBV_ACCESS_REMOTE_ATOMIC;
import static dev.rdmacm.verbs.IbvConstants.IBV_ACCESS_REMOTE_READ;
import static dev.rdmacm.verbs.IbvConstants.IBV_ACCESS_REMOTE_WRITE;
import static dev.rdmacm.verbs.IbvConstants.IBV_QPT_RC;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_ACCESS_FLAGS;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_AV;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_DEST_QPN;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_MAX_DEST_RD_ATOMIC;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_MAX_QP_RD_ATOMIC;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_MIN_RNR_TIMER;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_PATH_MTU;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_PKEY_INDEX;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_PORT;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_RETRY_CNT;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_RNR_RETRY;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_RQ_PSN;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_SQ_PSN;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_STATE;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_TIMEOUT;
import static dev.rdmacm.verbs.IbvConstants.IBV_WR_RDMA_READ;
import static dev.rdmacm.verbs.IbvConstants.IBV_WR_RDMA_WRITE;
import static dev.rdmacm.verbs.IbvConstants.IBV_WR_RDMA_WRITE_WITH_IMM;
import static dev.rdmacm.verbs.IbvConstants.IBV_WR_SEND;
import static dev.rdmacm.verbs.IbvConstants.IBV_WR_SEND_WITH_IMM;
import static dev.rdmacm.verbs.IbvLayouts.IBV_QP;
import static dev.rdmacm.verbs.IbvLayouts.IBV_QP_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.IBV_QP_CAP;
import static dev.rdmacm.verbs.IbvLayouts.IBV_QP_INIT_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A reliable-connected QP ({@code ibv_create_qp} with {@code IBV_QPT_RC}). It moves RESET -> INIT
 * (port, P_Key index, remote access) -> RTR ({@link RcReceiveParameters}: the path, the remote QPN
 * and PSN) -> RTS ({@link RcSendParameters}: the own PSN, timeout and retries), and from any state to
 * ERR or RESET, every move through {@link #transition}, which tells the
 * {@link QueuePairTransitionListener}. It posts SENDs (with and without immediate data), RDMA WRITEs
 * and READs and receives from one preallocated work request each, over a caller's
 * {@link ScatterGatherList}, so posting allocates nothing; a send or write no longer than the
 * provider's {@code max_inline_data} goes inline. Not thread-safe.
 * <pre>
 *  struct ibv_qp_attr (144 bytes), the members an RC QP's transitions write
 *    0 qp_state   8 path_mtu  20 rq_psn  24 sq_psn  28 dest_qp_num  32 qp_access_flags
 *   56 ah_attr (struct ibv_ah_attr, 32 bytes: 0 grh.dgid 16 grh.flow_label 20 grh.sgid_index
 *      21 grh.hop_limit 22 grh.traffic_class 24 dlid 26 sl 29 is_global 30 port_num)
 *  120 pkey_index (u16)  126 max_rd_atomic  127 max_dest_rd_atomic  128 min_rnr_timer
 *  129 port_num  130 timeout  131 retry_cnt  132 rnr_retry
 * </pre>
 */
public final class RcQueuePair extends NativeResource
{
    static final long QP_NUM_OFFSET = offset(IBV_QP, "qp_num");
    static final long INIT_QP_TYPE_OFFSET = offset(IBV_QP_INIT_ATTR, "qp_type");
    static final long INIT_CAP_OFFSET = offset(IBV_QP_INIT_ATTR, "cap");

    static final long ATTR_QP_STATE_OFFSET = offset(IBV_QP_ATTR, "qp_state");
    static final long ATTR_PATH_MTU_OFFSET = offset(IBV_QP_ATTR, "path_mtu");
    static final long ATTR_RQ_PSN_OFFSET = offset(IBV_QP_ATTR, "rq_psn");
    static final long ATTR_SQ_PSN_OFFSET = offset(IBV_QP_ATTR, "sq_psn");
    static final long ATTR_DEST_QP_NUM_OFFSET = offset(IBV_QP_ATTR, "dest_qp_num");
    static final long ATTR_QP_ACCESS_FLAGS_OFFSET = offset(IBV_QP_ATTR, "qp_access_flags");
    static final long ATTR_CAP_OFFSET = offset(IBV_QP_ATTR, "cap");
    static final long ATTR_AH_ATTR_OFFSET = offset(IBV_QP_ATTR, "ah_attr");
    static final long ATTR_PKEY_INDEX_OFFSET = offset(IBV_QP_ATTR, "pkey_index");
    static final long ATTR_MAX_RD_ATOMIC_OFFSET = offset(IBV_QP_ATTR, "max_rd_atomic");
    static final long ATTR_MAX_DEST_RD_ATOMIC_OFFSET = offset(IBV_QP_ATTR, "max_dest_rd_atomic");
    static final long ATTR_MIN_RNR_TIMER_OFFSET = offset(IBV_QP_ATTR, "min_rnr_timer");
    static final long ATTR_PORT_NUM_OFFSET = offset(IBV_QP_ATTR, "port_num");
    static final long ATTR_TIMEOUT_OFFSET = offset(IBV_QP_ATTR, "timeout");
    static final long ATTR_RETRY_CNT_OFFSET = offset(IBV_QP_ATTR, "retry_cnt");
    static final long ATTR_RNR_RETRY_OFFSET = offset(IBV_QP_ATTR, "rnr_retry");
    static final long CAP_MAX_SEND_WR_OFFSET = offset(IBV_QP_CAP, "max_send_wr");
    static final long CAP_MAX_RECV_WR_OFFSET = offset(IBV_QP_CAP, "max_recv_wr");
    static final long CAP_MAX_SEND_SGE_OFFSET = offset(IBV_QP_CAP, "max_send_sge");
    static final long CAP_MAX_RECV_SGE_OFFSET = offset(IBV_QP_CAP, "max_recv_sge");
    static final long CAP_MAX_INLINE_DATA_OFFSET = offset(IBV_QP_CAP, "max_inline_data");

    static final int INIT_MASK = IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
    static final int RTR_MASK = IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC
        | IBV_QP_MIN_RNR_TIMER;
    static final int RTS_MASK = IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
    /** What {@link #query()} asks for. */
    static final int QUERY_MASK = IBV_QP_STATE | INIT_MASK | RTR_MASK | RTS_MASK | IbvConstants.IBV_QP_CAP;
    /** The {@code IBV_ACCESS_*} flags a QP's {@code qp_access_flags} takes. */
    public static final int QP_ACCESS_FLAGS = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ
        | IBV_ACCESS_REMOTE_ATOMIC;

    private static final Set<QpState> ANY = EnumSet.allOf(QpState.class);
    private static final Set<QpState> FROM_RESET = EnumSet.of(QpState.RESET);
    private static final Set<QpState> FROM_INIT = EnumSet.of(QpState.INIT);
    private static final Set<QpState> FROM_RTR = EnumSet.of(QpState.RTR);
    private static final Supplier<String> NO_VALUES = () -> "";
    private static final Consumer<MemorySegment> NOTHING_TO_FILL = attr ->
    {
    };
    private static final Set<QpState> SENDING = EnumSet.of(QpState.RTS, QpState.ERR);

    /**
     * A QP's native memory, one block from one automatic arena (a QP is made per connection: an arena per
     * structure cost a cleaner registration and a {@code malloc} each, and a confined one a {@code free} too;
     * automatic, so closing the QP is a handshake with no thread): the attributes every move fills, those
     * {@code ibv_create_qp} reads and writes back (used once), and the work requests.
     */
    static final StructLayout MEMORY = MemoryLayout.structLayout(
        IBV_QP_ATTR.withName("move_attributes"),
        IBV_QP_INIT_ATTR.withName("create_attributes"),
        RcWorkRequests.LAYOUT.withName("work_requests"));
    private static final long MOVE_ATTRIBUTES_AT = MEMORY.byteOffset(MemoryLayout.PathElement.groupElement("move_attributes"));
    private static final long CREATE_ATTRIBUTES_AT = MEMORY.byteOffset(MemoryLayout.PathElement.groupElement("create_attributes"));
    private static final long WORK_REQUESTS_AT = MEMORY.byteOffset(MemoryLayout.PathElement.groupElement("work_requests"));

    private final MemorySegment qp;
    private final int qpNumber;
    private final QueuePairCapabilities capabilities;
    private final RcWorkRequests workRequests;
    private final QueuePairTransitionListener listener;
    /** The {@code struct ibv_qp_attr} every move fills, reused (moves are serialised): a move costs no arena. */
    private final MemorySegment moveAttributes;
    private QpState state = QpState.RESET;

    RcQueuePair(final ProtectionDomain pd, final CompletionQueue sendCq, final CompletionQueue recvCq,
        final QueuePairCapabilities requested, final QueuePairTransitionListener listener)
    {
        // the description is toString()'s, which this class makes itself: no text per QP
        super(pd.context().registry(), "RC QP");
        sendCq.requireOpen("ibv_create_qp");
        recvCq.requireOpen("ibv_create_qp");
        this.listener = listener;
        final MemorySegment memory = Arena.ofAuto().allocate(MEMORY);
        moveAttributes = memory.asSlice(MOVE_ATTRIBUTES_AT, IBV_QP_ATTR);
        final MemorySegment init = memory.asSlice(CREATE_ATTRIBUTES_AT, IBV_QP_INIT_ATTR);
        writeCreateAttributes(init, sendCq.segment(), recvCq.segment(), requested);
        qp = LibIbverbs.create("ibv_create_qp", () -> this + " " + requested,
            errno -> (MemorySegment)LibIbverbs.QueuePairs.CREATE_QP.invokeExact(errno, pd.segment(), init))
            .reinterpret(IBV_QP.byteSize());
        // ibv_create_qp writes back what the provider gave, at least what was asked
        capabilities = readCapabilities(init, INIT_CAP_OFFSET);
        qpNumber = qp.get(JAVA_INT, QP_NUM_OFFSET);
        try
        {
            workRequests = new RcWorkRequests(pd.context().ops(), qp, memory.asSlice(WORK_REQUESTS_AT, RcWorkRequests.LAYOUT));
        }
        catch (final RuntimeException ex)
        {
            LibIbverbs.check("ibv_destroy_qp", this::toString, errno -> (int)LibIbverbs.QueuePairs.DESTROY_QP.invokeExact(errno, qp));
            throw ex;
        }
        register();
    }

    /** The QP number, as an unsigned 24-bit value. */
    public int qpNumber()
    {
        return qpNumber & 0xff_ffff;
    }

    /** The state the last successful transition reached; {@link #query()} asks the kernel. */
    public QpState state()
    {
        return state;
    }

    /** The queue sizes the provider gave ({@code ibv_create_qp}'s answer, at least what was asked). */
    public QueuePairCapabilities capabilities()
    {
        return capabilities;
    }

    /**
     * RESET -> INIT on {@code port} with {@code pkeyIndex}, letting the peer do what
     * {@code accessFlags} ({@code IBV_ACCESS_REMOTE_WRITE}, {@code _READ}, {@code _ATOMIC}) allow on
     * this QP's memory regions (each region's own access flags must allow it too).
     */
    public RcQueuePair init(final int port, final int pkeyIndex, final int accessFlags)
    {
        if (port < 1 || port > 255 || pkeyIndex < 0 || pkeyIndex > 0xffff)
        {
            throw new IllegalArgumentException("ibv_modify_qp(INIT): port " + port + " (1-255) or P_Key index " + pkeyIndex
                + " (0-65535) out of range");
        }
        if ((accessFlags & ~QP_ACCESS_FLAGS) != 0)
        {
            throw new IllegalArgumentException("ibv_modify_qp(INIT): access flags 0x" + Integer.toHexString(accessFlags)
                + " has bits outside IBV_ACCESS_LOCAL_WRITE|REMOTE_WRITE|REMOTE_READ|REMOTE_ATOMIC (0xf)");
        }
        transition(FROM_RESET, QpState.INIT, INIT_MASK, () -> "port " + port + ", pkey_index " + pkeyIndex
            + ", qp_access_flags 0x" + Integer.toHexString(accessFlags), attr -> writeInitAttributes(attr, port, pkeyIndex, accessFlags));
        return this;
    }

    /**
     * INIT -> INIT: the port, P_Key index and access flags set again, as librdmacm's {@code ucma_modify_qp_rtr}
     * sets them from the kernel's {@code rdma_init_qp_attr} right before RTR (the route may have changed them
     * since the QP was made).
     */
    public RcQueuePair initAgain(final int port, final int pkeyIndex, final int accessFlags)
    {
        if (port < 1 || port > 255 || pkeyIndex < 0 || pkeyIndex > 0xffff || (accessFlags & ~QP_ACCESS_FLAGS) != 0)
        {
            throw new IllegalArgumentException("ibv_modify_qp(INIT again): port " + port + " (1-255), P_Key index " + pkeyIndex
                + " (0-65535) or access flags 0x" + Integer.toHexString(accessFlags) + " (0xf at most) out of range");
        }
        transition(FROM_INIT, QpState.INIT, INIT_MASK, () -> "port " + port + ", pkey_index " + pkeyIndex
            + ", qp_access_flags 0x" + Integer.toHexString(accessFlags), attr -> writeInitAttributes(attr, port, pkeyIndex, accessFlags));
        return this;
    }

    /** INIT -> RTR: the path to the peer and what the peer's REQ or REP said. */
    public RcQueuePair readyToReceive(final RcReceiveParameters parameters)
    {
        transition(FROM_INIT, QpState.RTR, RTR_MASK, parameters::toString, attr -> writeRtrAttributes(attr, parameters));
        return this;
    }

    /** RTR -> RTS: this side's PSN, its ACK timeout and retry counts, its initiator depth. */
    public RcQueuePair readyToSend(final RcSendParameters parameters)
    {
        transition(FROM_RTR, QpState.RTS, RTS_MASK, parameters::toString, attr -> writeRtsAttributes(attr, parameters));
        return this;
    }

    /** Any state -> ERR: outstanding and later work requests complete with {@code IBV_WC_WR_FLUSH_ERR}. */
    public RcQueuePair error()
    {
        transition(ANY, QpState.ERR, 0, NO_VALUES, NOTHING_TO_FILL);
        return this;
    }

    /**
     * Any state but RESET -> ERR, unless the QP is closed: for a CM thread ending a connection whose
     * application may destroy the QP at any moment (as rping and cmtime do right after rdma_disconnect),
     * so the check and the move are one step against {@link #close}.
     *
     * @return whether the QP was moved.
     */
    public synchronized boolean errorIfOpen()
    {
        if (isClosed() || state == QpState.RESET)
        {
            return false;
        }
        error();
        return true;
    }

    /** Any state -> RESET: the queues are emptied without completions, and INIT can follow again. */
    public RcQueuePair reset()
    {
        transition(ANY, QpState.RESET, 0, NO_VALUES, NOTHING_TO_FILL);
        return this;
    }

    /** {@code ibv_query_qp} of every attribute an RC QP's transitions set. */
    public RcQueuePairAttributes query()
    {
        requireOpen("ibv_query_qp");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IBV_QP_ATTR);
            final MemorySegment init = arena.allocate(IBV_QP_INIT_ATTR);
            LibIbverbs.check("ibv_query_qp", toString() + " attr_mask " + QpAttributeMask.describe(QUERY_MASK),
                errno -> (int)LibIbverbs.QueuePairs.QUERY_QP.invokeExact(errno, qp, attr, QUERY_MASK, init));
            return readAttributes(attr);
        }
    }

    /** {@code ibv_post_send} of a SEND of {@code data}. */
    public void postSend(final long wrId, final ScatterGatherList data, final boolean signaled)
    {
        post(wrId, IBV_WR_SEND, data, signaled, 0, 0, 0, "SEND");
    }

    /** {@code ibv_post_send} of a SEND with 32 bits of immediate data, which the receiver's completion carries. */
    public void postSendWithImmediate(final long wrId, final ScatterGatherList data, final int immediate, final boolean signaled)
    {
        post(wrId, IBV_WR_SEND_WITH_IMM, data, signaled, immediate, 0, 0, "SEND_WITH_IMM");
    }

    /** {@code ibv_post_send} of an RDMA WRITE of {@code data} to {@code remoteAddress} under {@code rkey}. */
    public void postRdmaWrite(final long wrId, final ScatterGatherList data, final long remoteAddress, final long rkey,
        final boolean signaled)
    {
        post(wrId, IBV_WR_RDMA_WRITE, data, signaled, 0, remoteAddress, rkey, "RDMA_WRITE");
    }

    /**
     * {@code ibv_post_send} of an RDMA WRITE with immediate data: it consumes one of the receiver's
     * posted receives, whose completion carries the immediate ({@code IBV_WC_RECV_RDMA_WITH_IMM}).
     */
    public void postRdmaWriteWithImmediate(final long wrId, final ScatterGatherList data, final long remoteAddress, final long rkey,
        final int immediate, final boolean signaled)
    {
        post(wrId, IBV_WR_RDMA_WRITE_WITH_IMM, data, signaled, immediate, remoteAddress, rkey, "RDMA_WRITE_WITH_IMM");
    }

    /** {@code ibv_post_send} of an RDMA READ from {@code remoteAddress} under {@code rkey} into {@code into}. */
    public void postRdmaRead(final long wrId, final ScatterGatherList into, final long remoteAddress, final long rkey,
        final boolean signaled)
    {
        post(wrId, IBV_WR_RDMA_READ, into, signaled, 0, remoteAddress, rkey, "RDMA_READ");
    }

    /** {@code ibv_post_recv} of {@code into}, which a SEND (or WRITE with immediate) from the peer consumes. */
    public void postReceive(final long wrId, final ScatterGatherList into)
    {
        requireOpen("ibv_post_recv");
        if (state == QpState.RESET)
        {
            throw new IllegalStateException("ibv_post_recv: " + this + " is in RESET; receiving needs INIT or later");
        }
        if (into.count() > capabilities.maxRecvSge())
        {
            throw new IllegalArgumentException("ibv_post_recv: " + into + " has more entries than max_recv_sge "
                + capabilities.maxRecvSge() + " of " + this);
        }
        workRequests.fillRecv(wrId, into);
        workRequests.postRecv();
    }

    /** Whether a send of {@code length} bytes goes inline (copied by the provider at post time). */
    boolean sendsInline(final int opcode, final long length)
    {
        return opcode != IBV_WR_RDMA_READ && length <= capabilities.maxInlineData();
    }

    private void post(final long wrId, final int opcode, final ScatterGatherList data, final boolean signaled, final int immediate,
        final long remoteAddress, final long rkey, final String what)
    {
        requireOpen("ibv_post_send");
        if (!SENDING.contains(state))
        {
            throw new IllegalStateException("ibv_post_send(" + what + "): " + this + " is in " + state + "; sending needs RTS");
        }
        if (data.count() > capabilities.maxSendSge())
        {
            throw new IllegalArgumentException("ibv_post_send(" + what + "): " + data + " has more entries than max_send_sge "
                + capabilities.maxSendSge() + " of " + this);
        }
        if (rkey < 0 || rkey > 0xffff_ffffL)
        {
            throw new IllegalArgumentException("ibv_post_send(" + what + "): rkey " + rkey + " is not a 32-bit value");
        }
        workRequests.fillSend(wrId, opcode, data, signaled, sendsInline(opcode, data.totalLength()), immediate, remoteAddress,
            (int)rkey);
        workRequests.postSend();
    }

    /**
     * The one place a state change happens: {@code ibv_modify_qp} to {@code to} from one of
     * {@code from}, with {@code IBV_QP_STATE | mask}; a refusal names both states, the mask and
     * {@code values}, whose text is made only then.
     */
    private synchronized void transition(final Set<QpState> from, final QpState to, final int mask, final Supplier<String> values,
        final Consumer<MemorySegment> fill)
    {
        requireOpen("ibv_modify_qp");
        if (!from.contains(state))
        {
            throw new IllegalStateException("ibv_modify_qp(" + to + "): " + this + " is in " + state + ", not " + from);
        }
        final QpState before = state;
        final int attrMask = IBV_QP_STATE | mask;
        final MemorySegment attr = moveAttributes.fill((byte)0);
        attr.set(JAVA_INT, ATTR_QP_STATE_OFFSET, to.value());
        fill.accept(attr);
        final int errno = LibIbverbs.status("ibv_modify_qp", errnoState -> (int)LibIbverbs.QueuePairs.MODIFY_QP.invokeExact(errnoState, qp, attr, attrMask));
        if (errno != 0)
        {
            final String given = values.get();
            throw new VerbsException("ibv_modify_qp", errno, this + " " + before + " -> " + to + ", attr_mask " +
                QpAttributeMask.describe(attrMask) + (given.isEmpty() ? "" : ": " + given));
        }
        state = to;
        listener.onTransition(this, before, to, attrMask);
    }

    /** Fills a zeroed {@code struct ibv_qp_init_attr} for an RC QP. */
    static void writeCreateAttributes(final MemorySegment init, final MemorySegment sendCq, final MemorySegment recvCq,
        final QueuePairCapabilities capabilities)
    {
        // the same members as a UD QP's, sq_sig_all 0 too: only signalled sends complete
        UdQueuePair.writeCreateAttributes(init, sendCq, recvCq, capabilities);
        init.set(JAVA_INT, INIT_QP_TYPE_OFFSET, IBV_QPT_RC);
    }

    static void writeInitAttributes(final MemorySegment attr, final int port, final int pkeyIndex, final int accessFlags)
    {
        attr.set(JAVA_SHORT, ATTR_PKEY_INDEX_OFFSET, (short)pkeyIndex);
        attr.set(JAVA_BYTE, ATTR_PORT_NUM_OFFSET, (byte)port);
        attr.set(JAVA_INT, ATTR_QP_ACCESS_FLAGS_OFFSET, accessFlags);
    }

    static void writeRtrAttributes(final MemorySegment attr, final RcReceiveParameters parameters)
    {
        AddressHandle.write(parameters.primaryPath(), attr.asSlice(ATTR_AH_ATTR_OFFSET, IbvLayouts.IBV_AH_ATTR.byteSize()));
        attr.set(JAVA_INT, ATTR_PATH_MTU_OFFSET, parameters.pathMtu().code());
        attr.set(JAVA_INT, ATTR_DEST_QP_NUM_OFFSET, parameters.remoteQpn());
        attr.set(JAVA_INT, ATTR_RQ_PSN_OFFSET, parameters.rqPsn());
        attr.set(JAVA_BYTE, ATTR_MAX_DEST_RD_ATOMIC_OFFSET, (byte)parameters.responderResources());
        attr.set(JAVA_BYTE, ATTR_MIN_RNR_TIMER_OFFSET, (byte)parameters.minRnrTimer());
    }

    static void writeRtsAttributes(final MemorySegment attr, final RcSendParameters parameters)
    {
        attr.set(JAVA_INT, ATTR_SQ_PSN_OFFSET, parameters.sqPsn());
        attr.set(JAVA_BYTE, ATTR_TIMEOUT_OFFSET, (byte)parameters.localAckTimeout());
        attr.set(JAVA_BYTE, ATTR_RETRY_CNT_OFFSET, (byte)parameters.retryCount());
        attr.set(JAVA_BYTE, ATTR_RNR_RETRY_OFFSET, (byte)parameters.rnrRetryCount());
        attr.set(JAVA_BYTE, ATTR_MAX_RD_ATOMIC_OFFSET, (byte)parameters.initiatorDepth());
    }

    /** Decodes the members of a {@code struct ibv_qp_attr} that {@link #QUERY_MASK} asks for. */
    static RcQueuePairAttributes readAttributes(final MemorySegment attr)
    {
        final int mtu = attr.get(JAVA_INT, ATTR_PATH_MTU_OFFSET);
        return new RcQueuePairAttributes(
            QpState.ofValue(attr.get(JAVA_INT, ATTR_QP_STATE_OFFSET)),
            attr.get(JAVA_INT, ATTR_QP_ACCESS_FLAGS_OFFSET),
            Short.toUnsignedInt(attr.get(JAVA_SHORT, ATTR_PKEY_INDEX_OFFSET)),
            u8(attr, ATTR_PORT_NUM_OFFSET),
            AddressHandle.read(attr.asSlice(ATTR_AH_ATTR_OFFSET, IbvLayouts.IBV_AH_ATTR.byteSize())),
            MtuCode.isValid(mtu) ? Optional.of(MtuCode.fromCode(mtu)) : Optional.empty(),
            attr.get(JAVA_INT, ATTR_DEST_QP_NUM_OFFSET) & 0xff_ffff,
            attr.get(JAVA_INT, ATTR_RQ_PSN_OFFSET) & 0xff_ffff,
            attr.get(JAVA_INT, ATTR_SQ_PSN_OFFSET) & 0xff_ffff,
            u8(attr, ATTR_MAX_DEST_RD_ATOMIC_OFFSET),
            u8(attr, ATTR_MAX_RD_ATOMIC_OFFSET),
            u8(attr, ATTR_MIN_RNR_TIMER_OFFSET),
            u8(attr, ATTR_TIMEOUT_OFFSET),
            u8(attr, ATTR_RETRY_CNT_OFFSET),
            u8(attr, ATTR_RNR_RETRY_OFFSET),
            readCapabilities(attr, ATTR_CAP_OFFSET));
    }

    private static QueuePairCapabilities readCapabilities(final MemorySegment struct, final long capOffset)
    {
        return new QueuePairCapabilities(
            struct.get(JAVA_INT, capOffset + CAP_MAX_SEND_WR_OFFSET),
            struct.get(JAVA_INT, capOffset + CAP_MAX_RECV_WR_OFFSET),
            struct.get(JAVA_INT, capOffset + CAP_MAX_SEND_SGE_OFFSET),
            struct.get(JAVA_INT, capOffset + CAP_MAX_RECV_SGE_OFFSET),
            struct.get(JAVA_INT, capOffset + CAP_MAX_INLINE_DATA_OFFSET));
    }

    private static int u8(final MemorySegment attr, final long offset)
    {
        return Byte.toUnsignedInt(attr.get(JAVA_BYTE, offset));
    }

    RcWorkRequests workRequests()
    {
        return workRequests;
    }

    @Override
    public String toString()
    {
        return "RC QP " + qpNumber() + " on " + deviceName() + (isClosed() ? " (closed)" : "");
    }

    @Override
    void destroy()
    {
        LibIbverbs.check("ibv_destroy_qp", this::toString, errno -> (int)LibIbverbs.QueuePairs.DESTROY_QP.invokeExact(errno, qp));
        workRequests.close();
    }
}
