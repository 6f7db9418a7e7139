package dev.rdmacm.netlink;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.testing.AsUser;
import dev.rdmacm.libc.testing.NamespaceThread;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.netlink.wire.NetlinkAttribute;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.testing.HostCommand;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Our rtnetlink decoders against iproute2's view of the same kernel state, inside test namespaces. */
class RtnetlinkTest
{
    /** A user no one on the machine is: {@link AsUser} takes it for one thread. */
    private static final int NON_ROOT_UID = 4242;

    private static NamespaceTopology topology;
    private static NamespaceThread inHost;

    @BeforeAll
    static void createNamespaces()
    {
        topology = NamespaceTopology.create();
        inHost = new NamespaceThread(topology.hostPath());
    }

    @AfterAll
    static void deleteNamespaces() throws Exception
    {
        if (inHost != null)
        {
            inHost.close();
        }
        if (topology != null)
        {
            topology.close();
        }
    }

    @Test
    void shouldMatchIpRouteGetForDirectlyConnectedDestination() throws Exception
    {
        assertRouteMatchesIp("192.0.2.2", null, null);
    }

    @Test
    void shouldMatchIpRouteGetForDestinationBehindGateway() throws Exception
    {
        final Route route = assertRouteMatchesIp("10.3.0.2", null, null);
        assertEquals("192.0.2.2", route.gateway().getHostAddress());
    }

    @Test
    void shouldMatchIpRouteGetForGivenSource() throws Exception
    {
        assertRouteMatchesIp("192.0.2.2", "192.0.2.1", null);
    }

    @Test
    void shouldMatchIpRouteGetForLocalDestination() throws Exception
    {
        final Route route = assertRouteMatchesIp("192.0.2.1", null, null);
        assertEquals(RouteMessage.RTN_LOCAL, route.type());
    }

    @Test
    void shouldMatchIpRouteGetForIpv6Destinations() throws Exception
    {
        assertRouteMatchesIp("2001:db8::2", null, null);
        final Route viaGateway = assertRouteMatchesIp("fd03::2", null, null);
        assertEquals("2001:db8:0:0:0:0:0:2", viaGateway.gateway().getHostAddress());
    }

    @Test
    void shouldMatchIpRouteGetForLinkLocalDestinationBoundToDevice() throws Exception
    {
        assertRouteMatchesIp("fe80::2", null, NamespaceTopology.RDMA_NETDEV);
    }

    /**
     * A rule that only uid {@value #NON_ROOT_UID} meets sends 10.3.0.0/24 and fd03::/64 to an
     * unreachable route; a caller of that uid must still get the route {@code ip route get ... uid 0}
     * gives, the kernel CM's (addr4_resolve and addr6_resolve route with a zeroed flow).
     */
    @Test
    void shouldRouteAsUidZeroForANonRootCallerThatAUidrangeRuleWouldCatch() throws Exception
    {
        final String table = String.valueOf(NON_ROOT_UID);
        final String range = NON_ROOT_UID + "-" + NON_ROOT_UID;
        topology.ip(topology.host, "-4", "rule", "add", "uidrange", range, "lookup", table, "pref", "100");
        topology.ip(topology.host, "-6", "rule", "add", "uidrange", range, "lookup", table, "pref", "100");
        topology.ip(topology.host, "route", "add", "unreachable", "10.3.0.0/24", "table", table);
        topology.ip(topology.host, "route", "add", "unreachable", "fd03::/64", "table", table);
        try
        {
            for (final String destination : List.of("10.3.0.2", "fd03::2"))
            {
                final NamespaceTopology.ProcessResult asUser = topology.tryIp(topology.host, "route", "get", destination,
                    "uid", String.valueOf(NON_ROOT_UID));
                assertEquals("RTNETLINK answers: No route to host", asUser.stderr().strip(), "the rule bites " + destination);
                final Map<String, Object> expected =
                    topology.ipJson(topology.host, "route", "get", destination, "uid", "0").getFirst();
                final Route route = AsUser.call(topology.hostPath(), NON_ROOT_UID, () ->
                {
                    try (Rtnetlink rtnetlink = Rtnetlink.open())
                    {
                        return rtnetlink.route(InetAddress.getByName(destination), null, 0);
                    }
                });
                assertEquals(RouteMessage.RTN_UNICAST, route.type(), destination);
                assertEquals(ifindex((String)expected.get("dev")), route.outputIfindex(), destination + " dev");
                assertEquals(InetAddress.getByName((String)expected.get("gateway")), route.gateway(), destination + " via");
                assertEquals(address(expected.get("prefsrc")), route.preferredSource(), destination + " prefsrc");
            }
        }
        finally
        {
            topology.ip(topology.host, "-4", "rule", "del", "uidrange", range, "lookup", table, "pref", "100");
            topology.ip(topology.host, "-6", "rule", "del", "uidrange", range, "lookup", table, "pref", "100");
            topology.ip(topology.host, "-4", "route", "flush", "table", table);
            topology.ip(topology.host, "-6", "route", "flush", "table", table);
        }
    }

