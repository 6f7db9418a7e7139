package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.libc.SysctlFile;
import dev.rdmacm.netlink.HardwareAddress;
import dev.rdmacm.netlink.InterfaceAddress;
import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.Neighbour;
import dev.rdmacm.netlink.NetlinkMirror;
import dev.rdmacm.netlink.Route;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.NetworkType;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.verbs.GidType;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The kernel's rules for {@code rdma_resolve_addr} (drivers/infiniband/core/cma.c and addr.c), run
 * against the real IP stack over rtnetlink: binding a source, one resolution attempt (route, source
 * netdev, neighbour) and the final device binding. No threads and no timers: the event loop decides
 * when to attempt again.
 */
public final class AddressResolver implements AddressRules
{
    /** The P_Key of a resolved RoCE address, as the kernel reports it before the route: 0 (why: where it is set). */
    static final int ROCE_ADDRESS_PKEY = 0;

    /** The kernel's default TTL and IPv6 hop limit, used when the sysctl cannot be read. */
    private static final int DEFAULT_HOP_LIMIT = 64;
    // InetAddress is immutable: one instance of each serves every id.
    /** {@code INADDR_ANY}, the wildcard source. */
    public static final InetAddress IPV4_ANY = InetAddress.ofLiteral("0.0.0.0");
    private static final InetAddress IPV6_ANY = InetAddress.ofLiteral("::");
    private static final InetAddress IPV4_LOOPBACK = InetAddress.ofLiteral("127.0.0.1");
    private static final InetAddress IPV6_LOOPBACK = InetAddress.ofLiteral("::1");

    private final Rtnetlink rtnetlink;
    private final NeighbourTrigger trigger;
    private final GidDirectory gids;
    /** The opt-in route cache, or null: every lookup asks the kernel. Closed with this resolver. */
    private final RouteCache routeCache;
    /** The namespace's links, addresses and neighbours as notifications left them, or null: ask the kernel. */
    private final NetlinkMirror mirror;
    private final SysctlFile ipv4DefaultTtl = new SysctlFile(Path.of("/proc/sys/net/ipv4/ip_default_ttl"));
    /** By netdev name; an entry lives as long as the resolver, one per device ever routed over. */
    private final Map<String, SysctlFile> ipv6HopLimits = new HashMap<>();

    /**
     * A resolver that asks the kernel every time: no route cache, no mirror.
     *
     * @param rtnetlink the owner thread's client.
     * @param trigger   what makes a missing neighbour entry resolve.
     * @param gids      the RDMA devices' GID tables.
     */
    public AddressResolver(final Rtnetlink rtnetlink, final NeighbourTrigger trigger, final GidDirectory gids)
    {
        this(rtnetlink, trigger, gids, null, null);
    }

    /**
     * A resolver with the conductor's mirror and route cache.
     *
     * @param rtnetlink  the owner thread's client: routes, and what the mirror cannot answer.
     * @param mirror     links, addresses and neighbours kept by the owner thread, or null.
     * @param routeCache the route answers to reuse ({@link RouteCache}, opened in the same namespace, shared
     *                   by the owner thread and the callers' lookups), or null to ask the kernel every time
     *                   (the default).
     */
    public AddressResolver(final Rtnetlink rtnetlink, final NeighbourTrigger trigger, final GidDirectory gids,
        final NetlinkMirror mirror, final RouteCache routeCache)
    {
        this.rtnetlink = rtnetlink;
        this.trigger = trigger;
        this.gids = gids;
        this.mirror = mirror;
        this.routeCache = routeCache;
    }

    /**
     * A bound concrete source: its netdev ({@code bound_dev_if}) and its RDMA port.
     *
     * @param hardwareAddress the netdev's MAC at bind time, the {@code src_dev_addr} that
     *                        {@code rdma_copy_src_l2_addr} stores (none without a netdev)
     */
    public record BoundSource(int ifindex, RdmaPortBinding binding, HardwareAddress hardwareAddress)
    {
        BoundSource(final int ifindex, final RdmaPortBinding binding)
        {
            this(ifindex, binding, HardwareAddress.NONE);
        }
    }

