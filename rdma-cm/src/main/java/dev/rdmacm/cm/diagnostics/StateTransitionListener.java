package dev.rdmacm.cm.diagnostics;

import dev.rdmacm.cm.CmIdState;
import dev.rdmacm.cm.RdmaCmId;

/**
 * Observes every state transition of every id of an {@link dev.rdmacm.cm.RdmaCm}; called on the conductor's thread,
 * which made it, under no lock, with the id's view already showing the new state. It
 * must not block: a call on an id from here that waits for the conductor runs at once.
 */
@FunctionalInterface
public interface StateTransitionListener
{
    /** Sees nothing: the default. */
    StateTransitionListener NONE = (id, from, to, reason) -> { };

    /**
     * An id changed state.
     *
     * @param id     the id.
     * @param from   the state it left.
     * @param to     the state it entered.
     * @param reason what made it change, for a trace.
     */
    void onTransition(RdmaCmId id, CmIdState from, CmIdState to, String reason);
}
