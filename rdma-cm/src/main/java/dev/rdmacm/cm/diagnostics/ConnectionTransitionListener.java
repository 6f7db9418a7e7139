package dev.rdmacm.cm.diagnostics;

import dev.rdmacm.protocol.cm.IbCmState;

/**
 * Observes every state change of every CM connection of an {@link dev.rdmacm.cm.RdmaCm}, in ib_cm's
 * states (IBA 12.9.6, the kernel's {@code enum ib_cm_state}), which the kernel never shows: rping's
 * {@code -d} trace and the conformance peers print them. Called on the conductor's thread at the moment
 * of the change, with the CM's clock; it must not block. It sees numbers and states, never the engine's
 * connection, whose calls only the conductor may make.
 */
@FunctionalInterface
public interface ConnectionTransitionListener
{
    /** Sees nothing: the default. */
    ConnectionTransitionListener NONE = (localCommId, remoteCommId, from, to, nowNanos) -> { };

    /**
     * A connection changed its IB CM state.
     *
     * @param localCommId  the connection's local communication ID (unsigned 32 bits).
     * @param remoteCommId the peer's communication ID, 0 until the peer's first MAD gave it.
     * @param from         the state it left.
     * @param to           the state it entered.
     * @param nowNanos     the CM's clock at the change ({@code System.nanoTime} unless a test injected one).
     */
    void onTransition(long localCommId, long remoteCommId, IbCmState from, IbCmState to, long nowNanos);
}
