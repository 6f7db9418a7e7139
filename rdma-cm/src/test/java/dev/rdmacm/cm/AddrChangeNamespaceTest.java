package dev.rdmacm.cm;

import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.resolver.AddressResolution;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * {@code cma_netdev_change}'s decision, on ids resolved and bound in a network namespace. The host
 * kernel has no bonding, so the failover notification itself is a test double: the call
 * conductor ({@code ConductorAgent}) makes when rtnetlink reports IFLA_EVENT_BONDING_FAILOVER. The real
 * notification, and the kernel CM beside ours, are in the guest (BondFailoverAgainstKernelCmInGuest).
 */
class AddrChangeNamespaceTest
{
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final byte[] OTHER_MAC = {0x02, 0x00, 0x5e, 0x10, 0x00, 0x01};
    private static NamespaceTopology topology;
    private static RdmaCm cm;

    @BeforeAll
    static void start()
    {
        topology = NamespaceTopology.create();
        cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath()).gids(RecordedGids.softRoce()).build());
        topology.ip(topology.host, "neigh", "replace", "192.0.2.2", "lladdr", "02:00:5e:10:00:02", "dev",
            NamespaceTopology.RDMA_NETDEV, "nud", "permanent");
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
    void shouldPostAddrChangeOnlyToIdsOnTheNetdevWhoseStoredMacDiffers() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId resolved = cm.createId(channel);
            RdmaCmId bound = cm.createId(channel); RdmaCmId idle = cm.createId(channel))
        {
            resolved.resolveAddr(null, InetAddress.getByName("192.0.2.2"), Duration.ofMillis(1000));
            final CmEvent addr = channel.getEvent(WAIT);
            assertNotNull(addr, "no ADDR_RESOLVED");
            addr.ack();
            assertEquals(CmEventType.ADDR_RESOLVED, addr.type(), addr.toString());
            bound.bindAddr(InetAddress.getByName("192.0.2.1"));
            final AddressResolution resolution = resolved.resolution();
            final byte[] ownMac = resolution.sourceHardwareAddress().toBytes();

            cm.bondFailedOver(resolution.ifindex(), NamespaceTopology.RDMA_NETDEV, ownMac);
            cm.bondFailedOver(resolution.ifindex() + 1000, "bond9", OTHER_MAC);
            assertNull(channel.getEvent(Duration.ZERO), "the same MAC, or another netdev: no event");

            cm.bondFailedOver(resolution.ifindex(), NamespaceTopology.RDMA_NETDEV, OTHER_MAC);
            final CmEvent first = channel.getEvent(WAIT);
            final CmEvent second = channel.getEvent(WAIT);
            assertNotNull(first, "no ADDR_CHANGE");
            assertNotNull(second, "one ADDR_CHANGE only");
            first.ack();
            second.ack();
            assertEquals(CmEventType.ADDR_CHANGE, first.type());
            assertEquals(CmEventType.ADDR_CHANGE, second.type());
            assertEquals(0, first.status());
            assertEquals(Set.of(resolved, bound), Set.of(first.id(), second.id()));
            assertNull(channel.getEvent(Duration.ZERO), "the idle id is on no device");
            assertEquals(CmIdState.ADDR_RESOLVED, resolved.state(), "ADDR_CHANGE leaves the state");
            assertEquals(CmIdState.ADDR_BOUND, bound.state());
            assertArrayEquals(ownMac, resolved.resolution().sourceHardwareAddress().toBytes(), "src_dev_addr is not updated");
            assertSame(CmIdState.IDLE, idle.state());
        }
    }
}
