package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.netlink.NetlinkMessageHandler;
import dev.rdmacm.netlink.NetlinkSocket;
import dev.rdmacm.netlink.Route;
import dev.rdmacm.netlink.Rtnetlink;

import java.io.IOException;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * The kernel's route answers, kept until anything they may depend on changes: opt-in
 * ({@code RdmaCm.Options.Builder#routeCache}), off by default (docs/decisions.md, resolver).
 * <p>
 * A key is exactly what the lookup asks: destination (its family with it), source, output ifindex;
 * the lookup sends no mark and no TOS, and one uid for every request. Only answers without a gateway
 * are kept (on-link and local destinations); a refused lookup (EHOSTUNREACH, EACCES...) and a route
 * through a gateway are asked of the kernel every time. Which gateway the kernel picks can follow a
 * neighbour entry that changes with no notification: a nexthop group passes over a member whose
 * entry is not valid ({@code nexthop_is_good_nh}), and the entry that traffic or a neighbour trigger
 * creates INCOMPLETE is announced to no one (the differential test found it); an IPv6 router that a
 * probe takes from FAILED back to INCOMPLETE is chosen again, silently too.
 * <p>
 * The cache listens on a NETLINK_ROUTE socket of its own, in every group whose change can alter a
 * lookup: routes, rules, nexthops, links, addresses, netconf (IPv4 and IPv6), and neighbours (an IPv6
 * host prefers a router whose neighbour entry is not FAILED, and IPv4 multipath may, with
 * {@code fib_multipath_use_neigh}). Before each answer it reads what is queued there without
 * blocking: any notification, or ENOBUFS (notifications were lost), empties it. The kernel queues a
 * notification before the request that made the change returns, so an answer given after a change is
 * the state after it. Its own socket, not the conductor's event socket: the conductor reads events
 * after the commands of its duty cycle, which would let a resolution queued behind a change read the
 * entry the change made stale.
 * <p>
 * Shared by the conductor and the callers that resolve on their own threads (each through its own
 * rtnetlink client): the reads of the notification socket and of the map take one lock, the kernel's
 * round trip does not. An answer is kept only if no flush came between the check before the question
 * and the one after the answer (a generation count), so an answer the kernel gave before a change is
 * never kept after that change's flush.
 */
public final class RouteCache implements AutoCloseable
{
    /** Beyond this many answers the cache starts again empty: a bound, not an eviction policy. */
    public static final int DEFAULT_CAPACITY = 4096;
    private static final int[] GROUPS = {
        NetlinkSocket.RTNLGRP_IPV4_ROUTE, NetlinkSocket.RTNLGRP_IPV6_ROUTE, NetlinkSocket.RTNLGRP_IPV4_RULE,
        NetlinkSocket.RTNLGRP_IPV6_RULE, NetlinkSocket.RTNLGRP_NEXTHOP, NetlinkSocket.RTNLGRP_LINK,
        NetlinkSocket.RTNLGRP_IPV4_IFADDR, NetlinkSocket.RTNLGRP_IPV6_IFADDR, NetlinkSocket.RTNLGRP_IPV4_NETCONF,
        NetlinkSocket.RTNLGRP_IPV6_NETCONF, NetlinkSocket.RTNLGRP_NEIGH};
    private static final String[] GROUP_NAMES = {
        "RTNLGRP_IPV4_ROUTE", "RTNLGRP_IPV6_ROUTE", "RTNLGRP_IPV4_RULE", "RTNLGRP_IPV6_RULE", "RTNLGRP_NEXTHOP",
        "RTNLGRP_LINK", "RTNLGRP_IPV4_IFADDR", "RTNLGRP_IPV6_IFADDR", "RTNLGRP_IPV4_NETCONF", "RTNLGRP_IPV6_NETCONF",
        "RTNLGRP_NEIGH"};

    private final NetlinkSocket changes;
    private final int capacity;
    private final Map<Key, Route> routes = new HashMap<>();
    private final NetlinkMessageHandler ignore = (header, buffer, end) -> { };
    private long hits;
    private long misses;
    private long flushes;
    private long overflows;
    /** Counts the flushes: an answer asked before one is not kept after it. */
    private long generation;

    private RouteCache(final NetlinkSocket changes, final int capacity)
    {
        this.changes = changes;
        this.capacity = capacity;
    }

    /** A cache listening in the calling thread's network namespace. */
    public static RouteCache open() throws NativeCallException
    {
        return open(0, DEFAULT_CAPACITY);
    }

    /**
     * A cache that listens for the namespace's route, address and link changes and empties on any.
     *
     * @param receiveBufferBytes the listening socket's SO_RCVBUF, or 0 for the system's default (a
     *                           small one makes the kernel drop notifications: ENOBUFS, a flush).
     * @param capacity           how many answers it holds before it empties.
     */
    public static RouteCache open(final int receiveBufferBytes, final int capacity) throws NativeCallException
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("route cache capacity " + capacity + " must be at least 1");
        }
        final NetlinkSocket socket = NetlinkSocket.open();
        try
        {
            if (receiveBufferBytes > 0)
            {
                socket.receiveBufferSize(receiveBufferBytes);
            }
            for (int i = 0; i < GROUPS.length; i++)
            {
                socket.joinGroup(GROUPS[i], GROUP_NAMES[i]);
            }
            return new RouteCache(socket, capacity);
        }
        catch (final RuntimeException ex)
        {
            socket.close();
            throw ex;
        }
    }

    /**
     * {@link Rtnetlink#route}, answered from the cache when nothing changed since the kernel gave the answer.
     *
     * @param rtnetlink the calling thread's own client (a socket answers one question at a time).
     */
    public Route route(final Rtnetlink rtnetlink, final InetAddress destination, final InetAddress source,
        final int outputIfindex) throws IOException
    {
        final Key key = new Key(destination, source, outputIfindex);
        final long asked;
        synchronized (this)
        {
            flushIfChanged();
            final Route cached = routes.get(key);
            if (cached != null)
            {
                hits++;
                return cached;
            }
            misses++;
            asked = generation;
        }
        final Route route = rtnetlink.route(destination, source, outputIfindex);
        if (route.hasGateway())
        {
            // which gateway the kernel picks may follow a neighbour entry that changes without a notification
            return route;
        }
        synchronized (this)
        {
            // a change queued while the kernel answered flushes now, and this answer is not kept
            flushIfChanged();
            if (generation == asked)
            {
                if (routes.size() >= capacity)
                {
                    routes.clear();
                }
                routes.put(key, route);
            }
        }
        return route;
    }

    /** Empties the cache when a notification (or ENOBUFS, notifications lost) is queued on its socket. */
    private void flushIfChanged() throws NativeCallException
    {
        final int notifications = changes.drain(ignore);
        if (notifications != 0)
        {
            if (notifications < 0)
            {
                overflows++;
            }
            flush();
        }
    }

    /** Forgets every answer. */
    public synchronized void flush()
    {
        if (!routes.isEmpty())
        {
            routes.clear();
        }
        generation++;
        flushes++;
    }

    /** {@return the answers held now} */
    public synchronized int size()
    {
        return routes.size();
    }

    /** {@return the lookups answered from the cache} */
    public synchronized long hits()
    {
        return hits;
    }

    /** {@return the lookups that asked the kernel} */
    public synchronized long misses()
    {
        return misses;
    }

    /** How many times it was emptied: a notification, ENOBUFS, or {@link #flush()}. */
    public synchronized long flushes()
    {
        return flushes;
    }

    /** How many times the kernel reported lost notifications (ENOBUFS). */
    public synchronized long overflows()
    {
        return overflows;
    }

    @Override
    public synchronized void close()
    {
        routes.clear();
        changes.close();
    }

    @Override
    public synchronized String toString()
    {
        return "RouteCache{size=" + routes.size() + ", hits=" + hits + ", misses=" + misses + ", flushes=" + flushes +
            ", overflows=" + overflows + "}";
    }

    /** Exactly what one lookup asks (the address's class is its family); null source: the kernel's choice. */
    private record Key(InetAddress destination, InetAddress source, int outputIfindex)
    {
    }
}
