package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.verbs.AddressVector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RoCE {@code rdma_join_multicast} ({@code cma_iboe_join_multicast}) in a network namespace, over the
 * recorded soft-RoCE GID table the namespace fixture mirrors on {@value NamespaceTopology#RDMA_NETDEV}:
 * the MGID, the event's address handle and the IPv4 membership on the netdev are the ones measured from
 * the 6.1 kernel with rdma_rxe and mckey (shared/reference/multicast.md): {@code joined dgid:
 * ::ffff:239.1.2.3}, {@code mlid 0x0}, TTL 64, and 01:00:5e:01:02:03 in {@code ip maddr}; IPv6 groups
 * errno 524.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RoceMulticastNamespaceTest
{
    private static final String RDMA = NamespaceTopology.RDMA_NETDEV;
    private static final Duration EVENT = Duration.ofSeconds(10);
    private static NamespaceTopology topology;
    private static RdmaCm cm;

    @BeforeAll
    static void start() throws Exception
    {
        topology = NamespaceTopology.create();
        cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath()).gids(RecordedGids.softRoce()).build());
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

    private static RdmaCmId bound(final EventChannel channel) throws Exception
    {
        final RdmaCmId id = cm.createId(channel, PortSpace.UDP);
        id.bindAddr(InetAddress.getByName("192.0.2.1"));
        return id;
    }

    private static String maddr()
    {
        return topology.ip(topology.host, "maddr", "show", "dev", RDMA);
    }

    private static CmEvent next(final EventChannel channel) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(EVENT);
        if (event != null)
        {
            event.ack();
        }
        return event;
    }

    @Test
    void shouldJoinWithTheMgidAndAddressHandleTheKernelGivesAndHoldTheGroupOnTheNetdev() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = bound(channel))
        {
            id.join(InetAddress.getByName("239.1.2.3"), MulticastJoinFlag.FULL_MEMBER, "ctx");
            final CmEvent.MulticastJoin joined = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));

            final AddressVector ah = joined.ud().ahAttr();
            assertEquals(0, ah.dlid(), "mlid 0x0");
            assertEquals(0, ah.serviceLevel());
            assertEquals(0, ah.staticRate());
            final AddressVector.GlobalRoute grh = ah.grh().orElseThrow();
            assertEquals(Gid.parse("::ffff:239.1.2.3"), grh.dgid());
            assertEquals(64, grh.hopLimit());
            assertEquals(0, grh.trafficClass());
            assertEquals(0, grh.flowLabel());
            assertEquals(id.binding().gidIndex(), grh.sgidIndex());
            assertEquals(0xff_ffff, joined.ud().qpNumber());
            assertEquals(0x0123_4567L, joined.ud().qkey());
            assertEquals("ctx", joined.context());
            assertTrue(maddr().contains("01:00:5e:01:02:03"), maddr());
            assertTrue(maddr().contains("inet  239.1.2.3"), maddr());

            id.leave(InetAddress.getByName("239.1.2.3"));

            assertFalse(maddr().contains("01:00:5e:01:02:03"), maddr());
        }
    }

    @Test
    void shouldKeepTheNetdevsMembershipUntilTheLastOfTwoJoinsLeaves() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId first = bound(channel); RdmaCmId second = bound(channel))
        {
            final InetAddress group = InetAddress.getByName("239.1.2.4");
            first.join(group, MulticastJoinFlag.FULL_MEMBER, null);
            second.join(group, MulticastJoinFlag.FULL_MEMBER, null);
            assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
            assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));

            first.leave(group);
            assertTrue(maddr().contains("01:00:5e:01:02:04"), maddr());

            second.leave(group);
            assertFalse(maddr().contains("01:00:5e:01:02:04"), maddr());
        }
    }

    @Test
    void shouldNotHoldTheGroupOnTheNetdevForASendOnlyJoin() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = bound(channel))
        {
            id.join(InetAddress.getByName("239.1.2.5"), MulticastJoinFlag.SEND_ONLY_FULL_MEMBER, null);

            final CmEvent.MulticastJoin joined = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
            assertEquals(Gid.parse("::ffff:239.1.2.5"), joined.ud().ahAttr().grh().map(AddressVector.GlobalRoute::dgid)
                .orElse(null));
            assertFalse(maddr().contains("01:00:5e:01:02:05"), maddr());
            id.leave(InetAddress.getByName("239.1.2.5"));
        }
    }

    @Test
    void shouldRefuseAnIpv6GroupUnderRoceV2WithErrno524() throws Exception
    {
        try (RdmaCmId id = bound(null))
        {
            final RdmaCmException ex = assertThrows(RdmaCmException.class,
                () -> id.join(InetAddress.getByName("ff0e::1234"), MulticastJoinFlag.FULL_MEMBER, null));

            assertEquals(524, ex.errno());
        }
    }

    @Test
    void shouldRefuseTheWildcardGroupWithEinval() throws Exception
    {
        try (RdmaCmId id = bound(null))
        {
            final RdmaCmException ex = assertThrows(RdmaCmException.class,
                () -> id.join(InetAddress.getByName("0.0.0.0"), MulticastJoinFlag.FULL_MEMBER, null));

            assertEquals(Errno.EINVAL, ex.errno());
        }
    }

    /**
     * Through the kernel's CM ({@link ConnectionManager#KERNEL}) on a host without its device (this one has no
     * rdma_ucm): the join fails at once with ENOENT, naming the call and the device, and leaves no group behind.
     */
    @Test
    void shouldRefuseAJoinThroughTheKernelsCmWithoutItsDeviceNamingTheCallTheDeviceAndTheErrno() throws Exception
    {
        Peers.require(!Files.exists(UcmaChannel.DEVICE), "a host without " + UcmaChannel.DEVICE + " (rdma_ucm not loaded)");
        try (RdmaCm kernelCm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath())
                .gids(RecordedGids.softRoce()).connectionManager(ConnectionManager.KERNEL).build());
             RdmaCmId id = kernelCm.createId(null, PortSpace.UDP))
        {
            id.bindAddr(InetAddress.getByName("192.0.2.1"));
            final InetAddress group = InetAddress.getByName("239.1.2.6");

            final RdmaCmException refused = assertThrows(RdmaCmException.class,
                () -> id.join(group, MulticastJoinFlag.FULL_MEMBER, null));
            final RdmaCmException left = assertThrows(RdmaCmException.class, () -> id.leave(group));

            assertEquals(Errno.ENOENT, refused.errno(), refused.getMessage());
            assertTrue(refused.getMessage().startsWith("rdma_join_multicast") && refused.getMessage().contains(
                UcmaChannel.DEVICE.toString()), refused.getMessage());
            assertEquals(Errno.EADDRNOTAVAIL, left.errno(), left.getMessage());
            assertFalse(maddr().contains("01:00:5e:01:02:06"), maddr());
        }
    }

    @Test
    void shouldAcceptAUnicastAddressAsTheKernelDoes() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = bound(channel))
        {
            id.join(InetAddress.getByName("10.9.0.2"), MulticastJoinFlag.SEND_ONLY_FULL_MEMBER, null);

            final CmEvent.MulticastJoin joined = assertInstanceOf(CmEvent.MulticastJoin.class, next(channel));
            assertEquals(Optional.of(Gid.parse("::ffff:10.9.0.2")), joined.ud().ahAttr().grh().map(AddressVector.GlobalRoute::dgid));
            id.leave(InetAddress.getByName("10.9.0.2"));
        }
    }
}
