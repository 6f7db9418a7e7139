package dev.rdmacm.cm;

/** {@code enum rdma_cm_event_type}; the values are those of librdmacm and the kernel. */
public enum CmEventType
{
    /** rdma_resolve_addr succeeded: the id is bound to a local RDMA device and port. */
    ADDR_RESOLVED(0),
    /** rdma_resolve_addr failed; the event's status is -errno ({@code -ETIMEDOUT}, {@code -ENODEV}, ...). */
    ADDR_ERROR(1),
    /** rdma_resolve_route succeeded: the id holds the path records. */
    ROUTE_RESOLVED(2),
    /** rdma_resolve_route failed; the status is -errno. */
    ROUTE_ERROR(3),
    /** A listener got a connection request: the event's id is a new id for it, to accept or reject. */
    CONNECT_REQUEST(4),
    /** The active side got the peer's reply on an id without a QP, which the application completes itself. */
    CONNECT_RESPONSE(5),
    /** Setting up the connection failed locally; the status is -errno. */
    CONNECT_ERROR(6),
    /** The peer did not answer the request (every retry timed out) or its reply could not be used. */
    UNREACHABLE(7),
    /** The peer rejected the request or the reply; the status is the IB CM reject reason. */
    REJECTED(8),
    /** The connection is up. */
    ESTABLISHED(9),
    /** The connection was torn down, by either side. */
    DISCONNECTED(10),
    /** The id's RDMA device went away; only destroying the id is left. */
    DEVICE_REMOVAL(11),
    /** A multicast join completed. */
    MULTICAST_JOIN(12),
    /** A joined multicast group failed. */
    MULTICAST_ERROR(13),
    /** The netdev the id's address is on changed (a bonding failover). */
    ADDR_CHANGE(14),
    /** The id's QP left timewait and may be reused. */
    TIMEWAIT_EXIT(15),
    /** rdma-core HEAD (RDMACM_1.4): {@code rdma_resolve_addrinfo} succeeded; {@code rdma_query_addrinfo} has the result. */
    ADDRINFO_RESOLVED(16),
    /** rdma-core HEAD (RDMACM_1.4): an IB service resolution of {@code rdma_resolve_addrinfo} failed. */
    ADDRINFO_ERROR(17),
    /** rdma-core HEAD (RDMACM_1.4): an event the application wrote with {@code rdma_write_cm_event}. */
    USER(18);

    private final int value;

    CmEventType(final int value)
    {
        this.value = value;
    }

    /** {@return the number librdmacm and the kernel give the event ({@code RDMA_CM_EVENT_ADDR_RESOLVED} is 0)} */
    public int value()
    {
        return value;
    }
}
