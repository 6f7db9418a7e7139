package dev.rdmacm.cm;

import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.resolver.engine.AddressQuery;
import dev.rdmacm.resolver.AddressResolution;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;

/**
 * One {@code rdma_resolve_addr} in flight: the kernel's {@code struct addr_req}. Created by the
 * calling thread, then owned by the event loop.
 */
final class PendingResolution
{
    /** Its life on the event loop; every change goes through {@code ConductorAgent.transition}. */
    enum State
    {
        /** Handed to the loop; not yet attempted. */
        SUBMITTED,
        /** The neighbour is not valid yet: re-run on its netlink event, its link going away, or the deadline. */
        WAITING_FOR_NEIGHBOUR,
        /** ADDR_RESOLVED. */
        RESOLVED,
        /** Returned by the call, or ADDR_ERROR. */
        FAILED,
        /** The id was destroyed while it waited: no event. */
        CANCELLED
    }

    /**
     * SUBMITTED ends at once (RESOLVED, FAILED) or waits; a wait ends RESOLVED, FAILED (ADDR_ERROR, the
     * CM closed) or CANCELLED (destroyed). The three ends are final.
     */
    static final TransitionTable<State> TRANSITIONS = TransitionTable.of("PendingResolution", State.class)
        .allow(State.SUBMITTED, State.WAITING_FOR_NEIGHBOUR, State.RESOLVED, State.FAILED)
        .allow(State.WAITING_FOR_NEIGHBOUR, State.RESOLVED, State.FAILED, State.CANCELLED)
        .build();

    final IdContext id;
    /** What the resolver is asked, and what its last attempt found. */
    final AddressQuery query;
    /** A concrete source to bind first (the id was IDLE), else null. */
    final InetAddress sourceToBind;
    /**
     * Completes when the call's synchronous part is over (errors returned by the call end it
     * exceptionally), then let go by {@link #endCall}: the caller waits on its own reference. Null for
     * a caller that does not wait (resolveAddrAsync).
     */
    private volatile CompletableFuture<Void> accepted;
    /** Completes with the event's outcome. */
    final CompletableFuture<AddressResolution> completion;

    long timerId = DeadlineTimers.NULL_TIMER;
    State state = State.SUBMITTED;
    boolean synchronousPhase = true;

    PendingResolution(
        final IdContext id, final InetAddress sourceToBind, final AddressQuery query,
        final CompletableFuture<Void> accepted, final CompletableFuture<AddressResolution> completion)
    {
        this.accepted = accepted;
        this.id = id;
        this.sourceToBind = sourceToBind;
        this.query = query;
        this.completion = completion;
    }

    /**
     * Ends the call's synchronous part, with {@code failure} as what it throws or null when it returns;
     * the first end counts (the loop's or a device removal's), and the future is let go of.
     */
    void endCall(final Throwable failure)
    {
        final CompletableFuture<Void> waiting = accepted;
        accepted = null;
        if (waiting != null)
        {
            if (failure == null)
            {
                waiting.complete(null);
            }
            else
            {
                waiting.completeExceptionally(failure);
            }
        }
    }
}
