package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.function.Consumer;

import static dev.rdmacm.verbs.IbvConstants.IBV_QPT_UD;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_PKEY_INDEX;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_PORT;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_QKEY;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_SQ_PSN;
import static dev.rdmacm.verbs.IbvConstants.IBV_QP_STATE;
import static dev.rdmacm.verbs.IbvLayouts.IBV_QP;
import static dev.rdmacm.verbs.IbvLayouts.IBV_QP_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.IBV_QP_CAP;
import static dev.rdmacm.verbs.IbvLayouts.IBV_QP_INIT_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * An unreliable-datagram QP ({@code ibv_create_qp} with {@code IBV_QPT_UD}), the kind that carries
 * MADs to the SA. It moves RESET -> INIT (port, P_Key index, Q_Key) -> RTR -> RTS, every move through
 * {@link #transition}, and posts one send or receive at a time from work requests it allocated
 * once, so posting allocates nothing. Not thread-safe.
 */
public final class UdQueuePair extends NativeResource
{
    static final long QP_NUM_OFFSET = offset(IBV_QP, "qp_num");

    static final long INIT_SEND_CQ_OFFSET = offset(IBV_QP_INIT_ATTR, "send_cq");
    static final long INIT_RECV_CQ_OFFSET = offset(IBV_QP_INIT_ATTR, "recv_cq");
    static final long INIT_CAP_OFFSET = offset(IBV_QP_INIT_ATTR, "cap");
    static final long INIT_QP_TYPE_OFFSET = offset(IBV_QP_INIT_ATTR, "qp_type");
    static final long INIT_SQ_SIG_ALL_OFFSET = offset(IBV_QP_INIT_ATTR, "sq_sig_all");
    static final long CAP_MAX_SEND_WR_OFFSET = offset(IBV_QP_CAP, "max_send_wr");
    static final long CAP_MAX_RECV_WR_OFFSET = offset(IBV_QP_CAP, "max_recv_wr");
    static final long CAP_MAX_SEND_SGE_OFFSET = offset(IBV_QP_CAP, "max_send_sge");
    static final long CAP_MAX_RECV_SGE_OFFSET = offset(IBV_QP_CAP, "max_recv_sge");
    static final long CAP_MAX_INLINE_DATA_OFFSET = offset(IBV_QP_CAP, "max_inline_data");

    static final long ATTR_QP_STATE_OFFSET = offset(IBV_QP_ATTR, "qp_state");
    static final long ATTR_QKEY_OFFSET = offset(IBV_QP_ATTR, "qkey");
    static final long ATTR_SQ_PSN_OFFSET = offset(IBV_QP_ATTR, "sq_psn");
    static final long ATTR_PKEY_INDEX_OFFSET = offset(IBV_QP_ATTR, "pkey_index");
    static final long ATTR_PORT_NUM_OFFSET = offset(IBV_QP_ATTR, "port_num");
    /** What {@link #query()} asks for. */
    static final int QUERY_MASK = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY | IBV_QP_SQ_PSN;

    private final MemorySegment qp;
    private final int qpNumber;
    private final UdWorkRequests workRequests;
    private QpState state = QpState.RESET;

    UdQueuePair(final ProtectionDomain pd, final CompletionQueue sendCq, final CompletionQueue recvCq,
        final QueuePairCapabilities capabilities)
    {
        super(pd.context().registry(), "UD QP on " + pd.context().deviceName());
        sendCq.requireOpen("ibv_create_qp");
        recvCq.requireOpen("ibv_create_qp");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment init = arena.allocate(IBV_QP_INIT_ATTR);
            writeCreateAttributes(init, sendCq.segment(), recvCq.segment(), capabilities);
            qp = LibIbverbs.create("ibv_create_qp", () -> this + " " + capabilities,
                errno -> (MemorySegment)LibIbverbs.QueuePairs.CREATE_QP.invokeExact(errno, pd.segment(), init))
                .reinterpret(IBV_QP.byteSize());
        }
        qpNumber = qp.get(JAVA_INT, QP_NUM_OFFSET);
        try
        {
            workRequests = new UdWorkRequests(pd.context().ops(), qp);
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

    /** {@code ibv_query_qp}: the state, Q_Key, P_Key index, port and send PSN as the kernel has them. */
    public QueuePairAttributes query()
    {
        requireOpen("ibv_query_qp");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IBV_QP_ATTR);
            // the provider writes the creation attributes too, so the struct must be there even if unread
            final MemorySegment init = arena.allocate(IBV_QP_INIT_ATTR);
            LibIbverbs.check("ibv_query_qp", this::toString,
                errno -> (int)LibIbverbs.QueuePairs.QUERY_QP.invokeExact(errno, qp, attr, QUERY_MASK, init));
            return readAttributes(attr);
        }
    }

    /**
     * RESET -> INIT on {@code port} with {@code pkeyIndex} and {@code qkey}.
     *
     * @throws VerbsException from ibv_modify_qp; for a privileged Q_Key such as {@link dev.rdmacm.protocol.mad.Gsi#QKEY}
     *                        refused with EPERM, the message names CAP_NET_RAW and
     *                        {@code rdma system set privileged-qkey on}.
     */
    public UdQueuePair init(final int port, final int pkeyIndex, final long qkey)
    {
        if (port < 1 || port > 255 || pkeyIndex < 0 || pkeyIndex > 0xffff)
        {
            throw new IllegalArgumentException("ibv_modify_qp(INIT): port " + port + " (1-255) or P_Key index "
                + pkeyIndex + " (0-65535) out of range");
        }
        Qkey.requireValid(qkey);
        try
        {
            transition(QpState.RESET, QpState.INIT, IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY,
                attr -> writeInitAttributes(attr, port, pkeyIndex, qkey));
        }
        catch (final VerbsException ex)
        {
            throw Qkey.modifyFailure(ex, qkey);
        }
        return this;
    }

    /** INIT -> RTR (a UD QP needs nothing else to receive). */
    public UdQueuePair readyToReceive()
    {
        transition(QpState.INIT, QpState.RTR, 0, attr ->
        {
        });
        return this;
    }

    /** RTR -> RTS with the send queue's first packet sequence number. */
    public UdQueuePair readyToSend(final int sqPsn)
    {
        transition(QpState.RTR, QpState.RTS, IBV_QP_SQ_PSN, attr -> writeRtsAttributes(attr, sqPsn));
        return this;
    }

    /** RESET -> INIT -> RTR -> RTS. */
    public UdQueuePair activate(final int port, final int pkeyIndex, final long qkey)
    {
        return init(port, pkeyIndex, qkey).readyToReceive().readyToSend(0);
    }

    /**
     * {@code ibv_post_send} of one datagram: {@code length} bytes at {@code offset} in {@code region}
     * to QP {@code remoteQpn} behind {@code destination}, with {@code remoteQkey}. IBA lets a Q_Key
     * with bit 31 set stand for the sending QP's own, but rxe (Linux 6.1) sends it as given, so the
     * receiver drops it as a Q_Key violation: name the receiver's Q_Key itself. A datagram longer
     * than the path MTU is posted and completes, and the receiver never sees it.
     */
    public void postSend(final long wrId, final MemoryRegion region, final long offset, final int length,
        final AddressHandle destination, final int remoteQpn, final long remoteQkey, final boolean signaled)
    {
        requireOpen("ibv_post_send");
        if (state != QpState.RTS)
        {
            throw new IllegalStateException("ibv_post_send: " + this + " is in " + state + "; sending needs RTS");
        }
        destination.requireOpen("ibv_post_send");
        workRequests.postSend(wrId, slice(region, offset, length, "ibv_post_send"), region.rawLkey(),
            destination.segment(), remoteQpn, (int)remoteQkey, signaled);
    }

    /**
     * {@code IBV_WR_SEND_WITH_IMM}: {@link #postSend} with 32 bits of immediate data, given in host
     * order and sent big-endian, as a caller's {@code htobe32} would (udaddy sends its QP number so).
     */
    public void postSendWithImmediate(final long wrId, final MemoryRegion region, final long offset, final int length,
        final AddressHandle destination, final int remoteQpn, final long remoteQkey, final boolean signaled, final int immediate)
    {
        requireOpen("ibv_post_send");
        if (state != QpState.RTS)
        {
            throw new IllegalStateException("ibv_post_send: " + this + " is in " + state + "; sending needs RTS");
        }
        destination.requireOpen("ibv_post_send");
        workRequests.postSendWithImmediate(wrId, slice(region, offset, length, "ibv_post_send"), region.rawLkey(),
            destination.segment(), remoteQpn, (int)remoteQkey, signaled, immediate);
    }

    /**
     * {@code ibv_post_recv} of one buffer: {@code length} bytes at {@code offset} in {@code region},
     * which receive a 40-byte GRH area followed by the datagram.
     */
    public void postReceive(final long wrId, final MemoryRegion region, final long offset, final int length)
    {
        requireOpen("ibv_post_recv");
        if (state == QpState.RESET)
        {
            throw new IllegalStateException("ibv_post_recv: " + this + " is in RESET; receiving needs INIT or later");
        }
        workRequests.postRecv(wrId, slice(region, offset, length, "ibv_post_recv"), region.rawLkey());
    }

    /**
     * {@code ibv_attach_mcast}: datagrams to the multicast group {@code mgid} (on InfiniBand through the
     * group's {@code mlid}; RoCE ignores the LID) reach this QP from now on. Attaching the same pair twice
     * is no error (the kernel counts it once).
     *
     * @throws VerbsException EINVAL when the GID is not multicast (ff..., or ::ffff: and an IPv4 multicast
     *                        address), the LID is not a multicast LID on InfiniBand, or the QP is not UD;
     *                        EOPNOTSUPP when the device has no multicast.
     */
    public void attachMulticast(final Gid mgid, final int mlid)
    {
        multicast("ibv_attach_mcast", LibIbverbs.QueuePairs.ATTACH_MCAST, mgid, mlid);
    }

    /**
     * {@code ibv_detach_mcast}: undoes {@link #attachMulticast}; destroying the QP detaches everything.
     *
     * @throws VerbsException EINVAL for a pair that was never attached.
     */
    public void detachMulticast(final Gid mgid, final int mlid)
    {
        multicast("ibv_detach_mcast", LibIbverbs.QueuePairs.DETACH_MCAST, mgid, mlid);
    }

    private void multicast(final String call, final MethodHandle handle, final Gid mgid, final int mlid)
    {
        requireOpen(call);
        if (mlid < 0 || mlid > 0xffff)
        {
            throw new IllegalArgumentException(call + ": LID 0x" + Integer.toHexString(mlid) + " is not 16 bits");
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment gid = arena.allocate(Gid.LENGTH);
            gid.copyFrom(MemorySegment.ofArray(mgid.toBytes()));
            LibIbverbs.check(call, this + " group " + mgid + " LID 0x" + Integer.toHexString(mlid),
                errno -> (int)handle.invokeExact(errno, qp, gid, (short)mlid));
        }
    }

    /** The one place a state change happens: {@code ibv_modify_qp} from {@code from} to {@code to}. */
    private void transition(final QpState from, final QpState to, final int mask, final Consumer<MemorySegment> fill)
    {
        requireOpen("ibv_modify_qp");
        if (state != from)
        {
            throw new IllegalStateException("ibv_modify_qp(" + to + "): " + this + " is in " + state + ", not " + from);
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IBV_QP_ATTR);
            attr.set(JAVA_INT, ATTR_QP_STATE_OFFSET, to.value());
            fill.accept(attr);
            LibIbverbs.check("ibv_modify_qp", this + " " + from + " -> " + to,
                errno -> (int)LibIbverbs.QueuePairs.MODIFY_QP.invokeExact(errno, qp, attr, IBV_QP_STATE | mask));
        }
        state = to;
    }

    /** Fills a zeroed {@code struct ibv_qp_init_attr} for a UD QP. */
    static void writeCreateAttributes(final MemorySegment init, final MemorySegment sendCq, final MemorySegment recvCq,
        final QueuePairCapabilities capabilities)
    {
        init.set(ADDRESS, INIT_SEND_CQ_OFFSET, sendCq);
        init.set(ADDRESS, INIT_RECV_CQ_OFFSET, recvCq);
        init.set(JAVA_INT, INIT_CAP_OFFSET + CAP_MAX_SEND_WR_OFFSET, capabilities.maxSendWr());
        init.set(JAVA_INT, INIT_CAP_OFFSET + CAP_MAX_RECV_WR_OFFSET, capabilities.maxRecvWr());
        init.set(JAVA_INT, INIT_CAP_OFFSET + CAP_MAX_SEND_SGE_OFFSET, capabilities.maxSendSge());
        init.set(JAVA_INT, INIT_CAP_OFFSET + CAP_MAX_RECV_SGE_OFFSET, capabilities.maxRecvSge());
        init.set(JAVA_INT, INIT_CAP_OFFSET + CAP_MAX_INLINE_DATA_OFFSET, capabilities.maxInlineData());
        init.set(JAVA_INT, INIT_QP_TYPE_OFFSET, IBV_QPT_UD);
        init.set(JAVA_INT, INIT_SQ_SIG_ALL_OFFSET, 0);
    }

    /** The INIT fields of a {@code struct ibv_qp_attr} (qp_state is set by {@link #transition}). */
    static void writeInitAttributes(final MemorySegment attr, final int port, final int pkeyIndex, final long qkey)
    {
        attr.set(JAVA_SHORT, ATTR_PKEY_INDEX_OFFSET, (short)pkeyIndex);
        attr.set(JAVA_BYTE, ATTR_PORT_NUM_OFFSET, (byte)port);
        attr.set(JAVA_INT, ATTR_QKEY_OFFSET, (int)qkey);
    }

    /** The RTS fields of a {@code struct ibv_qp_attr}: the 24-bit send PSN. */
    static void writeRtsAttributes(final MemorySegment attr, final int sqPsn)
    {
        attr.set(JAVA_INT, ATTR_SQ_PSN_OFFSET, sqPsn & 0xff_ffff);
    }

    /** Decodes the fields of a {@code struct ibv_qp_attr} that {@link #QUERY_MASK} asks for. */
    static QueuePairAttributes readAttributes(final MemorySegment attr)
    {
        return new QueuePairAttributes(
            QpState.ofValue(attr.get(JAVA_INT, ATTR_QP_STATE_OFFSET)),
            Integer.toUnsignedLong(attr.get(JAVA_INT, ATTR_QKEY_OFFSET)),
            Short.toUnsignedInt(attr.get(JAVA_SHORT, ATTR_PKEY_INDEX_OFFSET)),
            Byte.toUnsignedInt(attr.get(JAVA_BYTE, ATTR_PORT_NUM_OFFSET)),
            attr.get(JAVA_INT, ATTR_SQ_PSN_OFFSET) & 0xff_ffff);
    }

    private static MemorySegment slice(final MemoryRegion region, final long offset, final int length, final String call)
    {
        region.requireOpen(call);
        if (offset < 0 || length < 0 || offset + length > region.memory().byteSize())
        {
            throw new IndexOutOfBoundsException(call + ": " + length + " bytes at offset " + offset + " do not fit in "
                + region);
        }
        return region.memory().asSlice(offset, length);
    }

    @Override
    public String toString()
    {
        return "UD QP " + qpNumber() + " on " + deviceName() + (isClosed() ? " (closed)" : "");
    }

    @Override
    void destroy()
    {
        LibIbverbs.check("ibv_destroy_qp", this::toString, errno -> (int)LibIbverbs.QueuePairs.DESTROY_QP.invokeExact(errno, qp));
        workRequests.close();
    }
}
