package dev.rdmacm.cm;

/**
 * The states of an RDMA CM id around address resolution (the kernel's {@code enum rdma_cm_state}):
 * IDLE -> ADDR_BOUND -> ADDR_QUERY -> ADDR_RESOLVED, or back to ADDR_BOUND after an error.
 */
public enum CmIdState
{
    IDLE,
    ADDR_BOUND,
    ADDR_QUERY,
    ADDR_RESOLVED,
    ROUTE_QUERY,
    ROUTE_RESOLVED,
    /** The bound RDMA device went away; DEVICE_REMOVAL was posted and only destroy is left. */
    DEVICE_REMOVAL,
    DESTROYING
}
