package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.NetlinkMirror;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.netlink.TrafficClasses;
import dev.rdmacm.netlink.Vlan;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.path.PathQuery;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.verbs.GidType;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/**
 * The kernel's dispatch in {@code rdma_resolve_route}: an InfiniBand port asks the SA
 * ({@code cma_resolve_ib_route}), a RoCE port builds the path from the route and the netdev
 * ({@code cma_resolve_iboe_route}).
 */
public final class RouteResolver
{
    /** Far beyond any real stack of 802.1Q/802.1ad devices; a loop in IFLA_LINK would otherwise never end. */
    private static final int MAX_VLAN_DEPTH = 8;
    /** A RoCE path step that is not timed ({@link #synthesizeRoce(RouteQuery, Rtnetlink, TrafficClassCache, NetlinkMirror)}). */
    private static final long NOT_TIMED = Long.MIN_VALUE;

    private RouteResolver()
    {
    }

    /** The SA query of {@code r}; completes (on the SA client's thread) with the route or a {@link RouteException}. */
    public static CompletableFuture<ResolvedRoute> queryInfiniband(final SaClient sa, final RouteQuery r)
    {
        final PathQuery query = query(r);
        final long start = System.nanoTime();
        return IbRoute.resolve(sa, query, Duration.ofMillis(r.timeoutMs())).whenComplete((route, failure) ->
        {
            if (route != null)
            {
                r.trace().record("sa path query", start, "PathRecord Get comp_mask 0x" +
                    Long.toHexString(query.componentMask()) + " " + query + " -> " + describe(route.primary().record()));
            }
            else
            {
                r.trace().record("sa path query", start, "PathRecord Get comp_mask 0x" +
                    Long.toHexString(query.componentMask()) + " " + query + " -> " + failure.getMessage());
            }
        });
    }

    /** {@code cma_query_ib_route}'s request for the id's addresses, ports and options. */
    static PathQuery query(final RouteQuery r)
    {
        final AddressResolution a = r.resolution();
        if (r.ibDestination() != null)
        {
            // rdma_get_service_id of an AF_IB destination is its sib_sid as given
            return IbRouteQuery.ib(a.sgid(), a.dgid(), a.pkey().value(), r.ibDestination().serviceId(),
                (int)r.ibSource().flowInfo());
        }
        final long serviceId = IbRouteQuery.ipServiceId(r.portSpace(), r.destinationPort());
        if (a.destination() instanceof Inet4Address)
        {
            return IbRouteQuery.ipv4(a.sgid(), a.dgid(), a.pkey().value(), serviceId, r.tos() == null ? 0 : r.tos());
        }
        return IbRouteQuery.ipv6(a.sgid(), a.dgid(), a.pkey().value(), serviceId, r.sourceFlowinfo());
    }

    /**
     * {@code cma_resolve_iboe_route}, on the event loop's thread (in the resolver's namespace): the
     * bound netdev's MTU from rtnetlink, the hop limit resolve_addr kept ({@code dev_addr.hoplimit}).
     */
    public static ResolvedRoute synthesizeRoce(final RouteQuery r, final Rtnetlink rtnetlink, final TrafficClassCache trafficClasses)
        throws RouteException
    {
        return synthesizeRoce(r, rtnetlink, trafficClasses, null, System.nanoTime());
    }

    /**
     * The same on the caller's thread, the netdev taken from {@code mirror} when it holds it and is live, as
     * the caller's address lookup takes it ({@code AddressResolver}); else asked of the kernel. An absent link
     * is always asked, so a netdev the mirror has not heard of yet is never missed, and a vanished one gives
     * the kernel's ENODEV. The trace's "roce path" step is recorded at the query's own start, with no
     * duration: the synthesis only computes from what the mirror holds, and a clock read to time it (a
     * system call in a TCG guest) cost more than the step.
     *
     * @param mirror the conductor's links.
     */
    public static ResolvedRoute synthesizeRoce(final RouteQuery r, final Rtnetlink rtnetlink, final TrafficClassCache trafficClasses,
        final NetlinkMirror mirror) throws RouteException
    {
        return synthesizeRoce(r, rtnetlink, trafficClasses, mirror, NOT_TIMED);
    }