    @Test
    void shouldReportTheKernelErrnoForEachErrorRoute() throws Exception
    {
        assertRouteErrno("198.18.1.1", Errno.EHOSTUNREACH, "No route to host");
        assertRouteErrno("203.0.113.1", Errno.EACCES, "Permission denied");
        assertRouteErrno("198.51.100.1", Errno.EINVAL, "Invalid argument");
        assertRouteErrno("10.9.0.1", Errno.ENETUNREACH, "Network is unreachable");
        assertRouteErrno("2001:db8:1::1", Errno.EHOSTUNREACH, "No route to host");
        assertRouteErrno("2001:db8:2::1", Errno.EACCES, "Permission denied");
        assertRouteErrno("2001:db8:4::1", Errno.ENETUNREACH, "Network is unreachable");
    }

    @Test
    void shouldMatchIpLinkShowForVethAndLoopbackLinks() throws Exception
    {
        for (final String name : List.of(NamespaceTopology.RDMA_NETDEV, "lo", "a2"))
        {
            final Map<String, Object> expected = topology.ipJson(topology.host, "link", "show", "dev", name).getFirst();
            final int ifindex = ((Number)expected.get("ifindex")).intValue();
            final Link link = inHost.call(() ->
            {
                try (Rtnetlink rtnetlink = Rtnetlink.open())
                {
                    return rtnetlink.link(ifindex);
                }
            });
            assertEquals(name, link.name());
            assertEquals(((Number)expected.get("mtu")).intValue(), link.mtu());
            assertEquals(expected.get("address"), link.addressText());
            assertEquals(expected.get("broadcast"), link.broadcastText());
            assertEquals(linkType(expected.get("link_type")), link.type(), name);
            @SuppressWarnings("unchecked") final List<String> flags = (List<String>)expected.get("flags");
            assertEquals(flags.contains("NOARP"), link.isNoArp(), name + " NOARP");
            assertEquals(flags.contains("LOOPBACK"), link.isLoopback(), name + " LOOPBACK");
            assertEquals(flags.contains("UP"), (link.flags() & LinkMessage.IFF_UP) != 0, name + " UP");
        }
    }

    /** The VLAN case runs in the kernel guest (SoftRoceGuestsTest): this host's kernel has no 802.1Q support. */
    @Test
    void shouldReportNoVlanForAVeth() throws Exception
    {
        final int a2 = ifindex("a2");
        final Link link = inHost.call(() ->
        {
            try (Rtnetlink rtnetlink = Rtnetlink.open())
            {
                return rtnetlink.link(a2);
            }
        });
        assertEquals(null, link.vlan());
    }

    /** The kind is what an RTNLGRP_LINK listener tells a bond master by; a veth's is {@code veth}, lo has none. */
    @Test
    void shouldReportTheLinkKindAndTransmitQueuesAsIpDetailsShowThem() throws Exception
    {
        for (final String name : List.of("a2", "lo"))
        {
            final Map<String, Object> expected = topology.ipJson(topology.host, "-d", "link", "show", "dev", name).getFirst();
            @SuppressWarnings("unchecked") final Map<String, Object> info = (Map<String, Object>)expected.get("linkinfo");
            final int ifindex = ((Number)expected.get("ifindex")).intValue();
            final Link link = inHost.call(() ->
            {
                try (Rtnetlink rtnetlink = Rtnetlink.open())
                {
                    return rtnetlink.link(ifindex);
                }
            });
            assertEquals(info == null ? "" : info.get("info_kind"), link.kind(), name);
            assertEquals(((Number)expected.get("num_tx_queues")).intValue(), link.txQueues(), name);
            assertEquals(0, link.event(), "a reply carries no IFLA_EVENT");
        }
    }

