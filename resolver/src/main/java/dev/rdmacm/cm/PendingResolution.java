package dev.rdmacm.cm;

import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.Route;
import org.agrona.DeadlineTimerWheel;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;

/**
 * One {@code rdma_resolve_addr} in flight: the kernel's {@code struct addr_req}. Created by the
 * calling thread, then owned by the event loop.
 */
final class PendingResolution
{
    final RdmaCmId id;
    final InetAddress destination;
    /** A concrete source to bind first (the id was IDLE), else null. */
    final InetAddress sourceToBind;
    final long timeoutNanos;
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
    long timerId = DeadlineTimerWheel.NULL_DEADLINE;
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
        final RdmaPortBinding binding, final InetAddress destination, final long timeoutNanos,
        final CompletableFuture<AddressResolution> completion)
    {
        this.id = id;
        this.sourceToBind = sourceToBind;
        this.source = source;
        this.boundIfindex = boundIfindex;
        this.binding = binding;
        this.destination = destination;
        this.timeoutNanos = timeoutNanos;
        this.trace = new ResolutionTrace(System.nanoTime());
        this.completion = completion;
    }
}
