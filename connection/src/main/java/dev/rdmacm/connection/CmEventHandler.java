package dev.rdmacm.connection;

/**
 * A connection's consumer (ib_cm's {@code cm_handler}); connections made by a listener inherit the
 * listener's. Called on the engine's thread after the state change the event reports; it may call the
 * connection's methods (accept, reject, drep...) from inside.
 */
@FunctionalInterface
public interface CmEventHandler
{
    void onEvent(CmConnection connection, CmEvent event);
}
