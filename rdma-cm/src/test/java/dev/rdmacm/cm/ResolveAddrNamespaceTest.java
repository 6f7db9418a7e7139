package dev.rdmacm.cm;

import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.testing.AsUser;
import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.engine.GidDerivation;
import dev.rdmacm.resolver.NeighbourTriggerMode;
import dev.rdmacm.resolver.NetworkType;
import dev.rdmacm.resolver.ResolutionStep;
import dev.rdmacm.verbs.GidType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma_resolve_addr against the real kernel, inside the namespaces of {@link NamespaceTopology}: each
 * result is compared with what {@code ip -j route get}, {@code ip -j neigh} and {@code ip -j link}
 * say in the same namespace.
 */
class ResolveAddrNamespaceTest
{
    private static final int TIMEOUT_MS = 2000;
    private static final String RDMA = NamespaceTopology.RDMA_NETDEV;

    private static NamespaceTopology topology;
    private static RdmaCm cm;
    private static final List<String> transitions = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception
    {
        topology = NamespaceTopology.create();
        cm = RdmaCm.open(RdmaCm.Options.builder()
            .networkNamespace(topology.hostPath())
            .gids(RecordedGids.softRoce())
            .listener((id, from, to, reason) -> transitions.add(id + " " + from + "->" + to + " " + reason)).build());
        // Not the kernel's 64: the resolver must read the sysctl of its own namespace.
        topology.sysctl(topology.host, "net.ipv4.ip_default_ttl", "61");
        // A permanent entry: the "valid neighbour" case needs no resolution at all.
        topology.ip(topology.host, "neigh", "replace", "192.0.2.2", "lladdr", mac(topology.gateway, "b0"), "dev", RDMA,
            "nud", "permanent");
    }

    @AfterAll
    static void stop()
    {
        if (cm != null)
        {
            cm.close();
        }
        if (topology != null)
        {
            topology.close();
        }
    }

    @Test
    void shouldResolveWithAValidNeighbourWithoutTriggeringResolution() throws Exception
    {
        final AddressResolution resolution = resolve(null, "192.0.2.2");
        assertMatchesIp(resolution, RDMA);
        assertNull(step(resolution, "neighbour trigger"), "a PERMANENT neighbour needs no ARP");
        assertEquals(NetworkType.IB, resolution.networkType());
        assertEquals(Gid.parse("::ffff:192.0.2.1"), resolution.sgid());
        assertEquals(Gid.parse("::ffff:192.0.2.2"), resolution.dgid());
        assertEquals("rxe0", resolution.binding().device());
        assertEquals(1, resolution.binding().port());
        assertEquals(3, resolution.binding().gidIndex(), "the RoCE v2 entry of ::ffff:192.0.2.1 in the recorded table");
        assertEquals(GidType.ROCE_V2, resolution.binding().gidType());
        assertEquals(RDMA, resolution.binding().netdev());
        assertEquals(0, resolution.pkey().value(), "ib_addr_get_pkey of an Ethernet broadcast address, as the kernel in the guest says");
        assertEquals(61, resolution.hopLimit(), "no metric: the host namespace's ip_default_ttl");
    }

    /**
     * The lookup runs on the caller's thread: a caller whose uid a {@code uidrange} rule sends to an
     * unreachable route still resolves as the kernel CM does, with uid 0 ({@code ip route get ... uid 0}).
     */
    @Test
    void shouldRouteANonRootCallerAsTheKernelCmWithUidZero() throws Exception
    {
        final int uid = 4242;
        final String range = uid + "-" + uid;
        topology.ip(topology.host, "rule", "add", "uidrange", range, "lookup", String.valueOf(uid), "pref", "100");
        topology.ip(topology.host, "route", "add", "unreachable", "10.3.0.0/24", "table", String.valueOf(uid));
        try
        {
            assertEquals("RTNETLINK answers: No route to host", topology.tryIp(topology.host, "route", "get", "10.3.0.2",
                "uid", String.valueOf(uid)).stderr().strip(), "the rule bites");
            final AddressResolution resolution = AsUser.call(null, uid, () -> resolve(null, "10.3.0.2"));
            final Map<String, Object> expected =
                topology.ipJson(topology.host, "route", "get", "10.3.0.2", "uid", "0").getFirst();
            assertEquals(expected.get("gateway"), resolution.gateway().getHostAddress());
            assertEquals(expected.get("dev"), resolution.netdev());
            assertEquals(expected.get("prefsrc"), resolution.source().getHostAddress());
        }
        finally
        {
            topology.ip(topology.host, "rule", "del", "uidrange", range, "lookup", String.valueOf(uid), "pref", "100");
            topology.ip(topology.host, "route", "flush", "table", String.valueOf(uid));
        }
    }