    /** The mqprio case runs in the kernel guest (SoftRoceGuestsTest): this host's kernel has no sch_mqprio. */
    @Test
    void shouldReportNoTrafficClassesWhereTcShowsNoMqprioRoot() throws Exception
    {
        final int a2 = ifindex("a2");
        final String qdiscs = HostCommand.run(Duration.ofSeconds(30), "tc", "-n", topology.host, "qdisc", "show", "dev", "a2")
            .orFail("tc qdisc show").output();
        assertTrue(qdiscs.startsWith("qdisc ") && !qdiscs.contains("mqprio"), qdiscs);
        final TrafficClasses classes = inHost.call(() ->
        {
            try (Rtnetlink rtnetlink = Rtnetlink.open())
            {
                return rtnetlink.trafficClasses(a2);
            }
        });
        assertEquals(TrafficClasses.none(a2), classes);
    }

    @Test
    void shouldReportEnodevForAnUnknownIfindex() throws Exception
    {
        final NetlinkException error = assertThrows(NetlinkException.class, () -> inHost.call(() ->
        {
            try (Rtnetlink rtnetlink = Rtnetlink.open())
            {
                return rtnetlink.link(999_999);
            }
        }));
        assertEquals(Errno.ENODEV, error.errno());
    }

    @Test
    void shouldFindTheInterfaceOwningALocalAddress() throws Exception
    {
        final int rdmaNetdev = ifindex(NamespaceTopology.RDMA_NETDEV);
        final InterfaceAddress owner = inHost.call(() ->
        {
            try (Rtnetlink rtnetlink = Rtnetlink.open())
            {
                return rtnetlink.findLocalAddress(InetAddress.getByName("2001:db8::1"), 0);
            }
        });
        assertEquals(rdmaNetdev, owner.ifindex());
        assertEquals(64, owner.prefixLength());
        assertNull(inHost.call(() ->
        {
            try (Rtnetlink rtnetlink = Rtnetlink.open())
            {
                return rtnetlink.findLocalAddress(InetAddress.getByName("10.1.0.7"), 0);
            }
        }));
    }

    @Test
    void shouldResolveANeighbourWithNtfUseAndMatchIpNeigh() throws Exception
    {
        final int a3 = ifindex("a3");
        final InetAddress peer = InetAddress.getByName("10.5.0.2");
        final Neighbour neighbour = inHost.call(() ->
        {
            try (Rtnetlink rtnetlink = Rtnetlink.open(); NetlinkSocket events = NetlinkSocket.open())
            {
                events.joinGroup(NetlinkSocket.RTNLGRP_NEIGH, "RTNLGRP_NEIGH");
                assertNull(rtnetlink.neighbour(a3, peer), "no entry before the trigger");
                rtnetlink.triggerNeighbourResolution(a3, peer);
                final long deadline = System.nanoTime() + 5_000_000_000L;
                Neighbour current = rtnetlink.neighbour(a3, peer);
                while (!current.isValid() && System.nanoTime() < deadline)
                {
                    waitForEvent(events);
                    current = rtnetlink.neighbour(a3, peer);
                }
                return current;
            }
        });
        final Map<String, Object> expected =
            topology.ipJson(topology.host, "neigh", "show", "10.5.0.2", "dev", "a3").getFirst();
        assertEquals(expected.get("lladdr"), neighbour.linkLayerText());
        assertEquals(topology.ipJson(topology.peer, "link", "show", "dev", "b3").getFirst().get("address"),
            neighbour.linkLayerText());
        @SuppressWarnings("unchecked") final List<String> state = (List<String>)expected.get("state");
        assertEquals(String.join(",", state), neighbour.stateText());
        assertTrue(neighbour.isValid());
    }

