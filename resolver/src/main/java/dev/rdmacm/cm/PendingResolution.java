package dev.rdmacm.cm;

import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.Route;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;

/**
 * One {@code rdma_resolve_addr} in flight: the kernel's {@code struct addr_req}. Created by the
 * calling thread, then owned by the event loop.
 */
final class PendingResolution
{
    /** Its life on the event loop; every change goes through {@code ResolverAgent.transition}. */
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
    final InetAddress destination;
    /** A concrete source to bind first (the id was IDLE), else null. */
    final InetAddress sourceToBind;
    /** The call's timeout, whole milliseconds as librdmacm holds it. */
    final int timeoutMs;
    /** The call's time on the loop's clock plus the timeout, as the kernel sets req->timeout in rdma_resolve_addr. */
    final long deadlineNanos;
    final ResolutionTrace trace;
    /**
     * Completes when the call's synchronous part is over (errors returned by the call end it
     * exceptionally), then let go by {@link #endCall}: the caller waits on its own reference. Null for
     * a caller that does not wait (resolveAddrAsync).
     */
    private volatile CompletableFuture<Void> accepted;
    /** Completes with the event's outcome. */
    final CompletableFuture<AddressResolution> completion;

    /** The bound source: a concrete address or null for the wildcard. */
    InetAddress source;
    /** {@code bound_dev_if}: the source's netdev, or the scope id of a link-local destination, or 0. */
    int boundIfindex;
    /** The device binding made when a concrete source was bound, else null until resolution ends. */
    RdmaPortBinding binding;

    long timerId = DeadlineTimers.NULL_TIMER;
    State state = State.SUBMITTED;
    boolean synchronousPhase = true;

    // What the last attempt found; every attempt finds it again, as addr_resolve does on each retry.
    Route route;
    Link outputLink;
    Link netdev;
    InetAddress effectiveSource;
    byte[] destinationHardwareAddress;

    NeighbourKey waitingOn;
    long waitStartNanos;

    PendingResolution(
        final IdContext id, final InetAddress sourceToBind, final InetAddress source, final int boundIfindex,
        final RdmaPortBinding binding, final InetAddress destination, final int timeoutMs, final long startNanos,
        final CompletableFuture<Void> accepted, final CompletableFuture<AddressResolution> completion)
    {
        this.accepted = accepted;
        this.id = id;
        this.sourceToBind = sourceToBind;
        this.source = source;
        this.boundIfindex = boundIfindex;
        this.binding = binding;
        this.destination = destination;
        this.timeoutMs = timeoutMs;
        this.deadlineNanos = startNanos + timeoutMs * 1_000_000L;
        this.trace = new ResolutionTrace(System.nanoTime());
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

    /** When the call was made, on the loop's clock. */
    long startNanos()
    {
        return deadlineNanos - timeoutMs * 1_000_000L;
    }

    /**
     * Lets go of the last attempt's findings while the resolution waits: the next attempt looks them up
     * again, and ten thousand waiting resolutions would otherwise hold ten thousand decoded routes and
     * links (the kernel's {@code addr_req} keeps only the addresses, too).
     */
    void forgetAttempt()
    {
        route = null;
        outputLink = null;
        netdev = null;
        effectiveSource = null;
        destinationHardwareAddress = null;
    }
}
