package dev.rdmacm.cm;

import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.resolver.engine.RouteQuery;

import java.util.concurrent.CompletableFuture;

/**
 * One {@code rdma_resolve_route} in flight: what the kernel reads from the id when it builds the
 * query or the RoCE path, fixed when the call is made, and where the call is ({@link State}), which
 * {@link RoutePhase} moves on the conductor.
 */
final class PendingRoute
{
    /** Its life on the conductor; every change goes through {@code RoutePhase.transition}. */
    enum State
    {
        /** Taken by the conductor; not yet asked of anyone. */
        SUBMITTED,
        /** librdmacm's {@code ucma_set_ib_route}: the ACM service is asked, the id still ADDR_RESOLVED. */
        ACM_QUERY,
        /** {@code cma_query_ib_route}: the SA is asked, the id in ROUTE_QUERY. */
        SA_QUERY,
        /** {@code cma_resolve_iboe_route}: the RoCE path is built from the loop's rtnetlink. */
        ROCE_SYNTH,
        /** ROUTE_RESOLVED. */
        RESOLVED,
        /** ROUTE_ERROR. */
        ERROR,
        /** The call returned an error: no event. */
        REFUSED,
        /** The id was destroyed or its device removed while it waited. */
        CANCELLED
    }

    /**
     * SUBMITTED asks ACM, then the SA or the RoCE synthesis, or is refused; ACM's answer is the route, or
     * the kernel's way follows; the SA ends RESOLVED or ERROR; the synthesis is the call's own part, so
     * its failure is REFUSED. Only the waits (ACM, SA) can be CANCELLED. The four ends are final.
     */
    static final TransitionTable<State> TRANSITIONS = TransitionTable.of("PendingRoute", State.class)
        .allow(State.SUBMITTED, State.ACM_QUERY, State.SA_QUERY, State.ROCE_SYNTH, State.REFUSED)
        .allow(State.ACM_QUERY, State.RESOLVED, State.SA_QUERY, State.ROCE_SYNTH, State.REFUSED, State.CANCELLED)
        .allow(State.SA_QUERY, State.RESOLVED, State.ERROR, State.CANCELLED)
        .allow(State.ROCE_SYNTH, State.RESOLVED, State.REFUSED)
        .build();

    final IdContext id;
    /** What the resolver is asked. */
    final RouteQuery query;
    /** Completes when the call's own part is over; exceptionally with the error the call returns. Null: no one waits. */
    final CompletableFuture<Void> accepted;
    /** Completes with the event's outcome (or, exceptionally, with the call's error). */
    final CompletableFuture<ResolvedRoute> completion;
    State state = State.SUBMITTED;

    PendingRoute(final IdContext id, final RouteQuery query, final CompletableFuture<Void> accepted,
        final CompletableFuture<ResolvedRoute> completion)
    {
        this.id = id;
        this.query = query;
        this.accepted = accepted;
        this.completion = completion;
    }

    /** The route the id's fields ask for now. */
    static PendingRoute of(final IdContext c, final int timeoutMs, final CompletableFuture<Void> accepted,
        final CompletableFuture<ResolvedRoute> completion)
    {
        return new PendingRoute(c, new RouteQuery(c.resolution, c.portSpace, c.boundPort, c.destinationPort,
            c.sourceFlowinfo, c.tos, c.ackTimeout, timeoutMs, c.ibSource, c.ibDestination, c.kernelProfile(),
            new ResolutionTrace(System.nanoTime())), accepted, completion);
    }

    void endCall(final Throwable failure)
    {
        if (accepted != null)
        {
            if (failure == null)
            {
                accepted.complete(null);
            }
            else
            {
                accepted.completeExceptionally(failure);
            }
        }
    }

    @Override
    public String toString()
    {
        return "route of " + id;
    }
}
