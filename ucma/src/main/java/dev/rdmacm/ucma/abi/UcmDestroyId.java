package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_destroy_id} (DESTROY_ID, and LEAVE_MCAST with a membership's
 * handle as {@code id}); host byte order.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |      response (u64 address of rdma_ucm_destroy_id_resp)       |  0
 *  +---------------------------------------------------------------+
 *  |                              id                               |  8
 *  +---------------------------------------------------------------+
 *  |                           reserved                            | 12
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmDestroyId extends UcmaStruct<UcmDestroyId>
{
    public static final int RESPONSE_OFFSET = 0;
    public static final int ID_OFFSET = 8;
    public static final int RESERVED_OFFSET = 12;
    public static final int LENGTH = 16;

    public UcmDestroyId()
    {
        super("rdma_ucm_destroy_id", LENGTH);
    }

    public long response()
    {
        return hostU64(RESPONSE_OFFSET);
    }

    public UcmDestroyId response(final long address)
    {
        putHostU64(RESPONSE_OFFSET, address);
        return this;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmDestroyId id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }
}