    /**
     * {@code rdma_bind_addr} of a concrete address: it must be configured on a netdev
     * ({@code rdma_translate_ip}, else EADDRNOTAVAIL) whose RDMA port holds the matching GID (else ENODEV).
     */
    @Override
    public BoundSource bindSource(final InetAddress source, final ResolutionTrace trace) throws ResolutionFailure
    {
        if (source instanceof Inet6Address v6 && v6.isLinkLocalAddress() && v6.getScopeId() == 0)
        {
            throw new ResolutionFailure(Errno.EINVAL, "link-local source " + source.getHostAddress() +
                " needs a scope id (e.g. %eth0)");
        }
        final int scope = source instanceof Inet6Address v6 ? v6.getScopeId() : 0;
        long start = System.nanoTime();
        final long stamp = mirrorStamp(rtnetlink);
        final InterfaceAddress owner = localAddress(source, scope, rtnetlink, stamp);
        if (owner == null)
        {
            trace.record("local address", start, source.getHostAddress() + " is not configured");
            throw new ResolutionFailure(Errno.EADDRNOTAVAIL,
                "source " + source.getHostAddress() + " is not configured on any interface");
        }
        final Link netdev = link(owner.ifindex(), rtnetlink, stamp);
        trace.localAddress(start, source, netdev);
        start = System.nanoTime();
        // A loopback source binds in the real 6.1 kernel (SoftRoceGuestsTest: 127.0.0.1 and ::1 on rxe0,
        // the first device), although cma_acquire_dev_by_src_ip asks for an IB-type GID that a RoCE table
        // does not seem to hold; we bind it as cma_bind_loopback does, to the first ACTIVE port.
        final RdmaPortBinding binding = netdev.isLoopback() ? gids.loopbackPort().orElse(null) : findPort(netdev, source);
        if (binding == null)
        {
            trace.record("gid match", start, "no RDMA port for " + netdev.name());
            throw new ResolutionFailure(Errno.ENODEV, "no RDMA port holds the GID of " + source.getHostAddress() +
                " on " + netdev.name());
        }
        trace.gidMatch(start, binding);
        return new BoundSource(netdev.ifindex(), binding, HardwareAddress.of(netdev.address()));
    }

    /**
     * One pass of {@code addr_resolve}. Returns 0 when the addresses are resolved and
     * {@link Errno#ENODATA} while the neighbour is not valid yet (resolution has been triggered).
     *
     * @throws ResolutionFailure with the kernel's errno when a step fails (a route error, a vanished link...).
     */
    @Override
    public int attempt(final AddressQuery p) throws ResolutionFailure
    {
        return attempt(p, rtnetlink, true, System.nanoTime());
    }

    /**
     * The same attempt on a caller's thread, before the owner thread sees the call ({@code rdma_resolve_addr}
     * looks the route and neighbour up in the caller's write, as here): the route through {@code routes}
     * (a pooled client in the owner's namespace), the links and neighbour from the mirror, or from the
     * kernel where the mirror has no valid answer. A neighbour that is not valid is not triggered: the
     * attempt ends ENODATA, and the owner thread runs it again, triggering and waiting as ever. The
     * outcome is left in {@code p} ({@link AddressQuery#earlyStatus()}) for the owner to adopt.
     */
    public void attemptOnCaller(final AddressQuery p, final Rtnetlink routes)
    {
        try
        {
            // the query was made for this attempt a moment ago: its trace's start is the route step's
            p.early(attempt(p, routes, false, p.trace.startNanos()), null);
        }
        catch (final ResolutionFailure failure)
        {
            p.early(failure.errno(), failure.getMessage());
        }
    }

