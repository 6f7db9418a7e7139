package dev.rdmacm.ucma.abi;

/**
 * The event numbers GET_EVENT reports ({@code enum rdma_cm_event_type}, the kernel's
 * {@code rdma_cm.h}, the same numbers as librdmacm's {@code rdma_cma.h}), in order from 0.
 */
public enum UcmaEventType
{
    ADDR_RESOLVED,
    ADDR_ERROR,
    ROUTE_RESOLVED,
    ROUTE_ERROR,
    CONNECT_REQUEST,
    CONNECT_RESPONSE,
    CONNECT_ERROR,
    UNREACHABLE,
    REJECTED,
    ESTABLISHED,
    DISCONNECTED,
    DEVICE_REMOVAL,
    MULTICAST_JOIN,
    MULTICAST_ERROR,
    ADDR_CHANGE,
    TIMEWAIT_EXIT,
    /** 6.18+: RESOLVE_IB_SERVICE's answers. */
    ADDRINFO_RESOLVED,
    ADDRINFO_ERROR,
    /** 6.18+: WRITE_CM_EVENT's. */
    USER,
    INTERNAL;

    private static final UcmaEventType[] BY_NUMBER = values();

    public int number()
    {
        return ordinal();
    }

    /**
     * The event numbered {@code number}.
     *
     * @throws IllegalArgumentException for a number no kernel reports (yet).
     */
    public static UcmaEventType of(final int number)
    {
        if (number < 0 || number >= BY_NUMBER.length)
        {
            throw new IllegalArgumentException("RDMA CM event " + number + ": known events are 0.." + (BY_NUMBER.length - 1));
        }
        return BY_NUMBER[number];
    }
}
