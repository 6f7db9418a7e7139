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
}
