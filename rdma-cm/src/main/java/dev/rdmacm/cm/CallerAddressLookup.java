package dev.rdmacm.cm;

import dev.rdmacm.netlink.NetlinkMirror;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.netlink.RtnetlinkPool;
import dev.rdmacm.resolver.engine.AddressQuery;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.engine.AddressResolver;
import dev.rdmacm.resolver.engine.ResolutionFailure;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.function.BiConsumer;

/**
 * {@code rdma_resolve_addr}'s lookup on the caller's thread, as the kernel does it inside the caller's
 * write to {@code rdma_cm}: the route through a pooled rtnetlink client opened in the {@link RdmaCm}'s
 * namespace, the links and the neighbour from the conductor's mirror. The caller reads the id's
 * {@link IdView} to ask what the conductor will ask; the conductor adopts the attempted query only if
 * the id's state, read again on its thread, asks the same ({@link AddressPhase}), and takes the
 * id's moves, the port and the GIDs itself. A neighbour that is not valid is left to the conductor,
 * which triggers it and waits, as before.
 * <p>
 * Thread-safe: the pool lends each caller a client of its own; the resolver's attempt reads only the
 * mirror and the client it is given.
 */
final class CallerAddressLookup implements AutoCloseable
{
    /** Clients in the pool: callers past this many at once take the conductor's way. */
    static final int POOL_SIZE = 4;

    private final AddressResolver resolver;
    private final RtnetlinkPool pool;
    private final NetlinkMirror mirror;
    /** The conductor's one place a pending resolution changes state, for one a caller finishes. */
    private final BiConsumer<PendingResolution, PendingResolution.State> transition;

    CallerAddressLookup(final AddressResolver resolver, final RtnetlinkPool pool, final NetlinkMirror mirror,
        final BiConsumer<PendingResolution, PendingResolution.State> transition)
    {
        this.resolver = resolver;
        this.pool = pool;
        this.mirror = mirror;
        this.transition = transition;
    }

    /**
     * {@code addr_handler}'s completion of an attempted query with status 0, on the caller's thread
     * ({@link CallerResolution}): the resolution, or null when only the conductor can make it.
     */
    AddressResolution complete(final AddressQuery query) throws ResolutionFailure
    {
        return resolver.completeOnCaller(query);
    }

    /** A pooled client for a caller's RoCE route ({@link CallerRoute}), or null when all are lent out. */
    Rtnetlink borrow()
    {
        return pool.borrow();
    }

    /** Gives back what {@link #borrow} lent. */
    void release(final Rtnetlink client)
    {
        pool.release(client);
    }

    /**
     * Whether the conductor's mirror is filled and whole: the conductor fills it when it starts a
     * resolution (and again after lost notifications), so while it is not, resolutions go its way.
     */
    boolean mirrorLive()
    {
        return (mirror.generation() & 1) == 0;
    }

    /** The conductor's links, addresses and neighbours, which a caller reads without a lock (under its generation). */
    NetlinkMirror mirror()
    {
        return mirror;
    }

    /** A resolution the caller finished moves as the conductor moves one, through its transition. */
    void transition(final PendingResolution p, final PendingResolution.State next)
    {
        transition.accept(p, next);
    }

    /**
     * The query the conductor would make for this call, attempted here; null when the call is one the
     * conductor must see first (an id in another state, a concrete source to bind, mixed families, a
     * loopback or zero destination, which needs no lookup) or every client is lent out.
     */
    AddressQuery attempt(final IdView view, final InetAddress source, final InetAddress destination, final int timeoutMs,
        final long startNanos)
    {
        final InetAddress querySource;
        final int boundIfindex;
        switch (view.state())
        {
            case IDLE ->
            {
                if (source != null && (!source.isAnyLocalAddress() || !sameFamily(source, destination)))
                {
                    return null;
                }
                querySource = null;
                boundIfindex = destination instanceof Inet6Address v6 && v6.isLinkLocalAddress() ? v6.getScopeId() : 0;
            }
            case ADDR_BOUND ->
            {
                final InetAddress bound = view.boundSource();
                if (view.ibSource() != null || bound != null && !sameFamily(bound, destination))
                {
                    return null;
                }
                querySource = bound == null || bound.isAnyLocalAddress() ? null : bound;
                boundIfindex = view.boundIfindex();
            }
            default ->
            {
                return null;
            }
        }
        final AddressQuery query = new AddressQuery(querySource, boundIfindex, null, destination, timeoutMs, startNanos);
        if (query.anyOrLoopbackDestination())
        {
            return null;
        }
        final Rtnetlink client = pool.borrow();
        if (client == null)
        {
            return null;
        }
        try
        {
            resolver.attemptOnCaller(query, client);
            return query;
        }
        catch (final RuntimeException ex)
        {
            return null; // the conductor's way reports it, with the call's errno
        }
        finally
        {
            pool.release(client);
        }
    }

    @Override
    public void close()
    {
        pool.close();
    }

    private static boolean sameFamily(final InetAddress a, final InetAddress b)
    {
        return (a instanceof Inet4Address) == (b instanceof Inet4Address);
    }
}
