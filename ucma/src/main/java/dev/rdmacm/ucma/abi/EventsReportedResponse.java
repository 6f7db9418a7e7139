package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_destroy_id_resp} and {@code struct rdma_ucm_migrate_resp}, one
 * layout: how many events of the id (or membership) the kernel has handed out through GET_EVENT, so that
 * a caller can wait until it has seen them all; host byte order.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                       events_reported                         |  0
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class EventsReportedResponse extends UcmaStruct<EventsReportedResponse>
{
    public static final int EVENTS_REPORTED_OFFSET = 0;
    public static final int LENGTH = 4;

    public EventsReportedResponse()
    {
        super("rdma_ucm_destroy_id_resp", LENGTH);
    }

    public long eventsReported()
    {
        return hostU32(EVENTS_REPORTED_OFFSET);
    }

    public EventsReportedResponse eventsReported(final long value)
    {
        putHostU32(EVENTS_REPORTED_OFFSET, value);
        return this;
    }
}
