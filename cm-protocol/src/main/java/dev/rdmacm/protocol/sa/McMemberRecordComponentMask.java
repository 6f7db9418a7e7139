package dev.rdmacm.protocol.sa;

/**
 * The MCMemberRecord component-mask bits (IBA 15.2.5.17; {@code IB_MCR_COMPMASK_*} in OpenSM's
 * {@code ib_types.h}, {@code IB_SA_MCMEMBER_REC_*} in the kernel's {@code ib_sa.h}): bit n selects the
 * n-th field of the record, and the two masks the kernel's multicast layer sends.
 */
public final class McMemberRecordComponentMask
{
    public static final long MGID = 1L << 0;
    public static final long PORT_GID = 1L << 1;
    public static final long QKEY = 1L << 2;
    public static final long MLID = 1L << 3;
    public static final long MTU_SELECTOR = 1L << 4;
    public static final long MTU = 1L << 5;
    public static final long TRAFFIC_CLASS = 1L << 6;
    public static final long PKEY = 1L << 7;
    public static final long RATE_SELECTOR = 1L << 8;
    public static final long RATE = 1L << 9;
    public static final long PACKET_LIFE_TIME_SELECTOR = 1L << 10;
    public static final long PACKET_LIFE_TIME = 1L << 11;
    public static final long SL = 1L << 12;
    public static final long FLOW_LABEL = 1L << 13;
    public static final long HOP_LIMIT = 1L << 14;
    public static final long SCOPE = 1L << 15;
    public static final long JOIN_STATE = 1L << 16;
    public static final long PROXY_JOIN = 1L << 17;

    /**
     * {@code cma_join_ib_multicast}'s join for RDMA_PS_UDP and RDMA_PS_IB (0x130C7): MGID, PortGID, Q_Key,
     * TClass, P_Key, SL, FlowLabel and JoinState, just what OpenSM needs to create a group.
     */
    public static final long KERNEL_JOIN = MGID | PORT_GID | QKEY | TRAFFIC_CLASS | PKEY | SL | FLOW_LABEL | JOIN_STATE;
    /** The same for RDMA_PS_IPOIB (0x173F7): also the broadcast group's MTU, rate and hop limit, selector "exactly". */
    public static final long KERNEL_JOIN_IPOIB = KERNEL_JOIN | MTU_SELECTOR | MTU | RATE_SELECTOR | RATE | HOP_LIMIT;
    /** {@code multicast.c}'s {@code send_leave} (0x10003): MGID, PortGID and the JoinState bits to drop. */
    public static final long KERNEL_LEAVE = MGID | PORT_GID | JOIN_STATE;

    private McMemberRecordComponentMask()
    {
    }
}