    /** The trace holds raw values and makes its text when read: the text says what ip says. */
    @Test
    void shouldDescribeItsStepsAsIpShowsTheRouteLinkAndNeighbour() throws Exception
    {
        final AddressResolution resolution = resolve(null, "10.3.0.2");
        final Map<String, Object> route = topology.ipJson(topology.host, "route", "get", "10.3.0.2", "uid", "0").getFirst();
        final Map<String, Object> link = topology.ipJson(topology.host, "link", "show", "dev", RDMA).getFirst();
        final Map<String, Object> neighbour = topology.ipJson(topology.host, "neigh", "show", "192.0.2.2", "dev", RDMA).getFirst();
        assertEquals(route.get("dst") + " via " + route.get("gateway") + " oif " + link.get("ifindex") + " src " +
            route.get("prefsrc"), step(resolution, "route").detail());
        assertEquals(RDMA + " ifindex " + link.get("ifindex") + " type 1 mtu " + link.get("mtu") + " addr " +
            link.get("address"), step(resolution, "link").detail());
        @SuppressWarnings("unchecked") final List<String> state = (List<String>)neighbour.get("state");
        assertEquals("192.0.2.2 " + String.join(",", state) + " lladdr " + neighbour.get("lladdr"),
            step(resolution, "neighbour").detail());
        assertEquals(resolution.binding().toString(), step(resolution, "gid match").detail());
    }

    @Test
    void shouldTriggerAndAwaitANeighbourStillToResolve() throws Exception
    {
        final AddressResolution resolution = resolve(null, "192.0.2.10");
        assertMatchesIp(resolution, RDMA);
        assertEquals("RTM_NEWNEIGH NTF_USE", step(resolution, "neighbour trigger").detail());
        final ResolutionStep wait = step(resolution, "neighbour wait");
        assertNotNull(wait, "the trace times the wait for ARP");
        System.out.println("neighbour 192.0.2.10 resolved after waiting " + wait.tookNanos() / 1000 + " us");
        assertEquals(mac(topology.gateway, "b0"), resolution.destinationHardwareText());
    }

    @Test
    void shouldResolveIpv6WithNeighbourDiscovery() throws Exception
    {
        final AddressResolution resolution = resolve(null, "2001:db8::2");
        assertMatchesIp(resolution, RDMA);
        assertEquals(Gid.parse("2001:db8::1"), resolution.sgid());
        assertEquals(Gid.parse("2001:db8::2"), resolution.dgid());
        assertEquals(5, resolution.binding().gidIndex());
        assertEquals(mac(topology.gateway, "b0"), resolution.destinationHardwareText());
    }

    @Test
    void shouldResolveThroughAGatewayAsRoceV2Network() throws Exception
    {
        final AddressResolution v4 = resolve(null, "10.3.0.2");
        assertMatchesIp(v4, RDMA);
        assertEquals(NetworkType.IPV4, v4.networkType());
        assertEquals(InetAddress.getByName("192.0.2.2"), v4.gateway());
        assertEquals(mac(topology.gateway, "b0"), v4.destinationHardwareText(), "the gateway's MAC, not the far host's");
        assertEquals(Gid.parse("::ffff:10.3.0.2"), v4.dgid());
        assertEquals(7, v4.hopLimit(), "the route's hoplimit metric");

        final AddressResolution v6 = resolve(null, "fd03::2");
        assertMatchesIp(v6, RDMA);
        assertEquals(NetworkType.IPV6, v6.networkType());
        assertEquals(mac(topology.gateway, "b0"), v6.destinationHardwareText());
    }

