package dev.rdmacm.cm;

/**
 * The states of an RDMA CM id (the kernel's {@code enum rdma_cm_state}): IDLE -> ADDR_BOUND ->
 * ADDR_QUERY -> ADDR_RESOLVED, or back to ADDR_BOUND after an error; then ROUTE_QUERY -> ROUTE_RESOLVED
 * -> CONNECT -> ESTABLISHED -> DISCONNECT on the active side, ADDR_BOUND -> LISTEN on a listener, and
 * CONNECT -> ESTABLISHED -> DISCONNECT on the id a connection request made.
 */
public enum CmIdState
{
    IDLE,
    ADDR_BOUND,
    ADDR_QUERY,
    ADDR_RESOLVED,
    ROUTE_QUERY,
    ROUTE_RESOLVED,
    /** rdma_connect sent the REQ, or a listener's REQ made this id; until ESTABLISHED. */
    CONNECT,
    /** rdma_listen. */
    LISTEN,
    ESTABLISHED,
    /** A DREQ or DREP went or came; the QP is in ERR. */
    DISCONNECT,
    /** The bound RDMA device went away; DEVICE_REMOVAL was posted and only destroy is left. */
    DEVICE_REMOVAL,
    DESTROYING
}
