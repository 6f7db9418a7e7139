package dev.rdmacm.ibcm;

/**
 * A connection's consumer (ib_cm's {@code cm_handler}); connections made by a listener inherit the
 * listener's. Called on the engine's thread after the state change the event reports; it may call the
 * connection's methods (accept, reject, drep...) from inside. What it throws reaches the caller of
 * {@link IbCmEngine#onMadReceived} or {@link IbCmEngine#doWork}, after the state change: the loop decides.
 */
@FunctionalInterface
public interface IbCmEventHandler
{
    void onEvent(IbCmConnection connection, IbCmEvent event);

    /**
     * Asked of a listener's consumer before the engine makes anything for a new REQ or SIDR_REQ from
     * {@code from}: whether it takes the request. False is ib_cm's {@code cm_handler} failing the request
     * with {@code -ENOMEM}, as rdma_cm's userspace ABI does when the listener's backlog is used up
     * ({@code ucma_connect_event_handler}); then, as {@code cm_destroy_id} does, a REQ is dropped with no
     * REJ and nothing kept, so that the peer's retry is a new REQ that may find room, and a SIDR_REQ is
     * answered SIDR_REP status REJECT. A consumer that says true must take the request's event. The
     * default takes every request.
     */
    default boolean takesRequest(final IbCmPeerAddress from)
    {
        return true;
    }
}
