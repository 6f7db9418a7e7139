package dev.rdmacm.netlink;

import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.testing.NamespaceThread;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The mirror of links, addresses and neighbours against iproute2's view of the same namespace: after
 * its dumps, after notifications, and after notifications the kernel dropped (ENOBUFS).
 */
@Timeout(120)
class NetlinkMirrorTest
{
    private NamespaceTopology topology;
    private NamespaceThread inHost;
    private NetlinkSocket events;
    private NetlinkMirror mirror;

    @BeforeEach
    void createNamespaces() throws Exception
    {
        topology = NamespaceTopology.create();
        inHost = new NamespaceThread(topology.hostPath());
        events = inHost.call(() ->
        {
            final NetlinkSocket socket = NetlinkSocket.open();
            socket.joinGroup(NetlinkSocket.RTNLGRP_LINK, "RTNLGRP_LINK");
            socket.joinGroup(NetlinkSocket.RTNLGRP_NEIGH, "RTNLGRP_NEIGH");
            socket.joinGroup(NetlinkSocket.RTNLGRP_IPV4_IFADDR, "RTNLGRP_IPV4_IFADDR");
            socket.joinGroup(NetlinkSocket.RTNLGRP_IPV6_IFADDR, "RTNLGRP_IPV6_IFADDR");
            return socket;
        });
        mirror = new NetlinkMirror(events);
    }

