package dev.rdmacm.resolver.engine;

import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.LinkMessage;
import dev.rdmacm.netlink.Neighbour;
import dev.rdmacm.netlink.Route;
import dev.rdmacm.netlink.RouteMessage;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.NetworkType;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * IPoIB (ARPHRD_INFINIBAND) resolution, which this kernel cannot exercise live: the RTM_NEWLINK and
 * RTM_NEWNEIGH messages of an IPoIB interface and neighbour are built by a C program with the
 * kernel's own {@code <linux/rtnetlink.h>} structs and macros, with the addresses a ConnectX port's
 * {@code ib0} shows ({@code ip link}: {@code link/infiniband 80:00:02:08:fe:80:...:02:c9:03:00:a1:b2:c5
 * brd 00:ff:ff:ff:ff:12:40:1b:80:01:...:ff:ff:ff:ff}, the GID being port 1's of the verbs module's
 * recorded {@code mlx5_0} tree), then decoded by our flyweights and resolved by the kernel's IPoIB
 * rules against that recorded GID table.
 */
class IpoibResolutionTest
{
    /** QPN 0x000208, then port 1 GID fe80::2:c903:a1:b2c5 of the recorded mlx5_0. */
    private static final String LOCAL_HW = "80:00:02:08:fe:80:00:00:00:00:00:00:00:02:c9:03:00:a1:b2:c5";
    private static final String PEER_HW = "80:00:00:48:fe:80:00:00:00:00:00:00:00:02:c9:03:00:0d:4b:72";
    /** P_Key 0x8001 (limited partition 1 with the full-member bit) in bytes 8-9. */
    private static final String BROADCAST = "00:ff:ff:ff:ff:12:40:1b:80:01:00:00:00:00:00:00:ff:ff:ff:ff";

    private static final String C_SOURCE = """
        #include <stdio.h>
        #include <string.h>
        #include <arpa/inet.h>
        #include <linux/netlink.h>
        #include <linux/rtnetlink.h>
        #include <linux/if_arp.h>
        #include <linux/neighbour.h>

        static unsigned char buf[1024];

        static void hw(const char *text, unsigned char *out) {
            for (int i = 0; i < 20; i++) sscanf(text + 3 * i, "%2hhx", &out[i]);
        }
        static struct rtattr *put(struct nlmsghdr *n, int type, const void *data, int len) {
            struct rtattr *rta = (struct rtattr *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));
            rta->rta_type = type;
            rta->rta_len = RTA_LENGTH(len);
            memcpy(RTA_DATA(rta), data, len);
            n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(rta->rta_len);
            return rta;
        }
        static void dump(struct nlmsghdr *n) {
            for (unsigned i = 0; i < n->nlmsg_len; i++) printf("%02x", ((unsigned char *)n)[i]);
            printf("\\n");
        }
        int main(void) {
            unsigned char a[20];
            struct nlmsghdr *n = (struct nlmsghdr *)buf;
            memset(buf, 0, sizeof buf);
            n->nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
            n->nlmsg_type = RTM_NEWLINK;
            struct ifinfomsg *ifi = NLMSG_DATA(n);
            ifi->ifi_type = ARPHRD_INFINIBAND;
            ifi->ifi_index = 4;
            ifi->ifi_flags = IFF_UP | IFF_BROADCAST | IFF_MULTICAST | IFF_RUNNING;
            put(n, IFLA_IFNAME, "ib0", 4);
            unsigned mtu = 2044;
            put(n, IFLA_MTU, &mtu, 4);
            hw("%LOCAL%", a); put(n, IFLA_ADDRESS, a, 20);
            hw("%BROADCAST%", a); put(n, IFLA_BROADCAST, a, 20);
            dump(n);

            memset(buf, 0, sizeof buf);
            n->nlmsg_len = NLMSG_LENGTH(sizeof(struct ndmsg));
            n->nlmsg_type = RTM_NEWNEIGH;
            struct ndmsg *nd = NLMSG_DATA(n);
            nd->ndm_family = AF_INET;
            nd->ndm_ifindex = 4;
            nd->ndm_state = NUD_REACHABLE;
            nd->ndm_type = RTN_UNICAST;
            struct in_addr dst; inet_pton(AF_INET, "192.168.10.2", &dst);
            put(n, NDA_DST, &dst, 4);
            hw("%PEER%", a); put(n, NDA_LLADDR, a, 20);
            dump(n);
            return 0;
        }
        """;

