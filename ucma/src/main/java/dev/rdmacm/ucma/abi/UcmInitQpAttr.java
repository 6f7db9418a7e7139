package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_init_qp_attr} (INIT_QP_ATTR); host byte order. The response is the
 * {@link UverbsQpAttr} that moves the id's QP to {@code qp_state}, as {@code rdma_init_qp_attr} returns it;
 * a state above 6 is EINVAL.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |          response (u64 address of ib_uverbs_qp_attr)          |  0
 *  +---------------------------------------------------------------+
 *  |                              id                               |  8
 *  +---------------------------------------------------------------+
 *  |              qp_state (IBV_QPS_INIT, RTR or RTS)              | 12
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmInitQpAttr extends UcmaStruct<UcmInitQpAttr>
{
    public static final int RESPONSE_OFFSET = 0;
    public static final int ID_OFFSET = 8;
    public static final int QP_STATE_OFFSET = 12;
    public static final int LENGTH = 16;

    public UcmInitQpAttr()
    {
        super("rdma_ucm_init_qp_attr", LENGTH);
    }

    public long response()
    {
        return hostU64(RESPONSE_OFFSET);
    }

    public UcmInitQpAttr response(final long address)
    {
        putHostU64(RESPONSE_OFFSET, address);
        return this;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmInitQpAttr id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long qpState()
    {
        return hostU32(QP_STATE_OFFSET);
    }

    public UcmInitQpAttr qpState(final long value)
    {
        putHostU32(QP_STATE_OFFSET, value);
        return this;
    }
}
