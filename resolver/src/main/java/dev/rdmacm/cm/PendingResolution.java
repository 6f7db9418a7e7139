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

    final RdmaCmId id;
    final InetAddress destination;
    /** A concrete source to bind first (the id was IDLE), else null. */
    final InetAddress sourceToBind;
    final long timeoutNanos;
    /** When the call was made, on the loop's clock: the deadline runs from here. */
    final long startNanos;
    final ResolutionTrace trace;
    /** Completes when the call's synchronous part is over (errors returned by the call end it exceptionally). */
    final CompletableFuture<Void> accepted = new CompletableFuture<>();
    /** Completes with the event's outcome. */
    final CompletableFuture<AddressResolution> completion;

    /** The bound source: a concrete address or null for the wildcard. */
    InetAddress source;
    /** {@code bound_dev_if}: the source's netdev, or the scope id of a link-local destination, or 0. */
    int boundIfindex;
    /** The device binding made when a concrete source was bound, else null until resolution ends. */
    RdmaPortBinding binding;

    long deadlineNanos;
    long timerId = DeadlineTimers.NULL_TIMER;
    State state = State.SUBMITTED;
    boolean synchronousPhase = true;

    Route route;
    Link outputLink;
    Link netdev;
    InetAddress effectiveSource;
    byte[] destinationHardwareAddress;
    NeighbourKey waitingOn;
    long waitStartNanos;

    PendingResolution(
        final RdmaCmId id, final InetAddress sourceToBind, final InetAddress source, final int boundIfindex,
        final RdmaPortBinding binding, final InetAddress destination, final long timeoutNanos, final long startNanos,
        final CompletableFuture<AddressResolution> completion)
    {
        this.id = id;
        this.sourceToBind = sourceToBind;
        this.source = source;
        this.boundIfindex = boundIfindex;
        this.binding = binding;
        this.destination = destination;
        this.timeoutNanos = timeoutNanos;
        this.startNanos = startNanos;
        this.trace = new ResolutionTrace(System.nanoTime());
        this.completion = completion;
    }
}
