package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_create_id_resp}: the kernel's handle of a new id (CREATE_ID) or
 * multicast membership (JOIN_MCAST, JOIN_IP_MCAST); host byte order.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                       id (the handle)                         |  0
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class IdResponse extends UcmaStruct<IdResponse>
{
    public static final int ID_OFFSET = 0;
    public static final int LENGTH = 4;

    public IdResponse()
    {
        super("rdma_ucm_create_id_resp", LENGTH);
    }

    /** The handle: a u32 from a global table, kept as an int (compared, never ordered). */
    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public IdResponse id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }
}