    @Test
    void shouldCarryTheKernelsExtendedAckText() throws Exception
    {
        // RTM_F_LOOKUP_TABLE is valid for IPv4 only; strict checking rejects it for IPv6 with a text.
        final NetlinkException error = assertThrows(NetlinkException.class, () -> inHost.call(() ->
        {
            try (NetlinkSocket socket = NetlinkSocket.open())
            {
                final UnsafeBuffer buffer = socket.requestBuffer();
                new NetlinkMessageHeader().wrap(buffer, 0).type(NetlinkMessageHeader.RTM_GETROUTE)
                    .flags(NetlinkMessageHeader.NLM_F_REQUEST).sequence(socket.nextSequence());
                final RouteMessage route = new RouteMessage().wrap(buffer, NetlinkMessageHeader.LENGTH).clear()
                    .family(10).dstLength(128).flags(RouteMessage.RTM_F_LOOKUP_TABLE);
                final byte[] dst = InetAddress.getByName("2001:db8::2").getAddress();
                final int end = NetlinkAttribute.put(buffer, route.attributesOffset(), RouteMessage.RTA_DST, dst, 16);
                socket.transact(end, "RTM_GETROUTE", (header, b, e) -> { });
                return null;
            }
        }));
        assertEquals(Errno.EINVAL, error.errno());
        assertEquals("ipv6: Invalid flags for get route request", error.extendedAck());
    }

    private static void waitForEvent(final NetlinkSocket events) throws Exception
    {
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined())
        {
            final java.lang.foreign.MemorySegment pollfd = arena.allocate(8, 4);
            pollfd.set(java.lang.foreign.ValueLayout.JAVA_INT, 0, events.fd());
            pollfd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 4, dev.rdmacm.libc.Libc.POLLIN);
            dev.rdmacm.libc.Libc.poll(new dev.rdmacm.libc.Libc.CallState(arena), pollfd, 1, 1000);
            events.drain((header, buffer, end) -> { });
        }
    }

    private static Route assertRouteMatchesIp(final String destination, final String source, final String device)
        throws Exception
    {
        final List<String> args = new java.util.ArrayList<>(List.of("route", "get", destination));
        if (source != null)
        {
            args.addAll(List.of("from", source));
        }
        if (device != null)
        {
            args.addAll(List.of("oif", device));
        }
        final Map<String, Object> expected = topology.ipJson(topology.host, args.toArray(String[]::new)).getFirst();
        final int oif = device == null ? 0 : ifindex(device);
        final Route route = inHost.call(() ->
        {
            try (Rtnetlink rtnetlink = Rtnetlink.open())
            {
                return rtnetlink.route(InetAddress.getByName(destination),
                    source == null ? null : InetAddress.getByName(source), oif);
            }
        });
        assertEquals(InetAddress.getByName((String)expected.get("dst")), route.destination(), "dst");
        assertEquals(ifindex((String)expected.get("dev")), route.outputIfindex(), "dev");
        assertEquals(address(expected.get("prefsrc")), route.preferredSource(), "prefsrc");
        assertEquals(address(expected.get("from")), route.source(), "from");
        final Object gateway = expected.get("gateway");
        assertEquals(gateway == null ? null : InetAddress.getByName((String)gateway), route.gateway(), "gateway");
        final String type = (String)expected.getOrDefault("type", "unicast");
        assertEquals(type.equals("local") ? RouteMessage.RTN_LOCAL : RouteMessage.RTN_UNICAST, route.type(), "type");
        return route;
    }

    private static InetAddress address(final Object text) throws Exception
    {
        return text == null ? null : InetAddress.getByName((String)text);
    }

    private static void assertRouteErrno(final String destination, final int errno, final String ipMessage)
        throws Exception
    {
        final NamespaceTopology.ProcessResult ip = topology.tryIp(topology.host, "route", "get", destination);
        assertEquals("RTNETLINK answers: " + ipMessage, ip.stderr().strip(), destination);
        final NetlinkException error = assertThrows(NetlinkException.class, () -> inHost.call(() ->
        {
            try (Rtnetlink rtnetlink = Rtnetlink.open())
            {
                return rtnetlink.route(InetAddress.getByName(destination), null, 0);
            }
        }));
        assertEquals(errno, error.errno(), destination);
        assertEquals(Errno.description(errno), ipMessage);
    }

    private static int ifindex(final String name)
    {
        return ((Number)topology.ipJson(topology.host, "link", "show", "dev", name).getFirst().get("ifindex")).intValue();
    }

    private static int linkType(final Object ipLinkType)
    {
        return switch ((String)ipLinkType)
        {
            case "ether" -> LinkMessage.ARPHRD_ETHER;
            case "loopback" -> LinkMessage.ARPHRD_LOOPBACK;
            case "infiniband" -> LinkMessage.ARPHRD_INFINIBAND;
            default -> throw new AssertionError("link type " + ipLinkType);
        };
    }
}