    private static Link link;
    private static Neighbour neighbour;

    @BeforeAll
    static void decodeMessagesBuiltWithTheKernelHeaders()
    {
        final List<String> lines = CProgram.compileAndRun(C_SOURCE
            .replace("%LOCAL%", LOCAL_HW).replace("%BROADCAST%", BROADCAST).replace("%PEER%", PEER_HW))
            .lines().toList();
        final Rtnetlink decoder = new Rtnetlink(null);
        final NetlinkMessageHeader header = new NetlinkMessageHeader();
        final UnsafeBuffer linkBytes = new UnsafeBuffer(HexFormat.of().parseHex(lines.get(0)));
        link = decoder.decodeLink(header.wrap(linkBytes, 0, linkBytes.capacity()), linkBytes, (int)header.length());
        final UnsafeBuffer neighbourBytes = new UnsafeBuffer(HexFormat.of().parseHex(lines.get(1)));
        neighbour = decoder.decodeNeighbour(header.wrap(neighbourBytes, 0, neighbourBytes.capacity()), neighbourBytes, (int)header.length());
    }

    @Test
    void shouldDecodeAnIpoibLink()
    {
        assertEquals("ib0", link.name());
        assertEquals(LinkMessage.ARPHRD_INFINIBAND, link.type());
        assertEquals(2044, link.mtu());
        assertEquals(LOCAL_HW, link.addressText());
        assertEquals(BROADCAST, link.broadcastText());
    }

    @Test
    void shouldDecodeAnIpoibNeighbour() throws Exception
    {
        assertEquals(InetAddress.getByName("192.168.10.2"), neighbour.destination());
        assertEquals(PEER_HW, neighbour.linkLayerText());
        assertEquals("REACHABLE", neighbour.stateText());
    }

    @Test
    void shouldTakeTheGidsFromHardwareAddressesAndThePkeyFromTheBroadcastAddress() throws Exception
    {
        final Gid localGid = RecordedSysfsTrees.IB_HCA_PORT1_GID;
        final AddressResolver resolver = new AddressResolver(null, null, RecordedGids.infinibandHca());

        final AddressResolution resolution = resolver.complete(directlyConnectedOverIb0());

        assertEquals(localGid, resolution.sgid(), "SGID = netdev hardware address bytes 4-19");
        assertEquals(Gid.parse("fe80::2:c903:d:4b72"), resolution.dgid(), "DGID = neighbour lladdr bytes 4-19");
        assertEquals(0x8001, resolution.pkey().value(), "P_Key = broadcast bytes 8-9");
        assertEquals(NetworkType.IB, resolution.networkType());
        assertEquals("mlx5_0", resolution.binding().device());
        assertEquals(1, resolution.binding().port());
        assertEquals(0, resolution.binding().gidIndex());
        assertEquals(GidType.IB, resolution.binding().gidType());
    }

    @Test
    void shouldFailWithEnodevWhenNoInfinibandPortHoldsTheNetdevGid() throws Exception
    {
        final AddressResolver resolver = new AddressResolver(null, null, GidDirectory.NONE);
        final AddressQuery p = directlyConnectedOverIb0();
        final ResolutionFailure failure =
            org.junit.jupiter.api.Assertions.assertThrows(ResolutionFailure.class, () -> resolver.complete(p));
        assertEquals(dev.rdmacm.libc.Errno.ENODEV, failure.errno());
    }

    /** The state after route, link and neighbour steps for 192.168.10.2 on ib0 (no gateway). */
    private static AddressQuery directlyConnectedOverIb0() throws Exception
    {
        final AddressQuery p = new AddressQuery(null, 0, null, InetAddress.getByName("192.168.10.2"), 1_000,
            System.nanoTime());
        p.route = new Route(RouteMessage.RTN_UNICAST, 254, 253, 0, InetAddress.getByName("192.168.10.2"), null,
            InetAddress.getByName("192.168.10.1"), null, 4, 0, 0);
        p.outputLink = link;
        p.netdev = link;
        p.effectiveSource = InetAddress.getByName("192.168.10.1");
        p.destinationHardwareAddress = neighbour.linkLayerAddress();
        return p;
    }
}
