package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_disconnect} (DISCONNECT: a DREQ, or the DREP to a DREQ already
 * received); host byte order.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                              id                               |  0
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmDisconnect extends UcmaStruct<UcmDisconnect>
{
    public static final int ID_OFFSET = 0;
    public static final int LENGTH = 4;

    public UcmDisconnect()
    {
        super("rdma_ucm_disconnect", LENGTH);
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmDisconnect id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }
}
