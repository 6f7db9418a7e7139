package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.protocol.PortSpace;

import java.util.concurrent.CompletableFuture;

/**
 * One {@code rdma_resolve_route} in flight: what the kernel reads from the id when it builds the
 * query or the RoCE path, fixed when the call is made.
 */
final class PendingRoute
{
    final RdmaCmId id;
    final AddressResolution resolution;
    final PortSpace portSpace;
    final int sourcePort;
    final int destinationPort;
    final int sourceFlowinfo;
    /** {@code rdma_set_service_type}, or null when never set. */
    final Integer tos;
    /** {@code rdma_set_ack_timeout}, or null when never set. */
    final Integer ackTimeout;
    final int timeoutMs;
    /** An AF_IB id's addresses ({@code sib_sid}, {@code sib_flowinfo} go into the query), else null. */
    final IbSockaddr ibSource;
    final IbSockaddr ibDestination;
    final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
    /** Completes when the call's own part is over; exceptionally with the error the call returns. */
    final CompletableFuture<Void> accepted = new CompletableFuture<>();
    /** Completes with the event's outcome (or, exceptionally, with the call's error). */
    final CompletableFuture<ResolvedRoute> completion = new CompletableFuture<>();

    PendingRoute(
        final RdmaCmId id, final AddressResolution resolution, final PortSpace portSpace, final int sourcePort,
        final int destinationPort, final int sourceFlowinfo, final Integer tos, final Integer ackTimeout,
        final int timeoutMs, final IbSockaddr ibSource, final IbSockaddr ibDestination)
    {
        this.ibSource = ibSource;
        this.ibDestination = ibDestination;
        this.id = id;
        this.resolution = resolution;
        this.portSpace = portSpace;
        this.sourcePort = sourcePort;
        this.destinationPort = destinationPort;
        this.sourceFlowinfo = sourceFlowinfo;
        this.tos = tos;
        this.ackTimeout = ackTimeout;
        this.timeoutMs = timeoutMs;
    }
}
