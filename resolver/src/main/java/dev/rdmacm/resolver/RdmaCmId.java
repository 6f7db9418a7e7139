package dev.rdmacm.resolver;

import dev.rdmacm.verbs.Errno;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code struct rdma_cm_id} for address resolution: bind, resolve, receive ADDR_RESOLVED or
 * ADDR_ERROR, retry after an error. Created with an {@link EventChannel} its events go there; created
 * without one it is synchronous, like librdmacm's NULL channel: {@link #resolveAddr} waits for the
 * outcome and throws the error event's errno.
 * <p>
 * Every state change goes through {@link #transition}, which reports it to the
 * {@link StateTransitionListener} of the {@link RdmaCm}. Thread-safe.
 */
public final class RdmaCmId implements AutoCloseable
{
    private final RdmaCm cm;
    private final EventChannel channel;
    private final long number;
    private final AtomicInteger unacknowledged = new AtomicInteger();

    private CmIdState state = CmIdState.IDLE;
    private InetAddress boundSource;
    private int boundIfindex;
    private RdmaPortBinding binding;
    private AddressResolution resolution;
    private PendingResolution pending;

    RdmaCmId(final RdmaCm cm, final EventChannel channel, final long number)
    {
        this.cm = cm;
        this.channel = channel;
        this.number = number;
    }

    public synchronized CmIdState state()
    {
        return state;
    }

    /** The event channel, or null for a synchronous id. */
    public EventChannel channel()
    {
        return channel;
    }

    /** The last successful resolution, or null. */
    public synchronized AddressResolution resolution()
    {
        return resolution;
    }

    /** The bound source address (a wildcard after auto-binding to one), or null while IDLE. */
    public synchronized InetAddress boundSource()
    {
        return boundSource;
    }

    /** Events delivered and not yet acknowledged. */
    public int unacknowledgedEvents()
    {
        return unacknowledged.get();
    }

    /**
     * {@code rdma_bind_addr}: a wildcard binds at once; a concrete address must be configured on a
     * netdev (else EADDRNOTAVAIL) that has an RDMA port with its GID (else ENODEV).
     */
    public void bindAddr(final InetAddress source) throws RdmaCmException
    {
        cm.requireNotLoopThread("rdma_bind_addr");
        synchronized (this)
        {
            if (source == null)
            {
                throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "source address is null", true);
            }
            if (state != CmIdState.IDLE)
            {
                throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "id is " + state + ", not IDLE", true);
            }
            if (source.isAnyLocalAddress())
            {
                boundSource = source;
                transition(CmIdState.ADDR_BOUND, "bind to wildcard " + source.getHostAddress());
                return;
            }
        }
        final CompletableFuture<AddressResolver.BoundSource> bound = new CompletableFuture<>();
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        cm.submit(agent -> agent.bind(source, trace, bound));
        try
        {
            final AddressResolver.BoundSource result = await(bound);
            synchronized (this)
            {
                if (state != CmIdState.IDLE)
                {
                    throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "id changed state to " + state, true);
                }
                bound(source, result.ifindex(), result.binding());
                transition(CmIdState.ADDR_BOUND, "bind to " + source.getHostAddress() + " on " + result.binding());
            }
        }
        catch (final ResolutionFailure failure)
        {
            throw new RdmaCmException("rdma_bind_addr", failure.errno, failure.getMessage(), true);
        }
    }

    /**
     * {@code rdma_resolve_addr}. Errors found up front (state, families, source not configured, no RDMA
     * port for the source, route errors) are thrown here with {@link RdmaCmException#returnedByCall()};
     * the rest arrive as an ADDR_RESOLVED or ADDR_ERROR event on the channel. A synchronous id (no
     * channel) waits for that event and returns normally only on ADDR_RESOLVED.
     *
     * @param source    null or a wildcard to let the route choose; ignored when the id is already bound.
     * @param timeoutMs bounds only the wait for the neighbour (ARP/ND).
     */
    public void resolveAddr(final InetAddress source, final InetAddress destination, final int timeoutMs)
        throws RdmaCmException
    {
        cm.requireNotLoopThread("rdma_resolve_addr");
        final PendingResolution p = begin(source, destination, timeoutMs);
        try
        {
            await(p.accepted);
            if (channel == null)
            {
                await(p.completion);
            }
        }
        catch (final ResolutionFailure impossible)
        {
            throw new IllegalStateException(impossible);
        }
    }

    /**
     * The same resolution, without blocking: the future completes with the result or exceptionally with
     * an {@link RdmaCmException} (up-front errors included). Events are still posted to the channel.
     * The future completes on the event-loop thread: callbacks attached to it must not block.
     */
    public CompletableFuture<AddressResolution> resolveAddrAsync(
        final InetAddress source, final InetAddress destination, final int timeoutMs)
    {
        try
        {
            return begin(source, destination, timeoutMs).completion;
        }
        catch (final RdmaCmException ex)
        {
            return CompletableFuture.failedFuture(ex);
        }
    }

    private PendingResolution begin(final InetAddress source, final InetAddress destination, final int timeoutMs)
        throws RdmaCmException
    {
        final PendingResolution p;
        final CmIdState before;
        synchronized (this)
        {
            before = state;
            if (destination == null)
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "destination address is null", true);
            }
            if (timeoutMs < 0)
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "timeout " + timeoutMs + " ms is negative", true);
            }
            final CompletableFuture<AddressResolution> completion = new CompletableFuture<>();
            final long timeoutNanos = timeoutMs * 1_000_000L;
            if (state == CmIdState.IDLE)
            {
                if (source != null && !sameFamily(source, destination))
                {
                    throw familyMismatch(source, destination);
                }
                if (source != null && !source.isAnyLocalAddress())
                {
                    transition(CmIdState.ADDR_BOUND, "auto-bind to " + source.getHostAddress() + " (to be validated)");
                    transition(CmIdState.ADDR_QUERY, "resolve_addr " + destination.getHostAddress());
                    p = new PendingResolution(this, source, null, 0, null, destination, timeoutNanos, completion);
                }
                else
                {
                    // cma_bind_addr: the wildcard of the destination's family, scoped like a link-local destination.
                    final int scope = destination instanceof Inet6Address v6 && v6.isLinkLocalAddress() ?
                        v6.getScopeId() : 0;
                    boundSource = source != null ? source : AddressResolver.wildcardOf(destination);
                    boundIfindex = scope;
                    transition(CmIdState.ADDR_BOUND, "auto-bind to the wildcard" + (scope == 0 ? "" : " scope " + scope));
                    transition(CmIdState.ADDR_QUERY, "resolve_addr " + destination.getHostAddress());
                    p = new PendingResolution(this, null, null, scope, null, destination, timeoutNanos, completion);
                }
            }
            else if (state == CmIdState.ADDR_BOUND)
            {
                if (boundSource != null && !sameFamily(boundSource, destination))
                {
                    throw familyMismatch(boundSource, destination);
                }
                final InetAddress concrete = boundSource == null || boundSource.isAnyLocalAddress() ? null : boundSource;
                transition(CmIdState.ADDR_QUERY, "resolve_addr " + destination.getHostAddress());
                p = new PendingResolution(this, null, concrete, boundIfindex, concrete == null ? null : binding,
                    destination, timeoutNanos, completion);
            }
            else
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL,
                    "id is " + state + "; resolving needs IDLE or ADDR_BOUND", true);
            }
            pending = p;
        }
        try
        {
            cm.submit(agent -> agent.start(p));
        }
        catch (final IllegalStateException closed)
        {
            synchronized (this)
            {
                pending = null;
                transition(before, "resolve_addr refused: " + closed.getMessage());
            }
            throw closed;
        }
        return p;
    }

    /** {@code rdma_destroy_id}: cancels a pending resolution; no event follows. */
    public void destroy()
    {
        final PendingResolution p;
        synchronized (this)
        {
            if (state == CmIdState.DESTROYING)
            {
                return;
            }
            transition(CmIdState.DESTROYING, "destroy");
            p = pending;
            pending = null;
        }
        if (p != null)
        {
            cm.submitIfOpen(agent -> agent.cancel(p));
        }
    }

    @Override
    public void close()
    {
        destroy();
    }

    // ---- called by the event loop ----

    synchronized void bound(final InetAddress source, final int ifindex, final RdmaPortBinding binding)
    {
        this.boundSource = source;
        this.boundIfindex = ifindex;
        this.binding = binding;
    }

    void accepted(final PendingResolution p)
    {
        p.accepted.complete(null);
    }

    void callFailed(final PendingResolution p, final int errno, final String detail, final CmIdState backTo)
    {
        synchronized (this)
        {
            if (state == CmIdState.ADDR_QUERY && pending == p)
            {
                pending = null;
                if (backTo == CmIdState.IDLE)
                {
                    boundSource = null;
                    boundIfindex = 0;
                }
                transition(backTo, "resolve_addr returned " + Errno.name(errno));
            }
        }
        final RdmaCmException ex = new RdmaCmException("rdma_resolve_addr", errno, detail, true, p.trace);
        p.accepted.completeExceptionally(ex);
        p.completion.completeExceptionally(ex);
    }

    void resolved(final PendingResolution p, final AddressResolution result)
    {
        synchronized (this)
        {
            if (state != CmIdState.ADDR_QUERY || pending != p)
            {
                return;
            }
            pending = null;
            resolution = result;
            transition(CmIdState.ADDR_RESOLVED, "ADDR_RESOLVED " + result.destination().getHostAddress());
        }
        deliver(new CmEvent(this, CmEventType.ADDR_RESOLVED, 0, result, null, p.trace));
        p.completion.complete(result);
    }

    void resolutionFailed(final PendingResolution p, final int errno, final String detail)
    {
        synchronized (this)
        {
            if (state != CmIdState.ADDR_QUERY || pending != p)
            {
                return;
            }
            pending = null;
            transition(CmIdState.ADDR_BOUND, "ADDR_ERROR " + Errno.name(errno));
        }
        deliver(new CmEvent(this, CmEventType.ADDR_ERROR, -errno, null, detail, p.trace));
        p.completion.completeExceptionally(new RdmaCmException("rdma_resolve_addr", errno, detail, false, p.trace));
    }

    void acknowledge(final CmEvent event)
    {
        unacknowledged.decrementAndGet();
    }

    private void deliver(final CmEvent event)
    {
        if (channel != null)
        {
            unacknowledged.incrementAndGet();
            channel.post(event);
        }
    }

    /** The one place an id changes state. */
    private void transition(final CmIdState next, final String reason)
    {
        final CmIdState previous = state;
        state = next;
        cm.listener().onTransition(this, previous, next, reason);
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

    private static <T> T await(final CompletableFuture<T> future) throws RdmaCmException, ResolutionFailure
    {
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    return future.get();
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true; // the event loop completes every future; finish the call first
                }
                catch (final ExecutionException ex)
                {
                    if (ex.getCause() instanceof RdmaCmException cm)
                    {
                        throw cm;
                    }
                    if (ex.getCause() instanceof ResolutionFailure failure)
                    {
                        throw failure;
                    }
                    throw new IllegalStateException(ex.getCause());
                }
            }
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString()
    {
        return "RdmaCmId#" + number;
    }
}
