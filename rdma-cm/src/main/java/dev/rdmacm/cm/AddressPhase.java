package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.netlink.HardwareAddress;
import dev.rdmacm.resolver.engine.AddressQuery;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.engine.AddressResolver;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.engine.ResolutionFailure;
import dev.rdmacm.resolver.ResolutionTrace;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;

/**
 * {@code rdma_bind_addr} and {@code rdma_resolve_addr} on the conductor: the checks that need the id's
 * state, the port, the id's moves IDLE -> ADDR_BOUND -> ADDR_QUERY, and the outcomes the resolver loop
 * reports back (ADDR_RESOLVED, ADDR_ERROR, an error the call returns). The resolution itself, a
 * {@link PendingResolution} in Election's shape (SUBMITTED, WAITING_FOR_NEIGHBOUR, RESOLVED | FAILED |
 * CANCELLED), is run by {@link ConductorAgent} on the same thread: {@link #resolve} starts it at once, so
 * a synchronous call costs its caller one round trip to the loop, as before the conductor.
 */
final class AddressPhase
{
    private AddressPhase()
    {
    }

    /** {@code rdma_bind_addr} of an IP address; a concrete one is looked up with the loop's rtnetlink. */
    static void bind(final ConductorAgent agent, final boolean loopEnded, final IdContext c, final InetAddress source,
        final int port) throws RdmaCmException
    {
        if (c.state == CmIdState.IDLE && port >= 0)
        {
            c.sourcePort = port;
        }
        if (source == null)
        {
            throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "source address is null", true);
        }
        if (c.state != CmIdState.IDLE)
        {
            throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "id is " + c.state + ", not IDLE", true);
        }
        if (source.isAnyLocalAddress())
        {
            c.bindPort("rdma_bind_addr", source, null);
            c.boundSource = source;
            c.transition(CmIdState.ADDR_BOUND, "bind to wildcard " + source.getHostAddress() + " port " + c.boundPort);
            return;
        }
        if (loopEnded)
        {
            throw new IllegalStateException("this RdmaCm is closed");
        }
        final CompletableFuture<AddressResolver.BoundSource> bound = new CompletableFuture<>();
        agent.bind(source, new ResolutionTrace(System.nanoTime()), bound);
        final AddressResolver.BoundSource result;
        try
        {
            result = bound.join();
        }
        catch (final java.util.concurrent.CompletionException ex)
        {
            final ResolutionFailure failure = (ResolutionFailure)ex.getCause();
            throw new RdmaCmException("rdma_bind_addr", failure.errno(), failure.getMessage(), true);
        }
        c.bindPort("rdma_bind_addr", source, null);
        bound(c, source, result.ifindex(), result.binding(), result.hardwareAddress());
        c.transition(CmIdState.ADDR_BOUND, "bind to " + source.getHostAddress() + " port " + c.boundPort + " on " +
            result.binding());
    }

    /** {@code rdma_bind_addr} of a {@code struct sockaddr_ib}; see {@link RdmaCmId#bindAddr(IbSockaddr)}. */
    static void bindIb(final IdContext c, final IbSockaddr source) throws RdmaCmException
    {
        if (source == null)
        {
            throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "source address is null", true);
        }
        if (c.state != CmIdState.IDLE)
        {
            throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "id is " + c.state + ", not IDLE", true);
        }
        bindIb(c, "rdma_bind_addr", source);
    }

    /** {@code rdma_bind_addr_dst} for AF_IB; the id is IDLE. */
    private static void bindIb(final IdContext c, final String call, final IbSockaddr source) throws RdmaCmException
    {
        RdmaPortBinding device = null;
        if (!source.gid().isZero())
        {
            device = c.cm.options().gids().findInfinibandGid(source.gid()).orElseThrow(() -> new RdmaCmException(call,
                Errno.ENODEV, "no InfiniBand port has GID " + source.gid() + " (an AF_IB source is ARPHRD_INFINIBAND, " +
                "which binds to InfiniBand ports only)", true));
        }
        final IbAddressing.PortSpaceChoice choice = IbAddressing.selectPortSpace(c.portSpace, source);
        if (choice == null)
        {
            throw new RdmaCmException(call, Errno.EPROTONOSUPPORT, String.format(
                "sib_sid 0x%016x under mask 0x%016x names no port space an RDMA_PS_%s id may take", source.serviceId(),
                source.serviceIdMask(), c.portSpace), true);
        }
        // AF_IB ids are never AFONLY (rdma_bind_addr_dst sets it for AF_INET and AF_INET6 only)
        c.boundPort = c.cm.bindPort(call, choice.space(), choice.port(), new PortBindings.Owner(c.id,
            IbAddressing.asAddress(source.gid()), null, 0, c.reuseAddr, false));
        c.boundSpace = choice.space();
        c.sourcePort = choice.port();
        c.ibSource = IbAddressing.boundTo(choice.source(), c.boundPort);
        c.binding = device;
        c.transition(CmIdState.ADDR_BOUND, "bind AF_IB " + source.gid() + " sid " + String.format("0x%016x",
            c.ibSource.serviceId()) + (device == null ? "" : " on " + device));
    }

    /** {@code rdma_resolve_addr} of AF_IB addresses: nothing to wait for; see {@link RdmaCmId#resolveAddr(IbSockaddr, IbSockaddr, java.time.Duration)}. */
    static void resolveIb(final IdContext c, final IbSockaddr source, final IbSockaddr destination) throws RdmaCmException
    {
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        if (destination == null)
        {
            throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "destination address is null", true);
        }
        if (c.state == CmIdState.IDLE)
        {
            bindIb(c, "rdma_resolve_addr", source != null ? source : IbAddressing.anyFor(destination));
        }
        else if (c.state != CmIdState.ADDR_BOUND)
        {
            throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL,
                "id is " + c.state + "; resolving needs IDLE or ADDR_BOUND", true);
        }
        else if (c.ibSource == null)
        {
            throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "the id is bound to " +
                (c.boundSource == null ? "an IP address" : c.boundSource.getHostAddress()) +
                ", not an AF_IB address: source and destination families differ", true);
        }
        c.ibDestination = destination;
        c.transition(CmIdState.ADDR_QUERY, "resolve_addr AF_IB " + destination.gid());
        final IbAddressing.Resolved resolved;
        try
        {
            resolved = IbAddressing.resolve(c.cm.options().gids(), c.binding, c.ibSource, destination, trace);
        }
        catch (final RdmaCmException ex)
        {
            c.transition(CmIdState.ADDR_BOUND, "resolve_addr returned " + Errno.name(ex.errno()));
            throw ex;
        }
        final AddressResolution result = resolved.resolution();
        c.ibSource = resolved.source();
        c.binding = result.binding();
        c.resolution = result;
        c.transition(CmIdState.ADDR_RESOLVED, "ADDR_RESOLVED AF_IB " + destination.gid());
        c.deliver(new CmEvent.AddrResolved(c.id, result, trace));
    }

    /**
     * {@code rdma_resolve_addr} of IP addresses: auto-binds an IDLE id, moves it to ADDR_QUERY and starts
     * the resolution on the loop at once. Up-front errors are thrown here; the loop ends the call's part
     * through {@code accepted} and the outcome through {@code completion}.
     *
     * @param startNanos when the call was made, on the loop's clock: the deadline counts from there.
     * @param early      the query the caller attempted on its thread, or null; adopted only if it asks
     *                   what the id's state asks, so the state's errors still come first, as in the kernel.
     */
    static void resolve(final ConductorAgent agent, final boolean loopEnded, final IdContext c, final InetAddress source,
        final InetAddress destination, final int sourcePort, final int destinationPort, final int timeoutMs,
        final long startNanos, final AddressQuery early, final CompletableFuture<Void> accepted,
        final CompletableFuture<AddressResolution> completion) throws RdmaCmException
    {
        final CmIdState before = c.state;
        final PendingResolution p = begin(c, source, destination, sourcePort, destinationPort, timeoutMs, startNanos, early,
            accepted, completion);
        c.pending = p;
        if (loopEnded)
        {
            c.pending = null;
            c.transition(before, "resolve_addr refused: this RdmaCm is closed");
            throw new IllegalStateException("this RdmaCm is closed");
        }
        agent.start(p);
    }

    /**
     * The call's part before the lookup, wherever it runs (the conductor, or a caller that holds the id's
     * {@link IdGuard}, {@link CallerResolution}): the ports, the state's checks and errors, the auto-bind,
     * IDLE -> ADDR_BOUND -> ADDR_QUERY; the resolution it returns is not pending yet.
     */
    static PendingResolution begin(final IdContext c, final InetAddress source, final InetAddress destination,
        final int sourcePort, final int destinationPort, final int timeoutMs, final long startNanos, final AddressQuery early,
        final CompletableFuture<Void> accepted, final CompletableFuture<AddressResolution> completion)
        throws RdmaCmException
    {
        if (c.state == CmIdState.IDLE && sourcePort >= 0)
        {
            c.sourcePort = sourcePort;
        }
        if (destinationPort >= 0)
        {
            c.destinationPort = destinationPort;
        }
        if (destination == null)
        {
            throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "destination address is null", true);
        }
        final PendingResolution p;
        if (c.state == CmIdState.IDLE)
        {
            if (source != null && !sameFamily(source, destination))
            {
                throw familyMismatch(source, destination);
            }
            if (source != null && !source.isAnyLocalAddress())
            {
                c.bindPort("rdma_resolve_addr", source, destination);
                c.transition(CmIdState.ADDR_BOUND, () -> "auto-bind to " + source.getHostAddress() + " port " + c.boundPort +
                    " (to be validated)");
                c.transition(CmIdState.ADDR_QUERY, () -> "resolve_addr " + destination.getHostAddress());
                p = new PendingResolution(c, source, new AddressQuery(null, 0, null, destination, timeoutMs, startNanos),
                    accepted, completion);
            }
            else
            {
                // cma_bind_addr: the wildcard of the destination's family, scoped like a link-local destination.
                final int scope = destination instanceof Inet6Address v6 && v6.isLinkLocalAddress() ? v6.getScopeId() : 0;
                final InetAddress wildcard = source != null ? source : AddressResolver.wildcardOf(destination);
                c.bindPort("rdma_resolve_addr", wildcard, destination);
                c.boundSource = wildcard;
                c.boundIfindex = scope;
                c.transition(CmIdState.ADDR_BOUND, () -> "auto-bind to the wildcard port " + c.boundPort +
                    (scope == 0 ? "" : " scope " + scope));
                c.transition(CmIdState.ADDR_QUERY, () -> "resolve_addr " + destination.getHostAddress());
                p = new PendingResolution(c, null, query(early, null, scope, null, destination, timeoutMs, startNanos),
                    accepted, completion);
            }
        }
        else if (c.state == CmIdState.ADDR_BOUND)
        {
            if (c.ibSource != null)
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "the id is bound to the AF_IB address " +
                    c.ibSource.gid() + ", not to an IP address: source and destination families differ", true);
            }
            if (c.boundSource != null && !sameFamily(c.boundSource, destination))
            {
                throw familyMismatch(c.boundSource, destination);
            }
            final InetAddress concrete = c.boundSource == null || c.boundSource.isAnyLocalAddress() ? null : c.boundSource;
            c.transition(CmIdState.ADDR_QUERY, () -> "resolve_addr " + destination.getHostAddress());
            p = new PendingResolution(c, null, query(early, concrete, c.boundIfindex, concrete == null ? null : c.binding,
                destination, timeoutMs, startNanos), accepted, completion);
        }
        else
        {
            throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL,
                "id is " + c.state + "; resolving needs IDLE or ADDR_BOUND", true);
        }
        return p;
    }

    /** The caller's attempted query if it asks the same as the id's state does, else a new one. */
    private static AddressQuery query(final AddressQuery early, final InetAddress source, final int boundIfindex,
        final RdmaPortBinding binding, final InetAddress destination, final int timeoutMs, final long startNanos)
    {
        if (early != null && early.asks(source, boundIfindex, destination, timeoutMs))
        {
            return early.binding(binding);
        }
        return new AddressQuery(source, boundIfindex, binding, destination, timeoutMs, startNanos);
    }

    // ---- outcomes, from the loop ----

    static void bound(final IdContext c, final InetAddress source, final int ifindex, final RdmaPortBinding device,
        final HardwareAddress hardwareAddress)
    {
        c.boundSource = source;
        c.boundIfindex = ifindex;
        c.binding = device;
        c.boundHardwareAddress = hardwareAddress;
        c.publish();
    }

    static void callFailed(final IdContext c, final PendingResolution p, final int errno, final String detail,
        final CmIdState backTo)
    {
        if (c.state == CmIdState.ADDR_QUERY && c.pending == p)
        {
            c.pending = null;
            if (backTo == CmIdState.IDLE)
            {
                c.boundSource = null;
                c.boundIfindex = 0;
                c.releasePort();
            }
            c.transition(backTo, "resolve_addr returned " + Errno.name(errno));
        }
        final RdmaCmException ex = new RdmaCmException("rdma_resolve_addr", errno, detail, true, p.query.trace());
        p.endCall(ex);
        p.completion.completeExceptionally(ex);
    }

    static void resolved(final IdContext c, final PendingResolution p, final AddressResolution result)
    {
        if (c.state != CmIdState.ADDR_QUERY || c.pending != p)
        {
            return;
        }
        c.pending = null;
        c.resolution = result;
        c.transition(CmIdState.ADDR_RESOLVED, () -> "ADDR_RESOLVED " + result.destination().getHostAddress());
        c.deliver(new CmEvent.AddrResolved(c.id, result, p.query.trace()));
        p.completion.complete(result);
    }

    static void resolutionFailed(final IdContext c, final PendingResolution p, final int errno, final String detail)
    {
        if (c.state != CmIdState.ADDR_QUERY || c.pending != p)
        {
            return;
        }
        c.pending = null;
        c.transition(CmIdState.ADDR_BOUND, "ADDR_ERROR " + Errno.name(errno));
        c.deliver(new CmEvent.AddrError(c.id, -errno, detail, p.query.trace()));
        p.completion.completeExceptionally(new RdmaCmException("rdma_resolve_addr", errno, detail, false, p.query.trace()));
    }

    private static boolean sameFamily(final InetAddress a, final InetAddress b)
    {
        return (a instanceof Inet4Address) == (b instanceof Inet4Address);
    }

    private static RdmaCmException familyMismatch(final InetAddress source, final InetAddress destination)
    {
        return new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "source " + source.getHostAddress() +
            " and destination " + destination.getHostAddress() + " are of different families", true);
    }
}