    @AfterEach
    void deleteNamespaces()
    {
        if (events != null)
        {
            events.close();
        }
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
    void shouldHoldWhatIpShowsAfterItsDumps() throws Exception
    {
        permanentNeighbour("add", "02:00:00:00:00:77");
        final long before = mirror.generation();
        assertTrue(mirror.synchronise(mirror::apply));
        assertEquals(NetlinkMirror.State.LIVE, mirror.state());
        assertTrue(NetlinkMirror.wasLive(mirror.generation(), mirror.generation()));
        assertTrue(!NetlinkMirror.wasLive(before, mirror.generation()), "a reader across the dump sees it");
        assertMirrorsIp("");
    }

    @Test
    void shouldFollowNotificationsAfterItsDumps() throws Exception
    {
        assertTrue(mirror.synchronise(mirror::apply));
        topology.ip(topology.host, "link", "add", "m1", "type", "veth", "peer", "name", "m2");
        topology.ip(topology.host, "link", "set", "m1", "up");
        topology.ip(topology.host, "address", "add", "198.19.0.1/24", "dev", "m1");
        topology.ip(topology.host, "address", "add", "fd19::1/64", "dev", "m1", "nodad");
        topology.ip(topology.host, "neigh", "add", "198.19.0.2", "lladdr", "02:00:00:00:19:02", "dev", "m1", "nud",
            "reachable");
        awaitMirrorsIp("m1");
        final int m1 = ifindex("m1");
        assertNotNull(mirror.links().link(m1));
        assertEquals(m1, mirror.addresses().find(InetAddress.getByName("198.19.0.1"), 0).ifindex());

        topology.ip(topology.host, "link", "del", "m1");
        awaitMirrorsIp("m1");
        assertEquals(null, mirror.links().link(m1));
        assertEquals(null, mirror.addresses().find(InetAddress.getByName("198.19.0.1"), 0));
        assertEquals(null, mirror.neighbours().neighbour(m1, InetAddress.getByName("198.19.0.2")));
    }

    @Test
    void shouldSynchroniseAgainAfterTheKernelDroppedNotifications() throws Exception
    {
        assertTrue(mirror.synchronise(mirror::apply));
        events.receiveBufferSize(1);
        final StringBuilder batch = new StringBuilder();
        for (int i = 1; i <= 250; i++)
        {
            batch.append("neigh add 192.0.2.").append(i + 2).append(" lladdr 02:00:00:00:01:")
                .append(String.format("%02x", i)).append(" dev ").append(NamespaceTopology.RDMA_NETDEV)
                .append(" nud permanent\n");
        }
        topology.batch(topology.host, batch.toString());
        assertEquals(-1, events.drain(mirror::apply), "the kernel dropped notifications");
        mirror.invalidate();
        assertEquals(NetlinkMirror.State.EMPTY, mirror.state());
        events.receiveBufferSize(1 << 20);
        assertTrue(mirror.synchronise(mirror::apply));
        assertMirrorsIp("");
        for (int i = 1; i <= 250; i++)
        {
            assertNotNull(mirror.neighbours().neighbour(ifindex(NamespaceTopology.RDMA_NETDEV),
                InetAddress.getByName("192.0.2." + (i + 2))), "entry " + i + " of the batch");
        }
    }

    @Test
    void shouldReadStaleWhileTheSocketHoldsANotificationTheTablesLack() throws Exception
    {
        assertTrue(mirror.synchronise(mirror::apply));
        try (Rtnetlink reader = inHost.call(Rtnetlink::open))
        {
            final int rdma = ifindex(NamespaceTopology.RDMA_NETDEV);
            assertTrue(mirror.stillCurrent(mirror.readStamp(reader)), "nothing queued after the dumps");

            topology.ip(topology.host, "link", "set", NamespaceTopology.RDMA_NETDEV, "mtu", "9000");
            final long queued = mirror.readStamp(reader);

            assertEquals(NetlinkMirror.STALE, queued, "the kernel queued RTM_NEWLINK before ip returned");
            assertEquals(1500, mirror.links().link(rdma).mtu(), "the tables still hold the old MTU");
            assertTrue(events.drain(mirror::apply) > 0);
            final long applied = mirror.readStamp(reader);
            assertEquals(9000, mirror.links().link(rdma).mtu());
            assertTrue(mirror.stillCurrent(applied));
        }
    }

    @Test
    void shouldReadStaleWhileTheOwnerHoldsNotificationsItHasNotApplied() throws Exception
    {
        assertTrue(mirror.synchronise(mirror::apply));
        try (Rtnetlink reader = inHost.call(Rtnetlink::open))
        {
            final long before = mirror.readStamp(reader);

            mirror.notificationsReading();
            final long during = mirror.readStamp(reader);
            mirror.notificationsRead();

            assertEquals(NetlinkMirror.STALE, during);
            assertTrue(!mirror.stillCurrent(before), "a read that spanned the owner's reading");
            assertTrue(mirror.stillCurrent(mirror.readStamp(reader)));
        }
    }

    @Test
    void shouldAnswerALinkNeighbourAndAddressUnderACurrentStamp() throws Exception
    {
        permanentNeighbour("add", "02:00:00:00:00:77");
        assertTrue(mirror.synchronise(mirror::apply));
        try (Rtnetlink reader = inHost.call(Rtnetlink::open))
        {
            final int rdma = ifindex(NamespaceTopology.RDMA_NETDEV);
            final long stamp = mirror.readStamp(reader);

            assertEquals(1500, mirror.link(rdma, stamp).mtu());
            assertEquals("02:00:00:00:00:77", mirror.validNeighbour(rdma, InetAddress.getByName("192.0.2.77"), stamp)
                .linkLayerText());
            assertEquals(rdma, mirror.address(InetAddress.getByName("192.0.2.1"), 0, stamp).ifindex());
        }
    }

    @Test
    void shouldNotAnswerALinkUnderAStampTheOwnerHasAppliedAChangeSince() throws Exception
    {
        assertTrue(mirror.synchronise(mirror::apply));
        try (Rtnetlink reader = inHost.call(Rtnetlink::open))
        {
            final int rdma = ifindex(NamespaceTopology.RDMA_NETDEV);
            final long stamp = mirror.readStamp(reader);

            topology.ip(topology.host, "link", "set", NamespaceTopology.RDMA_NETDEV, "mtu", "9000");
            applyAsTheOwner();

            assertEquals(9000, mirror.links().link(rdma).mtu(), "the tables hold the change");
            assertEquals(null, mirror.link(rdma, stamp), "a reader that took its stamp before it asks the kernel");
            assertEquals(9000, mirror.link(rdma, mirror.readStamp(reader)).mtu());
        }
    }

    @Test
    void shouldNotAnswerANeighbourUnderAStampTheOwnerHasAppliedAChangeSince() throws Exception
    {
        permanentNeighbour("add", "02:00:00:00:00:77");
        assertTrue(mirror.synchronise(mirror::apply));
        try (Rtnetlink reader = inHost.call(Rtnetlink::open))
        {
            final int rdma = ifindex(NamespaceTopology.RDMA_NETDEV);
            final InetAddress neighbour = InetAddress.getByName("192.0.2.77");
            final long stamp = mirror.readStamp(reader);

            permanentNeighbour("replace", "02:00:00:00:00:78");
            applyAsTheOwner();

            assertEquals("02:00:00:00:00:78", mirror.neighbours().neighbour(rdma, neighbour).linkLayerText());
            assertEquals(null, mirror.validNeighbour(rdma, neighbour, stamp));
        }
    }

    @Test
    void shouldNotAnswerAnAddressUnderAStampTheOwnerHasAppliedAChangeSince() throws Exception
    {
        assertTrue(mirror.synchronise(mirror::apply));
        try (Rtnetlink reader = inHost.call(Rtnetlink::open))
        {
            final InetAddress added = InetAddress.getByName("198.19.7.1");
            final long stamp = mirror.readStamp(reader);

            topology.ip(topology.host, "address", "add", "198.19.7.1/24", "dev", NamespaceTopology.RDMA_NETDEV);
            applyAsTheOwner();

            assertNotNull(mirror.addresses().find(added, 0));
            assertEquals(null, mirror.address(added, 0, stamp));
        }
    }

    /** {@code ip neigh VERB 192.0.2.77 lladdr LINK_LAYER dev veth-rdma0 nud permanent} in the host namespace. */
    private void permanentNeighbour(final String verb, final String linkLayer)
    {
        topology.ip(topology.host, "neigh", verb, "192.0.2.77", "lladdr", linkLayer, "dev", NamespaceTopology.RDMA_NETDEV,
            "nud", "permanent");
    }

    /** What the mirror's owner does when its socket is readable: marks the reading, applies, marks it done. */
    private void applyAsTheOwner() throws Exception
    {
        mirror.notificationsReading();
        try
        {
            assertTrue(events.drain(mirror::apply) > 0, "the kernel queued the change before ip returned");
        }
        finally
        {
            mirror.notificationsRead();
        }
    }

    /**
     * The kernel makes some entries after the ip command returned (MLD's NOARP multicast neighbours on a
     * link that came up): reads the notifications until the mirror shows what ip shows, for 5 s at most.
     */
    private void awaitMirrorsIp(final String notNotified) throws Exception
    {
        final long deadline = System.nanoTime() + 5_000_000_000L;
        while (true)
        {
            drain();
            try
            {
                assertMirrorsIp(notNotified);
                return;
            }
            catch (final AssertionError ex)
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw ex;
                }
            }
        }
    }

    private void drain() throws Exception
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pollfd = arena.allocate(Libc.POLLFD_SIZE, 4);
            pollfd.set(JAVA_INT, Libc.POLLFD_FD_OFFSET, events.fd());
            pollfd.set(JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
            Libc.poll(new Libc.CallState(arena), pollfd, 1, 100);
            assertTrue(events.drain(mirror::apply) >= 0, "no notification lost");
        }
    }

    private void assertMirrorsIp(final String notNotified) throws Exception
    {
        final List<Map<String, Object>> links = topology.ipJson(topology.host, "link", "show");
        assertEquals(links.size(), mirror.links().size(), "links");
        for (final Map<String, Object> expected : links)
        {
            final int ifindex = ((Number)expected.get("ifindex")).intValue();
            final Link link = mirror.links().link(ifindex);
            assertNotNull(link, "link " + expected.get("ifname"));
            assertEquals(expected.get("ifname"), link.name());
            assertEquals(((Number)expected.get("mtu")).intValue(), link.mtu(), link.name());
            assertEquals(expected.get("address"), link.addressText(), link.name());
        }
        int addressCount = 0;
        for (final Map<String, Object> owner : topology.ipJson(topology.host, "address", "show"))
        {
            final int ifindex = ((Number)owner.get("ifindex")).intValue();
            @SuppressWarnings("unchecked") final List<Map<String, Object>> infos =
                (List<Map<String, Object>>)owner.get("addr_info");
            for (final Map<String, Object> info : infos)
            {
                final InterfaceAddress address =
                    mirror.addresses().find(InetAddress.getByName((String)info.get("local")), ifindex);
                assertNotNull(address, info.get("local") + " on " + owner.get("ifname"));
                assertEquals(((Number)info.get("prefixlen")).intValue(), address.prefixLength());
                addressCount++;
            }
        }
        assertEquals(addressCount, mirror.addresses().size(), "addresses");
        // The kernel makes the NOARP entries of multicast groups (MLD on a link that comes up) without a
        // notification: only a dump shows those made after it. A resolution that finds no valid entry
        // in the mirror asks the kernel, so they are never missed.
        final List<Map<String, Object>> neighbours = topology.ipJson(topology.host, "neigh", "show", "nud", "all").stream()
            .filter(entry -> !(notNotified.equals(entry.get("dev")) && List.of("NOARP").equals(entry.get("state"))))
            .toList();
        assertEquals(neighbours.size(), mirror.neighbours().size(), "neighbours: " + neighbours);
        for (final Map<String, Object> expected : neighbours)
        {
            final Neighbour neighbour = mirror.neighbours().neighbour(ifindex((String)expected.get("dev")),
                InetAddress.getByName((String)expected.get("dst")));
            assertNotNull(neighbour, "neighbour " + expected);
            @SuppressWarnings("unchecked") final List<String> state = (List<String>)expected.get("state");
            assertEquals(String.join(",", state), neighbour.stateText(), expected.toString());
            if (expected.get("lladdr") != null)
            {
                assertEquals(expected.get("lladdr"), neighbour.linkLayerText(), expected.toString());
            }
        }
    }

    private int ifindex(final String name)
    {
        return ((Number)topology.ipJson(topology.host, "link", "show", "dev", name).getFirst().get("ifindex")).intValue();
    }
}
