package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_listen} (LISTEN); host byte order. A backlog of 0 or below, or
 * above {@code net.rdma_ucm.max_backlog}, becomes that maximum.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                              id                               |  0
 *  +---------------------------------------------------------------+
 *  |                            backlog                            |  4
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmListen extends UcmaStruct<UcmListen>
{
    public static final int ID_OFFSET = 0;
    public static final int BACKLOG_OFFSET = 4;
    public static final int LENGTH = 8;

    public UcmListen()
    {
        super("rdma_ucm_listen", LENGTH);
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmListen id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long backlog()
    {
        return hostU32(BACKLOG_OFFSET);
    }

    public UcmListen backlog(final long value)
    {
        putHostU32(BACKLOG_OFFSET, value);
        return this;
    }
}
