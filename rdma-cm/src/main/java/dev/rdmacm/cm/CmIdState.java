package dev.rdmacm.cm;

/**
 * The states of an RDMA CM id (the kernel's {@code enum rdma_cm_state}): IDLE -> ADDR_BOUND ->
 * ADDR_QUERY -> ADDR_RESOLVED, or back to ADDR_BOUND after an error; then ROUTE_QUERY -> ROUTE_RESOLVED
 * -> CONNECT -> ESTABLISHED -> DISCONNECT on the active side, ADDR_BOUND -> LISTEN on a listener, and
 * CONNECT -> ESTABLISHED -> DISCONNECT on the id a connection request made.
 */
public enum CmIdState
{
    /** Created, not bound to an address. */
    IDLE,
    /** Bound to an address (rdma_bind_addr), or back from a failed address resolution. */
    ADDR_BOUND,
    /** rdma_resolve_addr is under way. */
    ADDR_QUERY,
    /** The address resolved: the id has its device, port and GIDs. */
    ADDR_RESOLVED,
    /** rdma_resolve_route is under way. */
    ROUTE_QUERY,
    /** The route resolved: the id has its path records. */
    ROUTE_RESOLVED,
    /** rdma_connect sent the REQ, or a listener's REQ made this id; until ESTABLISHED. */
    CONNECT,
    /** rdma_listen. */
    LISTEN,
    /** The connection is up (the RTU went or came). */
    ESTABLISHED,
    /** A DREQ or DREP went or came; the QP is in ERR. */
    DISCONNECT,
    /** The bound RDMA device went away; DEVICE_REMOVAL was posted and only destroy is left. */
    DEVICE_REMOVAL,
    /** rdma_destroy_id was called. */
    DESTROYING
}
