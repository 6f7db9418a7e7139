package dev.rdmacm.cm;

/** Observes every state transition of every id of an {@link RdmaCm}; called on the thread that made it. */
@FunctionalInterface
public interface StateTransitionListener
{
    StateTransitionListener NONE = (id, from, to, reason) -> { };

    void onTransition(RdmaCmId id, CmIdState from, CmIdState to, String reason);
}