    @Test
    void shouldResolveALocalDestinationThroughTheNetdevThatOwnsIt() throws Exception
    {
        final AddressResolution resolution = resolve(null, "192.0.2.1");
        final Map<String, Object> route = topology.ipJson(topology.host, "route", "get", "192.0.2.1").getFirst();
        assertEquals("lo", route.get("dev"));
        assertEquals("local", route.get("type"));
        assertEquals(RDMA, resolution.netdev());
        assertEquals(NamespaceTopology.RDMA_NETDEV_MAC, resolution.destinationHardwareText(), "dst hw := src hw");
        assertEquals(NamespaceTopology.RDMA_NETDEV_MAC, resolution.sourceHardwareText());
        assertEquals(resolution.sgid(), resolution.dgid());
    }

    @Test
    void shouldResolveZeroAndLoopbackDestinationsWithoutRouting() throws Exception
    {
        for (final String destination : List.of("127.0.0.1", "0.0.0.0", "::1", "::"))
        {
            final AddressResolution resolution = resolve(null, destination);
            assertTrue(resolution.loopback(), destination);
            assertNull(step(resolution, "route"), destination + " needs no route lookup");
            assertEquals(0, resolution.binding().gidIndex(), "bound to GID index 0 of the ACTIVE rxe0 port");
        }
        // The GIDs a RoCE id reports are those of its addresses, as the real kernel CM reports them
        // (kernel-guest.md; every loopback and zero destination is compared in SoftRoceGuestsTest).
        final AddressResolution loopback = resolve(null, "127.0.0.1");
        assertEquals(Gid.parse("::ffff:127.0.0.1"), loopback.sgid());
        assertEquals(Gid.parse("::ffff:127.0.0.1"), loopback.dgid());
    }

    @Test
    void shouldResolveOnANoArpLinkWithoutANeighbour() throws Exception
    {
        topology.ip(topology.host, "link", "set", RDMA, "arp", "off");
        try
        {
            final AddressResolution resolution = resolve(null, "192.0.2.3"); // nobody has it: no ARP is sent
            assertEquals(RDMA, resolution.netdev());
            assertEquals(0, resolution.destinationHardwareAddress().length());
            assertNull(step(resolution, "neighbour trigger"));
        }
        finally
        {
            topology.ip(topology.host, "link", "set", RDMA, "arp", "on");
        }
    }

    @Test
    void shouldReturnRouteErrorsFromTheCall() throws Exception
    {
        assertCallFails("10.9.0.1", Errno.ENETUNREACH);     // throw route
        assertCallFails("8.8.8.8", Errno.ENETUNREACH);      // no route at all
        assertCallFails("198.18.1.1", Errno.EHOSTUNREACH);   // unreachable
        assertCallFails("198.51.100.1", Errno.EINVAL);      // blackhole
        assertCallFails("203.0.113.1", Errno.EACCES);       // prohibit
        assertCallFails("2001:db8:1::1", Errno.EHOSTUNREACH);
        assertCallFails("2001:db8:2::1", Errno.EACCES);
        assertCallFails("2001:db8:4::1", Errno.ENETUNREACH);
    }