    /** {@code stepStartNanos}: when the route step begins; each step after it begins as the one before ends. */
    private int attempt(final AddressQuery p, final Rtnetlink rt, final boolean mayTrigger, final long stepStartNanos)
        throws ResolutionFailure
    {
        if (p.anyOrLoopbackDestination)
        {
            return 0;
        }
        final InetAddress destination = p.destination;
        long start = stepStartNanos;
        // one stamp for the attempt's mirror reads: each is checked against it (stillCurrent, a volatile
        // read), and whatever the kernel changed before the attempt began is in the tables or makes it stale
        final long stamp = mirrorStamp(rt);
        final Route route;
        try
        {
            route = routeCache == null ? rt.route(destination, p.source, p.boundIfindex) :
                routeCache.route(rt, destination, p.source, p.boundIfindex);
        }
        catch (final IOException | ErrnoException ex)
        {
            trace(p, "route", start, ex);
            throw failure(ex);
        }
        p.route = route;
        p.effectiveSource = route.effectiveSource();
        if (p.effectiveSource == null)
        {
            throw new ResolutionFailure(Errno.EADDRNOTAVAIL, "the route to " + destination.getHostAddress() +
                " has no preferred source");
        }
        start = p.trace.route(start, route);
        p.outputLink = link(route.outputIfindex(), rt, stamp);
        if (p.outputLink.isLoopback())
        {
            // rdma_set_src_addr_rcu: a local destination is reached through the netdev that owns it.
            final InterfaceAddress owner = localAddress(destination, 0, rt, stamp);
            if (owner == null)
            {
                throw new ResolutionFailure(Errno.ENODEV, "no netdev owns local destination " +
                    destination.getHostAddress());
            }
            p.netdev = owner.ifindex() == p.outputLink.ifindex() ? p.outputLink : link(owner.ifindex(), rt, stamp);
        }
        else
        {
            p.netdev = p.outputLink;
        }
        start = p.trace.link(start, p.netdev);

        if (p.outputLink.isLoopback())
        {
            p.destinationHardwareAddress = p.netdev.address();
            return 0;
        }
        if (p.outputLink.isNoArp())
        {
            p.destinationHardwareAddress = new byte[0];
            p.trace.record("neighbour", System.nanoTime(), p.outputLink.name() + " is NOARP: nothing to resolve");
            return 0;
        }
        if (p.netdev.isInfiniband() && route.hasGateway())
        {
            // The kernel asks ibacm over RDMA netlink (RDMA_NL_LS_OP_IP_RESOLVE); without a listener: EADDRNOTAVAIL.
            throw new ResolutionFailure(Errno.EADDRNOTAVAIL, "IPoIB destination behind gateway " +
                route.gateway().getHostAddress() + " needs an ibacm resolver on RDMA netlink");
        }
        return fetchNeighbour(p, route, rt, mayTrigger, start, stamp);
    }

    private int fetchNeighbour(final AddressQuery p, final Route route, final Rtnetlink rt, final boolean mayTrigger,
        final long start, final long stamp) throws ResolutionFailure
    {
        final InetAddress nextHop = route.nextHop();
        final int ifindex = route.outputIfindex();
        final Neighbour neighbour = neighbour(ifindex, nextHop, rt, stamp);
        if (neighbour != null && neighbour.isValid())
        {
            p.trace.neighbour(start, nextHop, neighbour);
            p.destinationHardwareAddress = neighbour.linkLayerAddress();
            if (p.waitingOn != null)
            {
                p.trace.record("neighbour wait", p.waitStartNanos, nextHop.getHostAddress() + " " + neighbour.stateText());
                p.waitingOn = null;
            }
            return 0;
        }
        p.trace.neighbour(start, nextHop, neighbour);
        if (!mayTrigger)
        {
            return Errno.ENODATA;
        }
        final long triggerStart = System.nanoTime();
        final String how;
        try
        {
            how = trigger.trigger(ifindex, nextHop);
        }
        catch (final IOException | ErrnoException ex)
        {
            throw failure(ex);
        }
        p.trace.recordShared("neighbour trigger", triggerStart, how);
        if (p.waitingOn == null)
        {
            p.waitStartNanos = System.nanoTime();
        }
        p.waitingOn = new NeighbourKey(ifindex, nextHop);
        return Errno.ENODATA;
    }

