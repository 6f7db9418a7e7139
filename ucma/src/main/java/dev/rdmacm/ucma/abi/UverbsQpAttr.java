package dev.rdmacm.ucma.abi;

import org.agrona.DirectBuffer;

/**
 * Flyweight over {@code struct ib_uverbs_qp_attr} ({@code rdma/ib_user_verbs.h}), INIT_QP_ATTR's
 * answer: the attributes that move the id's QP to the asked state ({@code rdma_init_qp_attr}), with
 * {@code qp_attr_mask} naming those that count ({@code IB_QP_*}, equal to {@code IBV_QP_*}). Host byte
 * order throughout; read-only (the kernel writes it).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                         qp_attr_mask                          |  0
 *  |                           qp_state                            |  4
 *  |                         cur_qp_state                          |  8
 *  |                           path_mtu                            | 12
 *  |                        path_mig_state                         | 16
 *  |                             qkey                              | 20
 *  |                            rq_psn                             | 24
 *  |                            sq_psn                             | 28
 *  |                          dest_qp_num                          | 32
 *  |                        qp_access_flags                        | 36
 *  +---------------------------------------------------------------+
 *  |                ah_attr (32 bytes: ib_uverbs_ah_attr)          | 40
 *  |              alt_ah_attr (32 bytes: ib_uverbs_ah_attr)        | 72
 *  +---------------------------------------------------------------+
 *  |          max_send_wr, max_recv_wr, max_send_sge,              | 104
 *  |          max_recv_sge, max_inline_data (ib_qp_cap)            |
 *  +-------------------------------+-------------------------------+
 *  |           pkey_index          |         alt_pkey_index        | 124
 *  +---------------+---------------+---------------+---------------+
 *  |en_sqd_async_n.|  sq_draining  | max_rd_atomic |max_dest_rd_at.| 128
 *  +---------------+---------------+---------------+---------------+
 *  | min_rnr_timer |   port_num    |    timeout    |   retry_cnt   | 132
 *  +---------------+---------------+---------------+---------------+
 *  |   rnr_retry   | alt_port_num  |  alt_timeout  |  reserved[5]  | 136
 *  +---------------+---------------+---------------+               +
 *  |                           reserved                            | 140
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UverbsQpAttr extends UcmaStruct<UverbsQpAttr>
{
    public static final int QP_ATTR_MASK_OFFSET = 0;
    public static final int QP_STATE_OFFSET = 4;
    public static final int CUR_QP_STATE_OFFSET = 8;
    public static final int PATH_MTU_OFFSET = 12;
    public static final int PATH_MIG_STATE_OFFSET = 16;
    public static final int QKEY_OFFSET = 20;
    public static final int RQ_PSN_OFFSET = 24;
    public static final int SQ_PSN_OFFSET = 28;
    public static final int DEST_QP_NUM_OFFSET = 32;
    public static final int QP_ACCESS_FLAGS_OFFSET = 36;
    public static final int AH_ATTR_OFFSET = 40;
    public static final int ALT_AH_ATTR_OFFSET = AH_ATTR_OFFSET + UverbsAhAttr.LENGTH;
    public static final int MAX_SEND_WR_OFFSET = 104;
    public static final int MAX_RECV_WR_OFFSET = 108;
    public static final int MAX_SEND_SGE_OFFSET = 112;
    public static final int MAX_RECV_SGE_OFFSET = 116;
    public static final int MAX_INLINE_DATA_OFFSET = 120;
    public static final int PKEY_INDEX_OFFSET = 124;
    public static final int ALT_PKEY_INDEX_OFFSET = 126;
    public static final int EN_SQD_ASYNC_NOTIFY_OFFSET = 128;
    public static final int SQ_DRAINING_OFFSET = 129;
    public static final int MAX_RD_ATOMIC_OFFSET = 130;
    public static final int MAX_DEST_RD_ATOMIC_OFFSET = 131;
    public static final int MIN_RNR_TIMER_OFFSET = 132;
    public static final int PORT_NUM_OFFSET = 133;
    public static final int TIMEOUT_OFFSET = 134;
    public static final int RETRY_CNT_OFFSET = 135;
    public static final int RNR_RETRY_OFFSET = 136;
    public static final int ALT_PORT_NUM_OFFSET = 137;
    public static final int ALT_TIMEOUT_OFFSET = 138;
    public static final int RESERVED_OFFSET = 139;
    public static final int RESERVED_LENGTH = 5;
    public static final int LENGTH = 144;

    private final UverbsAhAttr ahAttr = new UverbsAhAttr();
    private final UverbsAhAttr altAhAttr = new UverbsAhAttr();

    public UverbsQpAttr()
    {
        super("ib_uverbs_qp_attr", LENGTH);
    }

    @Override
    protected void wrapped(final DirectBuffer buffer, final int offset)
    {
        ahAttr.wrap(buffer, offset + AH_ATTR_OFFSET, UverbsAhAttr.LENGTH);
        altAhAttr.wrap(buffer, offset + ALT_AH_ATTR_OFFSET, UverbsAhAttr.LENGTH);
    }

    public UverbsAhAttr ahAttr()
    {
        return ahAttr;
    }

    public UverbsAhAttr altAhAttr()
    {
        return altAhAttr;
    }

    public long qpAttrMask()
    {
        return hostU32(QP_ATTR_MASK_OFFSET);
    }

    public long qpState()
    {
        return hostU32(QP_STATE_OFFSET);
    }

    public long curQpState()
    {
        return hostU32(CUR_QP_STATE_OFFSET);
    }

    public long pathMtu()
    {
        return hostU32(PATH_MTU_OFFSET);
    }

    public long pathMigState()
    {
        return hostU32(PATH_MIG_STATE_OFFSET);
    }

    public long qkey()
    {
        return hostU32(QKEY_OFFSET);
    }

    public long rqPsn()
    {
        return hostU32(RQ_PSN_OFFSET);
    }

    public long sqPsn()
    {
        return hostU32(SQ_PSN_OFFSET);
    }

    public long destQpNum()
    {
        return hostU32(DEST_QP_NUM_OFFSET);
    }

    public long qpAccessFlags()
    {
        return hostU32(QP_ACCESS_FLAGS_OFFSET);
    }

    public long maxSendWr()
    {
        return hostU32(MAX_SEND_WR_OFFSET);
    }

    public long maxRecvWr()
    {
        return hostU32(MAX_RECV_WR_OFFSET);
    }

    public long maxSendSge()
    {
        return hostU32(MAX_SEND_SGE_OFFSET);
    }

    public long maxRecvSge()
    {
        return hostU32(MAX_RECV_SGE_OFFSET);
    }

    public long maxInlineData()
    {
        return hostU32(MAX_INLINE_DATA_OFFSET);
    }

    public int pkeyIndex()
    {
        return hostU16(PKEY_INDEX_OFFSET);
    }

    public int altPkeyIndex()
    {
        return hostU16(ALT_PKEY_INDEX_OFFSET);
    }

    public short enSqdAsyncNotify()
    {
        return u8(EN_SQD_ASYNC_NOTIFY_OFFSET);
    }

    public short sqDraining()
    {
        return u8(SQ_DRAINING_OFFSET);
    }

    public short maxRdAtomic()
    {
        return u8(MAX_RD_ATOMIC_OFFSET);
    }

    public short maxDestRdAtomic()
    {
        return u8(MAX_DEST_RD_ATOMIC_OFFSET);
    }

    public short minRnrTimer()
    {
        return u8(MIN_RNR_TIMER_OFFSET);
    }

    public short portNum()
    {
        return u8(PORT_NUM_OFFSET);
    }

    public short timeout()
    {
        return u8(TIMEOUT_OFFSET);
    }

    public short retryCnt()
    {
        return u8(RETRY_CNT_OFFSET);
    }

    public short rnrRetry()
    {
        return u8(RNR_RETRY_OFFSET);
    }

    public short altPortNum()
    {
        return u8(ALT_PORT_NUM_OFFSET);
    }

    public short altTimeout()
    {
        return u8(ALT_TIMEOUT_OFFSET);
    }
}
