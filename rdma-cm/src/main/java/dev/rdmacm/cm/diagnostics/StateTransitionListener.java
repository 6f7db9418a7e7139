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
    StateTransitionListener NONE = (id, from, to, reason) -> { };

    void onTransition(RdmaCmId id, CmIdState from, CmIdState to, String reason);
}
