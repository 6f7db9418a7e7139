package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.Ipv6Sockaddr;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.resolver.engine.IbPathOption;
import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.resolver.engine.RouteException;
import dev.rdmacm.resolver.engine.RouteQuery;
import dev.rdmacm.resolver.engine.RouteResolver;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.verbs.GidType;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code rdma_resolve_route} and {@code RDMA_OPTION_IB_PATH} on the conductor, in Election's shape: a
 * {@link PendingRoute} moves through {@link PendingRoute.State} by one method per state and every move
 * goes through {@link #transition}, which checks {@link PendingRoute#TRANSITIONS}.
 * <pre>
 *   SUBMITTED ──► ACM_QUERY ──answer with a path──► RESOLVED
 *      │             │ no answer, no path, or refused
 *      ▼             ▼
 *   (the kernel's way) ──InfiniBand──► SA_QUERY ──► RESOLVED | ERROR
 *                      └─RoCE───────► ROCE_SYNTH ─► RESOLVED | REFUSED
 * </pre>
 * The waits hand their outcome back as commands ({@link IdCommand.AcmAnswered}, {@link IdCommand.SaAnswered}),
 * so the id's state is only ever touched here, on the conductor's thread.
 */
final class RoutePhase
{
    private final ConductorProxy conductor;
    private final AcmRouteExchange acm;
    private final NanoClock clock;
    private final TransitionListener<PendingRoute, PendingRoute.State> transitions;

    RoutePhase(final ConductorProxy conductor, final AcmRouteExchange acm, final NanoClock clock,
        final TransitionListener<PendingRoute, PendingRoute.State> transitions)
    {
        this.conductor = conductor;
        this.acm = acm;
        this.clock = clock;
        this.transitions = transitions;
    }

    /**
     * SUBMITTED: librdmacm 44's {@code rdma_resolve_route} asks the ACM service first (its
     * {@code ucma_set_ib_route}) when the id is ADDR_RESOLVED and {@code askAcm}, on the conductor's ACM
     * socket ({@link AcmRouteExchange}); otherwise (or once the loop has ended), and when ACM gives nothing
     * usable, the kernel's way follows ({@link #kernelRoute}). Errors the call returns before anything is
     * pending are thrown.
     */
    void resolve(final ConductorAgent agent, final boolean loopEnded, final IdContext c, final int timeoutMs,
        final boolean askAcm, final CompletableFuture<Void> accepted, final CompletableFuture<ResolvedRoute> completion)
        throws RdmaCmException
    {
        if (askAcm && !loopEnded && acm.enabled() && c.state == CmIdState.ADDR_RESOLVED)
        {
            final PendingRoute r = PendingRoute.of(c, timeoutMs, accepted, completion);
            c.pendingRoute = r;
            transition(r, PendingRoute.State.ACM_QUERY);
            final RdmaSockaddr source = c.ibSource != null ? c.ibSource :
                ipSockaddr(c.resolution.source(), c.boundPort, c.sourceFlowinfo);
            final RdmaSockaddr destination = c.ibDestination != null ? c.ibDestination :
                ipSockaddr(c.resolution.destination(), c.destinationPort, 0);
            final long start = System.nanoTime();
            acm.ask(r, source, destination, answer -> conductor.acmAnswered(c.id, r, answer, start,
                source.toText() + " -> " + destination.toText()));
            return;
        }
        kernelRoute(agent, loopEnded, c, timeoutMs, accepted, completion, null);
    }

    /**
     * ACM_QUERY, answered: a path that {@code RDMA_OPTION_IB_PATH} takes is the route (ROUTE_RESOLVED
     * follows at once); anything else, and the kernel's way follows, as librdmacm goes on to the kernel.
     */
    void onAcmAnswer(final ConductorAgent agent, final boolean loopEnded, final IdContext c, final PendingRoute r,
        final byte[] answer, final long start, final String addresses)
    {
        if (r.state != PendingRoute.State.ACM_QUERY || c.pendingRoute != r)
        {
            return;
        }
        c.pendingRoute = null;
        if (answer != null && answer.length >= IbvPathData.LENGTH)
        {
            final List<byte[]> records = new ArrayList<>();
            for (int offset = 0; offset + IbvPathData.LENGTH <= answer.length; offset += IbvPathData.LENGTH)
            {
                final byte[] record = new byte[IbvPathData.LENGTH];
                System.arraycopy(answer, offset, record, 0, IbvPathData.LENGTH);
                records.add(record);
            }
            final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
            trace.record("acm route", start, "RAI_ROUTEONLY " + addresses + ": " + records.size() +
                " path(s) from the ACM service");
            ResolvedRoute given = null;
            try
            {
                given = setPath(c, records, ResolvedRoute.Kind.ACM, trace);
            }
            catch (final RdmaCmException refused)
            {
                // no record the option takes: librdmacm goes on to the kernel
            }
            if (given != null)
            {
                transition(r, PendingRoute.State.RESOLVED);
                r.endCall(null);
                r.completion.complete(given);
                return;
            }
        }
        try
        {
            kernelRoute(agent, loopEnded, c, r.query.timeoutMs(), r.accepted, r.completion, r);
        }
        catch (final RdmaCmException ex)
        {
            transition(r, PendingRoute.State.REFUSED);
            r.completion.completeExceptionally(ex);
            r.endCall(ex);
        }
    }

    /**
     * The kernel's {@code rdma_resolve_route}: ROUTE_QUERY, then the SA (InfiniBand) or the RoCE path
     * built at once from the loop's rtnetlink; {@code fromAcm} is the pending route that asked ACM first.
     */
    private void kernelRoute(final ConductorAgent agent, final boolean loopEnded, final IdContext c, final int timeoutMs,
        final CompletableFuture<Void> accepted, final CompletableFuture<ResolvedRoute> completion, final PendingRoute fromAcm)
        throws RdmaCmException
    {
        if (timeoutMs <= 0)
        {
            throw new RdmaCmException("rdma_resolve_route", Errno.EINVAL, "timeout " + timeoutMs + " ms must be positive", true);
        }
        if (c.state != CmIdState.ADDR_RESOLVED)
        {
            throw new RdmaCmException("rdma_resolve_route", Errno.EINVAL, "id is " + c.state +
                "; resolving a route needs ADDR_RESOLVED", true);
        }
        final PendingRoute r = fromAcm != null ? fromAcm : PendingRoute.of(c, timeoutMs, accepted, completion);
        c.transition(CmIdState.ROUTE_QUERY, () -> "resolve_route " + c.resolution.destination().getHostAddress());
        c.pendingRoute = r;
        if (r.query.resolution().binding().gidType() == GidType.IB)
        {
            final SaClient sa = c.cm.options().sa();
            if (sa == null)
            {
                refuse(c, r, Errno.ENOSYS, "no SA to ask for an InfiniBand path (RdmaCm.Options.sa)");
                return;
            }
            transition(r, PendingRoute.State.SA_QUERY);
            r.endCall(null);
            RouteResolver.queryInfiniband(sa, r.query).whenComplete((resolved, failure) ->
                conductor.saAnswered(c.id, r, resolved, failure));
            return;
        }
        if (loopEnded)
        {
            refuse(c, r, Errno.EINTR, "this RdmaCm is closed");
            return;
        }
        transition(r, PendingRoute.State.ROCE_SYNTH);
        final CompletableFuture<ResolvedRoute> built = new CompletableFuture<>();
        agent.roceRoute(r, built);
        final ResolvedRoute resolved;
        try
        {
            resolved = built.join();
        }
        catch (final CompletionException failure)
        {
            final Throwable cause = failure.getCause();
            refuse(c, r, cause instanceof RouteException re ? re.errno() : Errno.EIO, cause.getMessage());
            return;
        }
        finished(c, r, resolved);
        r.endCall(null);
    }

    /** Whether a route of {@code c} asks ACM first, as {@link #resolve} decides. */
    boolean asksAcm(final IdContext c)
    {
        return acm.enabled() && c.state == CmIdState.ADDR_RESOLVED;
    }

    /**
     * The kernel's {@code rdma_resolve_route} of a RoCE id, where the caller holds the id's {@link IdGuard}
     * ({@link CallerRoute}): what {@link #kernelRoute} does on RoCE, the path built by {@code synthesis}
     * (with the caller's rtnetlink client) instead of the conductor's.
     */
    void roceOnCaller(final IdContext c, final int timeoutMs, final CompletableFuture<Void> accepted,
        final CompletableFuture<ResolvedRoute> completion, final RoceSynthesis synthesis) throws RdmaCmException
    {
        if (timeoutMs <= 0)
        {
            throw new RdmaCmException("rdma_resolve_route", Errno.EINVAL, "timeout " + timeoutMs + " ms must be positive", true);
        }
        final PendingRoute r = PendingRoute.of(c, timeoutMs, accepted, completion);
        c.transition(CmIdState.ROUTE_QUERY, () -> "resolve_route " + c.resolution.destination().getHostAddress());
        c.pendingRoute = r;
        transition(r, PendingRoute.State.ROCE_SYNTH);
        final ResolvedRoute resolved;
        try
        {
            resolved = synthesis.synthesize(r.query);
        }
        catch (final RuntimeException failure)
        {
            // as the conductor's way: a RouteException's errno, EIO for anything else
            refuse(c, r, failure instanceof RouteException re ? re.errno() : Errno.EIO, failure.getMessage());
            return;
        }
        finished(c, r, resolved);
        r.endCall(null);
    }

    /** {@code cma_resolve_iboe_route}'s path from a query, with a given rtnetlink client. */
    @FunctionalInterface
    interface RoceSynthesis
    {
        ResolvedRoute synthesize(RouteQuery query) throws RouteException;
    }

    /** SA_QUERY, answered: ROUTE_RESOLVED, or ROUTE_ERROR (-EINVAL for an SA error status, -ETIMEDOUT for none). */
    void onSaAnswer(final IdContext c, final PendingRoute r, final ResolvedRoute resolved, final Throwable failure)
    {
        if (c.state != CmIdState.ROUTE_QUERY || c.pendingRoute != r)
        {
            return;
        }
        if (failure == null)
        {
            finished(c, r, resolved);
            return;
        }
        final Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
        final int errno = cause instanceof RouteException re ? re.errno() : Errno.EIO;
        c.pendingRoute = null;
        transition(r, PendingRoute.State.ERROR);
        c.transition(CmIdState.ADDR_RESOLVED, "ROUTE_ERROR " + Errno.name(errno));
        c.deliver(new CmEvent.RouteError(c.id, -errno, r.query.resolution(), cause.getMessage(), r.query.trace()));
        r.completion.completeExceptionally(new RdmaCmException("rdma_resolve_route", errno, cause.getMessage(), false, r.query.trace()));
    }

    private void finished(final IdContext c, final PendingRoute r, final ResolvedRoute resolved)
    {
        c.pendingRoute = null;
        c.route = resolved;
        transition(r, PendingRoute.State.RESOLVED);
        c.transition(CmIdState.ROUTE_RESOLVED, () -> "ROUTE_RESOLVED " + r.query.resolution().destination().getHostAddress());
        c.deliver(new CmEvent.RouteResolved(c.id, r.query.resolution(), resolved, r.query.trace()));
        r.completion.complete(resolved);
    }

    /** A failure of the call itself: back to ADDR_RESOLVED, no event. */
    private void refuse(final IdContext c, final PendingRoute r, final int errno, final String detail)
    {
        if (c.state == CmIdState.ROUTE_QUERY && c.pendingRoute == r)
        {
            c.pendingRoute = null;
            c.transition(CmIdState.ADDR_RESOLVED, "resolve_route returned " + Errno.name(errno));
        }
        transition(r, PendingRoute.State.REFUSED);
        final RdmaCmException ex = new RdmaCmException("rdma_resolve_route", errno, detail, true, r.query.trace());
        r.completion.completeExceptionally(ex);
        r.endCall(ex);
    }

    /**
     * The id goes away (destroyed, or its device removed, {@code removed} then naming it): a route waiting
     * for ACM or the SA is dropped. One waiting for ACM ends as the call would have found the id, one
     * waiting for the SA with no event; after a device removal both end with ENODEV.
     */
    void cancel(final IdContext c, final String removed)
    {
        final PendingRoute r = c.pendingRoute;
        c.pendingRoute = null;
        if (r == null || (r.state != PendingRoute.State.ACM_QUERY && r.state != PendingRoute.State.SA_QUERY))
        {
            return;
        }
        final PendingRoute.State waited = r.state;
        transition(r, PendingRoute.State.CANCELLED);
        final RdmaCmException ex;
        if (removed != null)
        {
            ex = new RdmaCmException("rdma_resolve_route", Errno.ENODEV, "device " + removed + " was removed", false, r.query.trace());
        }
        else if (waited == PendingRoute.State.ACM_QUERY)
        {
            ex = new RdmaCmException("rdma_resolve_route", Errno.EINVAL, "id is " + c.state +
                "; resolving a route needs ADDR_RESOLVED", true, r.query.trace());
        }
        else
        {
            return;
        }
        r.endCall(ex);
        r.completion.completeExceptionally(ex);
    }

    /**
     * {@code rdma_set_option(RDMA_OPTION_IB, RDMA_OPTION_IB_PATH)}: ADDR_RESOLVED -> ROUTE_RESOLVED at once,
     * and a ROUTE_RESOLVED event, as {@code ucma_set_ib_path} sends it.
     */
    static ResolvedRoute setPath(final IdContext c, final List<byte[]> pathData, final ResolvedRoute.Kind kind,
        final ResolutionTrace trace) throws RdmaCmException
    {
        if (c.state != CmIdState.ADDR_RESOLVED)
        {
            throw new RdmaCmException("rdma_set_option", Errno.EINVAL, "RDMA_OPTION_IB_PATH on an id that is " +
                c.state + ", not ADDR_RESOLVED", true);
        }
        final ResolvedRoute given;
        try
        {
            given = new ResolvedRoute(kind, IbPathOption.kept(pathData, c.resolution,
                c.resolution.binding().gidType() != GidType.IB));
        }
        catch (final RouteException ex)
        {
            throw new RdmaCmException("rdma_set_option", ex.errno(), ex.getMessage(), true);
        }
        c.route = given;
        c.transition(CmIdState.ROUTE_RESOLVED, kind == ResolvedRoute.Kind.ACM ? "RDMA_OPTION_IB_PATH from ACM" :
            "RDMA_OPTION_IB_PATH");
        c.deliver(new CmEvent.RouteResolved(c.id, c.resolution, given, trace));
        return given;
    }

    /** The one place a pending route changes state. */
    private void transition(final PendingRoute r, final PendingRoute.State next)
    {
        final PendingRoute.State previous = r.state;
        PendingRoute.TRANSITIONS.require(r, previous, next);
        r.state = next;
        if (transitions.sees())
        {
            transitions.onTransition(r, previous, next, clock.nanoTime());
        }
    }

    /** The id's {@code sockaddr_in}/{@code sockaddr_in6} as librdmacm holds it after ADDR_RESOLVED. */
    private static RdmaSockaddr ipSockaddr(final InetAddress address, final int port, final int flowinfo)
    {
        if (address instanceof Inet4Address)
        {
            return new Ipv4Sockaddr(ByteBuffer.wrap(address.getAddress()).getInt(), port);
        }
        final Inet6Address v6 = (Inet6Address)address;
        return new Ipv6Sockaddr(address.getAddress(), port, flowinfo & 0xffff_ffffL, Math.max(0, v6.getScopeId()));
    }
}
