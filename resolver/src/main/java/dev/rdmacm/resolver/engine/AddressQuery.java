package dev.rdmacm.resolver.engine;

import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.Route;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.ResolutionTrace;

import java.net.InetAddress;
import java.util.Objects;

/**
 * What one {@code rdma_resolve_addr} asks of the resolver, and what its last attempt found: the
 * addressing half of the kernel's {@code struct addr_req}. The conductor keeps the call's other half
 * (the id, its futures, its timer) beside it; the resolver sees only this.
 *
 * <p>Not thread-safe: made by the conductor, or made and attempted by a caller and then handed to the
 * conductor with the call's command (the queue orders the two), and from then on read and written only
 * on the conductor's thread.
 */
public final class AddressQuery
{
    final InetAddress destination;
    /**
     * Whether {@link #destination} is a zero or loopback address, which needs no lookup: asked once, as each
     * ask copies the address's bytes, and the caller's lookup, every attempt and every completion ask (under C1 in
     * the guest, 4.8% of a caller's resolve addr, four asks a call; benchmarks/README.md, issue 32, session 10).
     */
    final boolean anyOrLoopbackDestination;
    /** The call's timeout, whole milliseconds as librdmacm holds it. */
    private final int timeoutMs;
    /** The call's time on the conductor's clock plus the timeout, as the kernel sets {@code req->timeout}. */
    private final long deadlineNanos;
    final ResolutionTrace trace;

    /** The bound source: a concrete address or null for the wildcard. */
    InetAddress source;
    /** {@code bound_dev_if}: the source's netdev, or the scope id of a link-local destination, or 0. */
    int boundIfindex;
    /** The device binding made when a concrete source was bound, else null until resolution ends. */
    RdmaPortBinding binding;

    // What the last attempt found; every attempt finds it again, as addr_resolve does on each retry.
    Route route;
    Link outputLink;
    Link netdev;
    InetAddress effectiveSource;
    byte[] destinationHardwareAddress;

    NeighbourKey waitingOn;
    long waitStartNanos;

    /** The outcome of the attempt made on the caller's thread, or {@link #NOT_ATTEMPTED}. */
    private int earlyStatus = NOT_ATTEMPTED;
    private String earlyDetail;

    /** {@link #earlyStatus()} of a query no caller attempted (no errno is negative). */
    public static final int NOT_ATTEMPTED = -1;

    /**
     * A query for one {@code rdma_resolve_addr} call.
     *
     * @param source       the bound source, or null for the wildcard.
     * @param boundIfindex {@code bound_dev_if}, or 0.
     * @param binding      the binding of a concrete source, or null.
     * @param destination  the address to resolve.
     * @param timeoutMs    the call's timeout in milliseconds.
     * @param startNanos   when the call was made, on the conductor's clock.
     */
    public AddressQuery(
        final InetAddress source, final int boundIfindex, final RdmaPortBinding binding, final InetAddress destination,
        final int timeoutMs, final long startNanos)
    {
        this.source = source;
        this.boundIfindex = boundIfindex;
        this.binding = binding;
        this.destination = destination;
        this.anyOrLoopbackDestination = AddressResolver.isAnyOrLoopback(destination);
        this.timeoutMs = timeoutMs;
        this.deadlineNanos = startNanos + timeoutMs * 1_000_000L;
        this.trace = new ResolutionTrace(System.nanoTime());
    }

    /** {@return the address to resolve} */
    public InetAddress destination()
    {
        return destination;
    }

    /** {@return whether the destination is a zero or loopback address, which needs no lookup} */
    public boolean anyOrLoopbackDestination()
    {
        return anyOrLoopbackDestination;
    }

    /** {@return the call's timeout, whole milliseconds} */
    public int timeoutMs()
    {
        return timeoutMs;
    }

    /** {@return when the query times out, on the conductor's clock} */
    public long deadlineNanos()
    {
        return deadlineNanos;
    }

    /** When the call was made, on the conductor's clock. */
    public long startNanos()
    {
        return deadlineNanos - timeoutMs * 1_000_000L;
    }

    /** {@return the steps taken so far} */
    public ResolutionTrace trace()
    {
        return trace;
    }

    /** {@return the bound source, or null for the wildcard} */
    public InetAddress source()
    {
        return source;
    }

    /** {@return {@code bound_dev_if}: the source's netdev, the scope of a link-local destination, or 0} */
    public int boundIfindex()
    {
        return boundIfindex;
    }

    /** {@return the device binding of a concrete source, or null until resolution ends} */
    public RdmaPortBinding binding()
    {
        return binding;
    }

    /**
     * Whether this query, made and attempted by a caller ({@link AddressResolver#attemptOnCaller}), asks
     * what the conductor would ask: the same addresses, {@code bound_dev_if} and timeout.
     */
    public boolean asks(final InetAddress source, final int boundIfindex, final InetAddress destination,
        final int timeoutMs)
    {
        return Objects.equals(this.source, source) && this.boundIfindex == boundIfindex &&
            this.destination.equals(destination) && this.timeoutMs == timeoutMs;
    }

    /** The binding of the id's concrete source, which a caller's query could not know. */
    public AddressQuery binding(final RdmaPortBinding binding)
    {
        this.binding = binding;
        return this;
    }

    void early(final int status, final String detail)
    {
        this.earlyStatus = status;
        this.earlyDetail = detail;
    }

    /**
     * The caller's attempt: 0 (resolved: the findings are in place), an errno (the attempt failed with
     * {@link #earlyDetail()}), ENODATA (the neighbour is not valid: attempt again and trigger it), or
     * {@link #NOT_ATTEMPTED}.
     */
    public int earlyStatus()
    {
        return earlyStatus;
    }

    /** {@return what the caller's failed attempt was doing, or null} */
    public String earlyDetail()
    {
        return earlyDetail;
    }

    /** Forgets the caller's attempt once used, so that a later attempt (a wait's re-run) asks again. */
    public void earlyUsed()
    {
        earlyStatus = NOT_ATTEMPTED;
        earlyDetail = null;
    }

    /** The source an IDLE id was bound to before it resolved, as {@code cma_bind_addr} binds it. */
    public void bound(final InetAddress source, final AddressResolver.BoundSource bound)
    {
        this.source = source;
        this.boundIfindex = bound.ifindex();
        this.binding = bound.binding();
    }

    /** The neighbour the last attempt waits for, or null when it does not wait. */
    public NeighbourKey waitingOn()
    {
        return waitingOn;
    }

    /** When the wait for {@link #waitingOn()} began, on {@code System.nanoTime}. */
    public long waitStartNanos()
    {
        return waitStartNanos;
    }

    /**
     * Shares the equal key another waiter already holds, so that a thousand resolutions waiting for one
     * neighbour hold one key.
     */
    public void shareWaitKey(final NeighbourKey equalKey)
    {
        if (!equalKey.equals(waitingOn))
        {
            throw new IllegalArgumentException("wait key " + equalKey + " is not " + waitingOn);
        }
        waitingOn = equalKey;
    }

    /**
     * Lets go of the last attempt's findings while the resolution waits: the next attempt looks them up
     * again, and ten thousand waiting resolutions would otherwise hold ten thousand decoded routes and
     * links (the kernel's {@code addr_req} keeps only the addresses, too).
     */
    public void forgetAttempt()
    {
        route = null;
        outputLink = null;
        netdev = null;
        effectiveSource = null;
        destinationHardwareAddress = null;
    }
}
