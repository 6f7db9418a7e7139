package dev.rdmacm.cm;

/** {@code enum rdma_cm_event_type}; the values are those of librdmacm and the kernel. */
public enum CmEventType
{
    ADDR_RESOLVED(0),
    ADDR_ERROR(1),
    ROUTE_RESOLVED(2),
    ROUTE_ERROR(3),
    CONNECT_REQUEST(4),
    CONNECT_RESPONSE(5),
    CONNECT_ERROR(6),
    UNREACHABLE(7),
    REJECTED(8),
    ESTABLISHED(9),
    DISCONNECTED(10),
    DEVICE_REMOVAL(11),
    MULTICAST_JOIN(12),
    MULTICAST_ERROR(13),
    ADDR_CHANGE(14),
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

    public int value()
    {
        return value;
    }
}