    /** @param stepStartNanos when the step began, or {@link #NOT_TIMED} to record it at the trace's start. */
    private static ResolvedRoute synthesizeRoce(final RouteQuery r, final Rtnetlink rtnetlink, final TrafficClassCache trafficClasses,
        final NetlinkMirror mirror, final long stepStartNanos) throws RouteException
    {
        final AddressResolution a = r.resolution();
        if (a.ifindex() == 0)
        {
            throw new RouteException(Errno.ENODEV, "the id is bound to no netdev (bound_dev_if 0)");
        }
        final Link netdev;
        try
        {
            final Link mirrored = mirrored(mirror, a.ifindex(), rtnetlink);
            netdev = mirrored != null ? mirrored : rtnetlink.link(a.ifindex());
        }
        catch (final IOException | ErrnoException ex)
        {
            throw new RouteException(Errno.ENODEV, "netdev " + a.ifindex() + ": " + ex.getMessage());
        }
        final PriorityMap priorities;
        try
        {
            priorities = priorityMap(netdev, rtnetlink, trafficClasses);
        }
        catch (final IOException | ErrnoException ex)
        {
            throw new RouteException(ex instanceof ErrnoException e ? e.errno() : Errno.EIO,
                "traffic classes of " + netdev.name() + ": " + ex.getMessage());
        }
        final RoceRouteInput.Builder input = RoceRouteInput.builder()
            .gids(GidDerivation.ipToGid(a.source()), GidDerivation.ipToGid(a.destination()))
            .ports(r.sourcePort(), r.destinationPort())
            .hopLimit(a.hopLimit())
            .netdevMtu(netdev.mtu())
            .idTos(r.tos())
            .ackTimeout(r.ackTimeout())
            .portSupportsRoceV2(a.binding().gidType() == GidType.ROCE_V2)
            .priorityToTrafficClass(priorities.map())
            .destinationMac(RoceRouteSynthesizer.destinationMac(a))
            .profile(r.kernelProfile());
        if (a.source() instanceof Inet6Address)
        {
            input.ipv6Source(r.sourceFlowinfo());
        }
        final ResolvedRoute route = new ResolvedRoute(ResolvedRoute.Kind.ROCE_SYNTHESIZED, RoceRouteSynthesizer.path(input.build()));
        final Supplier<String> detail = () -> netdev.name() + " mtu " + netdev.mtu() + " hop limit " + a.hopLimit() +
            " sl from " + priorities.source() + " -> " + describe(route.primary().record());
        if (stepStartNanos == NOT_TIMED)
        {
            r.trace().recordAtWhenRead("roce path", r.trace().startNanos(), detail);
        }
        else
        {
            r.trace().recordWhenRead("roce path", stepStartNanos, detail);
        }
        return route;
    }

    /** The mirror's link of {@code ifindex} if it has it and was current while it was read ({@link NetlinkMirror#readStamp}); else null. */
    private static Link mirrored(final NetlinkMirror mirror, final int ifindex, final Rtnetlink asking)
    {
        if (mirror == null)
        {
            return null;
        }
        return mirror.link(ifindex, mirror.readStamp(asking));
    }

    /**
     * The priority to SL map of a bound netdev, and where it came from, for the trace: the netdev whose map it
     * is and its traffic classes (null for a VLAN's egress QoS map), made text only when the trace is read.
     */
    record PriorityMap(IntUnaryOperator map, Link netdev, TrafficClasses classes)
    {
        String source()
        {
            if (classes != null && classes.present())
            {
                return netdev.name() + " " + classes;
            }
            return netdev.name() + (netdev.vlan() != null ? " egress-qos-map" : " num_tc 0");
        }
    }

    /**
     * {@code iboe_tos_to_sl}'s map for the bound netdev. A VLAN: its real device's traffic classes when
     * that has {@code num_tc}, else the VLAN's egress QoS map ({@code get_vlan_ndev_tc}). Another netdev:
     * its own traffic classes, else every priority maps to 0. The kernel first walks a netdev's lower
     * devices and takes the first one's map (a bond: its first slave's); that walk is not done here, so
     * a netdev with lower devices reads its own classes instead (docs/kernel-cm-comparison.md).
     */
    static PriorityMap priorityMap(final Link netdev, final Rtnetlink rtnetlink, final TrafficClassCache trafficClasses)
        throws IOException
    {
        final Vlan vlan = netdev.vlan();
        if (vlan != null)
        {
            final Link real = realDevice(netdev, rtnetlink);
            final TrafficClasses classes = trafficClasses.of(real, rtnetlink);
            if (classes.present())
            {
                return new PriorityMap(classes::trafficClass, real, classes);
            }
            return new PriorityMap(vlan::egressPriority, netdev, null);
        }
        final TrafficClasses classes = trafficClasses.of(netdev, rtnetlink);
        if (classes.present())
        {
            return new PriorityMap(classes::trafficClass, netdev, classes);
        }
        return new PriorityMap(RoceRouteInput.NO_TRAFFIC_CLASSES, netdev, null);
    }

    /** {@code vlan_dev_real_dev}: down the VLAN's lower devices ({@code IFLA_LINK}) to the first that is no VLAN. */
    private static Link realDevice(final Link vlanDevice, final Rtnetlink rtnetlink) throws IOException
    {
        Link device = vlanDevice;
        for (int depth = 0; device.vlan() != null && device.vlan().lowerIfindex() != 0; depth++)
        {
            if (depth > MAX_VLAN_DEPTH)
            {
                throw new IOException("VLAN " + vlanDevice.name() + " nests deeper than " + MAX_VLAN_DEPTH + " devices");
            }
            device = rtnetlink.link(device.vlan().lowerIfindex());
        }
        return device;
    }

    static String describe(final PathRecordValue path)
    {
        return "dlid " + path.dlid() + " slid " + path.slid() + " sl " + path.sl() + " mtu " + path.mtu() +
            " rate " + path.rate() + " pkt_life " + path.packetLifeTime() + " hop_limit " + path.hopLimit() +
            " tclass " + path.tClass() + " flow_label 0x" + Integer.toHexString(path.flowLabel());
    }
}