    /** {@code addr_handler}: binds the source to an RDMA port if not yet bound, and fills in the GIDs. */
    @Override
    public AddressResolution complete(final AddressQuery p) throws ResolutionFailure
    {
        return complete(p, false);
    }

    private AddressResolution complete(final AddressQuery p, final boolean onCaller) throws ResolutionFailure
    {
        final long start = System.nanoTime();
        if (p.anyOrLoopbackDestination)
        {
            return completeLoopback(p, start);
        }
        final Link netdev = p.netdev;
        final InetAddress source = p.effectiveSource;
        RdmaPortBinding binding = p.binding;
        if (binding == null)
        {
            binding = findPort(netdev, source);
            if (binding == null)
            {
                p.trace.record("gid match", start, "no RDMA port for " + netdev.name());
                throw new ResolutionFailure(Errno.ENODEV, "no RDMA port holds the GID of " + source.getHostAddress() +
                    " on " + netdev.name());
            }
        }
        p.trace.gidMatch(start, binding);
        final boolean ib = netdev.isInfiniband();
        final Gid sgid = ib ? GidDerivation.ipoibGid(netdev.address()) : GidDerivation.ipToGid(source);
        final byte[] dstHw = p.destinationHardwareAddress;
        final Gid dgid = ib && dstHw.length == GidDerivation.IPOIB_HARDWARE_ADDRESS_LENGTH ?
            GidDerivation.ipoibGid(dstHw) : ib ? sgid : GidDerivation.ipToGid(p.destination);
        // ib_addr_get_pkey (include/rdma/ib_addr.h) reads bytes 8-9 of the netdev's broadcast address: an
        // Ethernet one is 6 bytes in a zeroed MAX_ADDR_LEN array, so on RoCE the id's P_Key reads 0 after
        // resolve_addr (the real kernel in SoftRoceGuestsTest); the path's 0xffff comes with the route.
        final int pkey = ib ? GidDerivation.ipoibPkey(netdev.broadcastAddress()) : ROCE_ADDRESS_PKEY;
        final NetworkType networkType = p.route.hasGateway() && !ib ?
            (p.destination instanceof Inet4Address ? NetworkType.IPV4 : NetworkType.IPV6) : NetworkType.IB;
        final int hopLimit = p.route.hopLimit() != 0 ? p.route.hopLimit() : defaultHopLimit(p.destination, netdev.name(), onCaller);
        if (hopLimit < 0)
        {
            return null;
        }
        return new AddressResolution(source, p.destination, false, netdev.ifindex(), netdev.name(), netdev.type(),
            p.route.gateway(), networkType, hopLimit, HardwareAddress.of(netdev.address()),
            HardwareAddress.of(netdev.broadcastAddress()), HardwareAddress.of(dstHw),
            sgid, dgid, PKey.of(pkey), binding, p.trace.stepsWhenRead());
    }

    /**
     * {@link #complete} on a caller's thread, for a query the caller attempted ({@link #attemptOnCaller})
     * and that needs no waiting: the same resolution, or null when only the owner thread can make it
     * (a loopback destination, or a default hop limit whose sysctl the owner has not opened yet: a
     * sysctl under /proc/sys/net answers in the namespace of the thread that opened it, and this
     * caller's may be another).
     *
     * @param p the caller's query, attempted with status 0.
     * @return the resolution, or null (then the caller's query has a step of its trace more than the
     *         owner's would: the owner attempts afresh).
     * @throws ResolutionFailure as {@link #complete}.
     */
    public AddressResolution completeOnCaller(final AddressQuery p) throws ResolutionFailure
    {
        if (p.anyOrLoopbackDestination || p.route == null || p.netdev == null ||
            p.route.hopLimit() == 0 && !hopLimitOpen(p.destination, p.netdev.name()))
        {
            return null;
        }
        return complete(p, true);
    }

    private synchronized boolean hopLimitOpen(final InetAddress destination, final String netdev)
    {
        final SysctlFile sysctl = destination instanceof Inet4Address ? ipv4DefaultTtl : ipv6HopLimits.get(netdev);
        return sysctl != null && sysctl.isOpen();
    }

