package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_create_id} (CREATE_ID); host byte order. The kernel echoes
 * {@code uid} in every event of the id and drops the events of an id whose uid is 0, so it must not be
 * 0. {@code qp_type} counts only for {@link UcmaConstants#RDMA_PS_IB}; TCP implies RC, UDP and IPOIB UD.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  uid (u64, echoed in events)                  |  0
 *  +---------------------------------------------------------------+
 *  |        response (u64 address of rdma_ucm_create_id_resp)      |  8
 *  +-------------------------------+---------------+---------------+
 *  |        ps (port space)        |    qp_type    |  reserved[5]  | 16
 *  +-------------------------------+---------------+               +
 *  |                           reserved                            | 20
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmCreateId extends UcmaStruct<UcmCreateId>
{
    public static final int UID_OFFSET = 0;
    public static final int RESPONSE_OFFSET = 8;
    public static final int PS_OFFSET = 16;
    public static final int QP_TYPE_OFFSET = 18;
    public static final int RESERVED_OFFSET = 19;
    public static final int RESERVED_LENGTH = 5;
    public static final int LENGTH = 24;

    public UcmCreateId()
    {
        super("rdma_ucm_create_id", LENGTH);
    }

    public long uid()
    {
        return hostU64(UID_OFFSET);
    }

    public UcmCreateId uid(final long value)
    {
        putHostU64(UID_OFFSET, value);
        return this;
    }

    public long response()
    {
        return hostU64(RESPONSE_OFFSET);
    }

    public UcmCreateId response(final long address)
    {
        putHostU64(RESPONSE_OFFSET, address);
        return this;
    }

    public int ps()
    {
        return hostU16(PS_OFFSET);
    }

    public UcmCreateId ps(final int value)
    {
        putHostU16(PS_OFFSET, value);
        return this;
    }

    public int qpType()
    {
        return u8(QP_TYPE_OFFSET);
    }

    public UcmCreateId qpType(final int value)
    {
        putU8(QP_TYPE_OFFSET, value);
        return this;
    }
}
