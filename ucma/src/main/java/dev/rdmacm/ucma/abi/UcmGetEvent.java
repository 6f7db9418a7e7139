package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_get_event} (GET_EVENT): where to write the next event of the
 * descriptor, an {@link EventResponse}; host byte order. The write blocks until an event is queued, or
 * fails EAGAIN at once on a descriptor opened {@code O_NONBLOCK}.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |        response (u64 address of rdma_ucm_event_resp)          |  0
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmGetEvent extends UcmaStruct<UcmGetEvent>
{
    public static final int RESPONSE_OFFSET = 0;
    public static final int LENGTH = 8;

    public UcmGetEvent()
    {
        super("rdma_ucm_get_event", LENGTH);
    }

    public long response()
    {
        return hostU64(RESPONSE_OFFSET);
    }

    public UcmGetEvent response(final long address)
    {
        putHostU64(RESPONSE_OFFSET, address);
        return this;
    }
}