    private AddressResolution completeLoopback(final AddressQuery p, final long start) throws ResolutionFailure
    {
        RdmaPortBinding binding = p.binding;
        if (binding == null)
        {
            final Optional<RdmaPortBinding> port = gids.loopbackPort();
            if (port.isEmpty())
            {
                p.trace.record("gid match", start, "no RDMA device");
                throw new ResolutionFailure(Errno.ENODEV, "no RDMA device for a loopback destination");
            }
            binding = port.get();
        }
        p.trace.record("gid match", start, binding + " (loopback: DGID = SGID)");
        final InetAddress source = p.source != null ? p.source : loopbackOf(p.destination);
        // On RoCE the GIDs an id reports are rdma_ip2gid of its addresses (rdma_read_gids, which
        // librdmacm's RDMA_USER_CM_QUERY_GID returns), not the bound port's GID: 127.0.0.1 gives
        // ::ffff:127.0.0.1 (the real kernel in SoftRoceGuestsTest). InfiniBand keeps the port's GID.
        final boolean roce = binding.gidType() != GidType.IB;
        final Gid sgid = roce ? GidDerivation.ipToGid(source) : binding.gid();
        final Gid dgid = roce ? GidDerivation.ipToGid(p.destination) : binding.gid();
        return new AddressResolution(source, p.destination, true, 0, null, 0, null, NetworkType.IB, 0,
            HardwareAddress.NONE, HardwareAddress.NONE, HardwareAddress.NONE, sgid, dgid, binding.pkey(), binding,
            p.trace.stepsWhenRead());
    }

    /** {@code cma_acquire_dev_by_src_ip} for one netdev: IPoIB by hardware-address GID, RoCE by IP GID. */
    private RdmaPortBinding findPort(final Link netdev, final InetAddress source)
    {
        if (netdev.isInfiniband())
        {
            if (netdev.address().length != GidDerivation.IPOIB_HARDWARE_ADDRESS_LENGTH)
            {
                return null;
            }
            return gids.findInfinibandGid(GidDerivation.ipoibGid(netdev.address())).orElse(null);
        }
        return gids.findRoceGid(GidDerivation.ipToGid(source), netdev.name()).orElse(null);
    }

    /**
     * The stamp one lookup's mirror reads are checked against ({@link NetlinkMirror#readStamp}: a
     * zero-timeout poll of the events socket), taken once before them: {@link NetlinkMirror#STALE} without
     * a mirror. Each read cost a poll of its own before (up to three per attempt, issue 32).
     */
    private long mirrorStamp(final Rtnetlink rt)
    {
        return mirror == null ? NetlinkMirror.STALE : mirror.readStamp(rt);
    }

    /**
     * The link of {@code ifindex}: the mirror's while it is current ({@code stamp}, {@link #mirrorStamp}),
     * else the kernel's (RTM_GETLINK, ENODEV when there is none). The mirror answers only when it has the
     * link: an absence is asked of the kernel, so a link the mirror has not heard of yet is never missed.
     */
    private Link link(final int ifindex, final Rtnetlink rt, final long stamp) throws ResolutionFailure
    {
        final Link link = mirror == null ? null : mirror.link(ifindex, stamp);
        if (link != null)
        {
            return link;
        }
        try
        {
            return rt.link(ifindex);
        }
        catch (final IOException | ErrnoException ex)
        {
            throw failure(ex);
        }
    }

    /**
     * The neighbour entry of {@code nextHop}: the mirror's when it holds a valid one, else the kernel's
     * (RTM_GETNEIGH), since the kernel makes some entries without a notification (NOARP ones of
     * multicast groups) and a not-valid answer leads to a trigger and a wait anyway.
     */
    private Neighbour neighbour(final int ifindex, final InetAddress nextHop, final Rtnetlink rt, final long stamp)
        throws ResolutionFailure
    {
        final Neighbour neighbour = mirror == null ? null : mirror.validNeighbour(ifindex, nextHop, stamp);
        if (neighbour != null)
        {
            return neighbour;
        }
        try
        {
            return rt.neighbour(ifindex, nextHop);
        }
        catch (final IOException | ErrnoException ex)
        {
            throw failure(ex);
        }
    }