    @Test
    void shouldTimeOutWhenThePeerNeverAnswers() throws Exception
    {
        final int timeoutMs = 1000;
        // The loop runs on a clock only this test moves: the deadline falls when the test says, however
        // late a loaded machine runs the loop thread.
        final ManualNanoClock clock = new ManualNanoClock();
        final List<String> ends = new CopyOnWriteArrayList<>();
        try (RdmaCm timed = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath())
                .gids(RecordedGids.softRoce()).build(), clock, (p, from, to, now) ->
            {
                if (to == PendingResolution.State.FAILED || to == PendingResolution.State.RESOLVED)
                {
                    ends.add(from + " -> " + to + " at " + TimeUnit.NANOSECONDS.toMillis(now - p.query.startNanos()) + " ms");
                }
            });
             EventChannel channel = timed.createEventChannel())
        {
            clock.onAdvance(timed::wakeUp);
            final RdmaCmId id = timed.createId(channel);
            // returns once the resolution waits for the neighbour, its deadline set
            id.resolveAddr(null, InetAddress.getByName("10.4.0.99"), Duration.ofMillis(timeoutMs));
            clock.advance(Duration.ofMillis(timeoutMs - 1));
            clock.advance(Duration.ofMillis(1));
            final CmEvent event = channel.getEvent(Duration.ofSeconds(10));
            event.ack();
            assertEquals(CmEventType.ADDR_ERROR, event.type());
            assertEquals(-Errno.ETIMEDOUT, event.status());
            // at the deadline, not a tick before it: the resolution's own record of when it failed
            assertEquals(List.of("WAITING_FOR_NEIGHBOUR -> FAILED at 1000 ms"), ends);
            assertEquals(CmIdState.ADDR_BOUND, id.state(), "back to ADDR_BOUND: the id may retry");
        }
    }

    @Test
    void shouldRetryAfterAnErrorEvent() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel);
            id.resolveAddr(null, InetAddress.getByName("10.4.0.98"), Duration.ofMillis(300));
            final CmEvent error = channel.getEvent(Duration.ofSeconds(10));
            error.ack();
            assertEquals(CmEventType.ADDR_ERROR, error.type());
            id.resolveAddr(null, InetAddress.getByName("192.0.2.2"), Duration.ofMillis(TIMEOUT_MS));
            final CmEvent resolved = channel.getEvent(Duration.ofSeconds(10));
            resolved.ack();
            assertEquals(CmEventType.ADDR_RESOLVED, resolved.type());
            assertEquals(CmIdState.ADDR_RESOLVED, id.state());
            assertEquals(0, id.unacknowledgedEvents());
        }
    }

    @Test
    void shouldResolveALinkLocalDestinationWithScope() throws Exception
    {
        final InetAddress scoped = java.net.Inet6Address.getByAddress(null,
            InetAddress.getByName("fe80::2").getAddress(), ifindex(RDMA));
        final AddressResolution resolution = resolve(null, scoped);
        assertEquals(RDMA, resolution.netdev());
        assertEquals(InetAddress.getByName("fe80::5054:ff:fe12:3456"), resolution.source());
        assertEquals(Gid.parse("fe80::5054:ff:fe12:3456"), resolution.sgid());
        assertEquals(1, resolution.binding().gidIndex(), "the RoCE v2 entry of the link-local GID");
        assertEquals(mac(topology.gateway, "b0"), resolution.destinationHardwareText());
        final Map<String, Object> route = topology.ipJson(topology.host, "route", "get", "fe80::2", "oif", RDMA).getFirst();
        assertEquals(InetAddress.getByName((String)route.get("prefsrc")), resolution.source());
    }

    @Test
    void shouldResolveALinkLocalDestinationWithoutScopeAsTheKernelRoutesIt() throws Exception
    {
        final NamespaceTopology.ProcessResult ip = topology.tryIp(topology.host, "-j", "route", "get", "fe80::2");
        try (RdmaCmId id = cm.createId(null))
        {
            if (ip.exitStatus() == 0)
            {
                final Map<String, Object> route = NamespaceTopology.parseJsonArray(ip.stdout()).getFirst();
                id.resolveAddr(null, InetAddress.getByName("fe80::2"), Duration.ofMillis(TIMEOUT_MS));
                assertEquals(route.get("dev"), id.resolution().netdev());
            }
            else
            {
                final RdmaCmException error = assertThrows(RdmaCmException.class,
                    () -> id.resolveAddr(null, InetAddress.getByName("fe80::2"), Duration.ofMillis(TIMEOUT_MS)));
                assertTrue(error.returnedByCall());
            }
        }
    }

    @Test
    void shouldRejectALinkLocalSourceWithoutScope() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class, () ->
                id.resolveAddr(InetAddress.getByName("fe80::5054:ff:fe12:3456"), InetAddress.getByName("fe80::2"),
                    Duration.ofMillis(TIMEOUT_MS)));
            assertEquals(Errno.EINVAL, error.errno());
            assertEquals(CmIdState.IDLE, id.state());
        }
    }

    @Test
    void shouldRejectASourceThatIsNotConfigured() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class, () ->
                id.resolveAddr(InetAddress.getByName("192.0.2.77"), InetAddress.getByName("192.0.2.2"), Duration.ofMillis(TIMEOUT_MS)));
            assertEquals(Errno.EADDRNOTAVAIL, error.errno());
            assertTrue(error.returnedByCall());
            assertEquals(CmIdState.IDLE, id.state(), "the auto-bind failed, so the id stays unbound");
        }
    }

    @Test
    void shouldRejectSourceAndDestinationOfDifferentFamilies() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class, () ->
                id.resolveAddr(InetAddress.getByName("192.0.2.1"), InetAddress.getByName("2001:db8::2"), Duration.ofMillis(TIMEOUT_MS)));
            assertEquals(Errno.EINVAL, error.errno());
        }
    }

    @Test
    void shouldUseAGivenSourceAndItsNetdev() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            id.resolveAddr(InetAddress.getByName("192.0.2.1"), InetAddress.getByName("192.0.2.2"), Duration.ofMillis(TIMEOUT_MS));
            final AddressResolution resolution = id.resolution();
            assertEquals(InetAddress.getByName("192.0.2.1"), resolution.source());
            assertEquals(RDMA, resolution.netdev());
            assertNotNull(step(resolution, "local address"));
        }
    }

    @Test
    void shouldFailWithEnodevWhenTheNetdevHasNoRdmaDevice() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel);
            id.resolveAddr(null, InetAddress.getByName("10.5.0.2"), Duration.ofMillis(TIMEOUT_MS));
            final CmEvent event = channel.getEvent(Duration.ofSeconds(10));
            event.ack();
            assertEquals(CmEventType.ADDR_ERROR, event.type());
            assertEquals(-Errno.ENODEV, event.status());
        }
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class, () ->
                id.resolveAddr(InetAddress.getByName("10.5.0.1"), InetAddress.getByName("10.5.0.2"), Duration.ofMillis(TIMEOUT_MS)));
            assertEquals(Errno.ENODEV, error.errno());
            assertTrue(error.returnedByCall(), "binding a concrete source checks the RDMA port up front");
        }
    }

    @Test
    void shouldReportAnErrorWhenTheInterfaceIsDeletedWhileWaiting() throws Exception
    {
        topology.veth(topology.host, "a9", topology.peer, "b9");
        topology.address(topology.host, "a9", "10.8.0.1/24");
        topology.ip(topology.host, "link", "set", "a9", "up");
        topology.ip(topology.peer, "link", "set", "b9", "up");
        try (EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel);
            id.resolveAddr(null, InetAddress.getByName("10.8.0.9"), Duration.ofMillis(30_000));
            assertNull(channel.getEvent(Duration.ofMillis(200)), "still waiting for ARP");
            topology.ip(topology.host, "link", "del", "a9");
            final CmEvent event = channel.getEvent(Duration.ofSeconds(10));
            assertNotNull(event, "an event, not a hang until the 30 s deadline");
            event.ack();
            assertEquals(CmEventType.ADDR_ERROR, event.type());
            assertEquals(-Errno.ENETUNREACH, event.status(), event.toString());
        }
    }

    @Test
    void shouldResolveAThousandIdsConcurrentlyOnOneThread() throws Exception
    {
        final int count = 1000;
        try (EventChannel channel = cm.createEventChannel())
        {
            final List<RdmaCmId> ids = new ArrayList<>();
            for (int i = 0; i < count; i++)
            {
                final RdmaCmId id = cm.createId(channel);
                ids.add(id);
                id.resolveAddr(null, InetAddress.getByName("192.0.2." +
                    (NamespaceTopology.FIRST_EXTRA_GATEWAY_ADDRESS + i % NamespaceTopology.EXTRA_GATEWAY_ADDRESSES)), Duration.ofMillis(10_000));
            }
            final String peerMac = mac(topology.gateway, "b0");
            for (int i = 0; i < count; i++)
            {
                final CmEvent event = channel.getEvent(Duration.ofSeconds(30));
                assertNotNull(event, "event " + i + " of " + count);
                event.ack();
                assertEquals(CmEventType.ADDR_RESOLVED, event.type(), event.toString());
                assertEquals(peerMac, assertInstanceOf(CmEvent.AddrResolved.class, event).resolution().destinationHardwareText());
            }
            assertTrue(ids.stream().allMatch(id -> id.state() == CmIdState.ADDR_RESOLVED));
            final long loops = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("rdmacm-conductor")).count();
            assertEquals(1, loops, "one event-loop thread for all ids");
        }
    }

    @Test
    void shouldTriggerWithAUdpDatagramWhenAskedTo() throws Exception
    {
        topology.address(topology.gateway, "b0", "192.0.2.250/24"); // a neighbour no other test has resolved
        try (RdmaCm udp = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath())
            .gids(RecordedGids.softRoce()).trigger(NeighbourTriggerMode.UDP).build()))
        {
            final RdmaCmId id = udp.createId(null);
            id.resolveAddr(null, InetAddress.getByName("192.0.2.250"), Duration.ofMillis(TIMEOUT_MS));
            assertTrue(step(id.resolution(), "neighbour trigger").detail().startsWith("UDP datagram"));
            assertEquals(mac(topology.gateway, "b0"), id.resolution().destinationHardwareText());
        }
    }

    @Test
    void shouldTraceEveryStateTransition() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            id.resolveAddr(null, InetAddress.getByName("192.0.2.2"), Duration.ofMillis(TIMEOUT_MS));
            final List<String> mine = transitions.stream().filter(t -> t.startsWith(id + " ")).toList();
            assertEquals(List.of("IDLE->ADDR_BOUND", "ADDR_BOUND->ADDR_QUERY", "ADDR_QUERY->ADDR_RESOLVED"),
                mine.stream().map(t -> t.split(" ")[1]).toList());
        }
    }

    // ---- helpers ----

    private static AddressResolution resolve(final String source, final String destination) throws Exception
    {
        return resolve(source, InetAddress.getByName(destination));
    }

    private static AddressResolution resolve(final String source, final InetAddress destination) throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            id.resolveAddr(source == null ? null : InetAddress.getByName(source), destination, Duration.ofMillis(TIMEOUT_MS));
            assertEquals(CmIdState.ADDR_RESOLVED, id.state());
            return id.resolution();
        }
    }

    private static void assertCallFails(final String destination, final int errno) throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class,
                () -> id.resolveAddr(null, InetAddress.getByName(destination), Duration.ofMillis(TIMEOUT_MS)));
            assertEquals(errno, error.errno(), destination + ": " + error.getMessage());
            assertTrue(error.returnedByCall(), destination + " fails in the call, without an event");
            assertEquals(CmIdState.ADDR_BOUND, id.state());
        }
    }

    /** Every field against iproute2: route (dev, prefsrc, gateway), link (address, broadcast), neighbour. */
    private static void assertMatchesIp(final AddressResolution resolution, final String expectedDev) throws Exception
    {
        final String destination = resolution.destination().getHostAddress();
        final Map<String, Object> route = topology.ipJson(topology.host, "route", "get", destination).getFirst();
        assertEquals(expectedDev, route.get("dev"));
        assertEquals(route.get("dev"), resolution.netdev());
        assertEquals(InetAddress.getByName((String)route.get("prefsrc")), resolution.source(), "source");
        final Object gateway = route.get("gateway");
        assertEquals(gateway == null ? null : InetAddress.getByName((String)gateway), resolution.gateway(), "gateway");
        final Map<String, Object> link = topology.ipJson(topology.host, "link", "show", "dev", expectedDev).getFirst();
        assertEquals(link.get("address"), resolution.sourceHardwareText(), "source hardware address");
        assertEquals(((Number)link.get("ifindex")).intValue(), resolution.ifindex());
        assertEquals(link.get("broadcast"), resolution.broadcastAddress().toString());
        if (!resolution.destinationHardwareAddress().isEmpty())
        {
            final String nextHop = gateway == null ? destination : (String)gateway;
            final Map<String, Object> neighbour =
                topology.ipJson(topology.host, "neigh", "show", nextHop, "dev", expectedDev).getFirst();
            assertEquals(neighbour.get("lladdr"), resolution.destinationHardwareText(), "neighbour lladdr");
        }
        assertEquals(GidDerivation.ipToGid(resolution.source()), resolution.sgid());
        assertEquals(GidDerivation.ipToGid(resolution.destination()), resolution.dgid());
        assertArrayEquals(resolution.binding().gid().toBytes(), resolution.sgid().toBytes());
        assertFalse(resolution.steps().isEmpty());
    }

    private static ResolutionStep step(final AddressResolution resolution, final String name)
    {
        return resolution.steps().stream().filter(s -> s.name().equals(name)).findFirst().orElse(null);
    }

    private static String mac(final String ns, final String dev)
    {
        return (String)topology.ipJson(ns, "link", "show", "dev", dev).getFirst().get("address");
    }

    private static int ifindex(final String dev)
    {
        return ((Number)topology.ipJson(topology.host, "link", "show", "dev", dev).getFirst().get("ifindex")).intValue();
    }
}
