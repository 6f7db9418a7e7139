package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_notify} (NOTIFY); host byte order. The kernel acts on {@link
 * UcmaConstants#IBV_EVENT_COMM_EST} and {@link UcmaConstants#IBV_EVENT_PATH_MIG} only.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                              id                               |  0
 *  +---------------------------------------------------------------+
 *  |                    event (ibv_event_type)                     |  4
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmNotify extends UcmaStruct<UcmNotify>
{
    public static final int ID_OFFSET = 0;
    public static final int EVENT_OFFSET = 4;
    public static final int LENGTH = 8;

    public UcmNotify()
    {
        super("rdma_ucm_notify", LENGTH);
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmNotify id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long event()
    {
        return hostU32(EVENT_OFFSET);
    }

    public UcmNotify event(final long value)
    {
        putHostU32(EVENT_OFFSET, value);
        return this;
    }
}