    /** The local address {@code address} (on {@code ifindex} if not 0): the mirror's, else the kernel's dump. */
    private InterfaceAddress localAddress(final InetAddress address, final int ifindex, final Rtnetlink rt,
        final long stamp) throws ResolutionFailure
    {
        final InterfaceAddress found = mirror == null ? null : mirror.address(address, ifindex, stamp);
        if (found != null)
        {
            return found;
        }
        try
        {
            return rt.findLocalAddress(address, ifindex);
        }
        catch (final IOException | ErrnoException ex)
        {
            throw failure(ex);
        }
    }

    /**
     * {@code ip4_dst_hoplimit} / {@code ip6_dst_hoplimit} for a route without an RTAX_HOPLIMIT metric:
     * the namespace's {@code ip_default_ttl}, or the device's IPv6 {@code hop_limit}, read at each
     * resolution as the kernel does, through descriptors kept open (measured: reopening the file cost
     * four system calls and 20 KB of garbage per {@code resolveAddr}, issue 15). /proc/sys/net shows
     * the network namespace of the thread that opens it, which is the loop thread's.
     */
    /** Synchronized: callers' threads complete too ({@link #completeOnCaller}), and the files share a buffer. */
    private synchronized int defaultHopLimit(final InetAddress destination, final String netdev, final boolean onCaller)
    {
        final SysctlFile sysctl = destination instanceof Inet4Address ? ipv4DefaultTtl :
            ipv6HopLimits.computeIfAbsent(netdev, name -> new SysctlFile(Path.of("/proc/sys/net/ipv6/conf", name, "hop_limit")));
        if (onCaller && !sysctl.isOpen())
        {
            return -1; // closed by a failed read since the caller looked: only the owner opens it, in its namespace
        }
        try
        {
            return sysctl.readInt();
        }
        catch (final IOException ex)
        {
            return DEFAULT_HOP_LIMIT;
        }
    }

    @Override
    public void close()
    {
        ipv4DefaultTtl.close();
        ipv6HopLimits.values().forEach(SysctlFile::close);
        ipv6HopLimits.clear();
        if (routeCache != null)
        {
            routeCache.close();
        }
    }

    /** Zero ({@code 0.0.0.0/8}, {@code ::}) and loopback ({@code 127/8}, {@code ::1}) skip routing entirely. */
    public static boolean isAnyOrLoopback(final InetAddress address)
    {
        final byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address)
        {
            return bytes[0] == 0 || bytes[0] == 127;
        }
        for (int i = 0; i < 15; i++)
        {
            if (bytes[i] != 0)
            {
                return false;
            }
        }
        return bytes[15] == 0 || bytes[15] == 1;
    }

    /**
     * The wildcard address ({@code 0.0.0.0} or {@code ::}) of the family of {@code address}: shared,
     * since every id auto-bound by {@code resolveAddr} holds one (56 bytes each, issue 15).
     */
    public static InetAddress wildcardOf(final InetAddress address)
    {
        return address instanceof Inet4Address ? IPV4_ANY : IPV6_ANY;
    }

    static InetAddress loopbackOf(final InetAddress address)
    {
        return address instanceof Inet4Address ? IPV4_LOOPBACK : IPV6_LOOPBACK;
    }

    private static void trace(final AddressQuery p, final String step, final long start, final Exception ex)
    {
        p.trace.record(step, start, ex.getMessage());
    }

    /** A netlink or libc failure keeps its errno; any other I/O failure is EIO. */
    static ResolutionFailure failure(final Exception ex)
    {
        if (ex instanceof ErrnoException e)
        {
            return new ResolutionFailure(e.errno(), e.getMessage());
        }
        return new ResolutionFailure(Errno.EIO, ex.toString());
    }
}
