package dev.rdmacm.cm.kernel;

import dev.rdmacm.testing.guest.GuestSpec;
import dev.rdmacm.testing.guest.GuestTopology;

/**
 * The guest the kernel CM is compared in. Each RDMA netdev has a veth peer in a namespace of its own
 * that answers ARP and ND:
 * <pre>
 *  rxe0  k0      mtu 1500  10.20.0.1  2001:db8:20::1  fe80::1   peer  k1      10.20.0.2  2001:db8:20::2  fe80::2
 *        k0.100  VLAN 100  10.21.0.1  2001:db8:21::1  (egress-qos-map 0:3 2:5 4:6 6:7)
 *                                                          peer  k1.100  10.21.0.2  2001:db8:21::2
 *  rxe1  k4      mtu 9000  10.22.0.1  2001:db8:22::1           jumbo k5      10.22.0.2  2001:db8:22::2
 *  rxe2  k6      mtu 4200  10.23.0.1  2001:db8:23::1           mid   k7      10.23.0.2  2001:db8:23::2
 *  rxe3  k8      mtu 340   10.24.0.1                           tiny  k9      10.24.0.2
 *  rxe6  k10     mtu 1500  10.25.0.1  (removed by a test)      gone  k11     10.25.0.2
 *        k2      (no rxe)  10.30.0.1                           plain k3      10.30.0.2
 *  rxe30 k12     4 tx queues, mqprio num_tc 4 (prio 0,2,4,6 to tc 1,2,3,0)
 *                          10.28.0.1                           prio  k13     10.28.0.2
 *        k12.300 VLAN 300  10.29.0.1  (egress-qos-map 0:7 2:7 4:7 6:7, overruled by k12's num_tc)
 *                                                          peer  k13.300 10.29.0.2
 *  rxe31 bnd0    active-backup of k20 (active) and k22, fail_over_mac active
 *                          10.26.0.1                           bonda br0 (k21, k23) 10.26.0.2
 *  rxe32 bnd1    active-backup of k24 (active) and k26, fail_over_mac none
 *                          10.27.0.1                           bondn br0 (k25, k27) 10.27.0.2
 * </pre>
 * Routes: 10.60.0.0/24 and 2001:db8:60::/64 through 10.20.0.2 / 2001:db8:20::2 (on k0);
 * 10.61.0.0/24 through 10.22.0.2 (on k4); 10.98/16 unreachable, 10.97/16 blackhole, 10.96/16
 * prohibit. Nothing answers for {@link #SILENT_IPV4} and {@link #SILENT_IPV6}.
 */
public final class KernelCmGuest
{
    static final String OWN_IPV4 = "10.20.0.1";
    static final String OWN_IPV6 = "2001:db8:20::1";
    static final String PEER_IPV4 = "10.20.0.2";
    static final String PEER_IPV6 = "2001:db8:20::2";
    static final String PEER_LINK_LOCAL = "fe80::2";
    static final String SILENT_IPV4 = "10.20.0.9";
    static final String SILENT_IPV6 = "2001:db8:20::9";
    static final String UNROUTED_IPV4 = "10.99.0.1";
    static final String UNREACHABLE_IPV4 = "10.98.0.1";
    static final String UNCONFIGURED_IPV4 = "10.20.0.77";
    /** On {@code k2}, a netdev without an RDMA device, whose veth peer in {@code plain} answers ARP. */
    static final String PLAIN_OWN_IPV4 = "10.30.0.1";
    static final String PLAIN_PEER_IPV4 = "10.30.0.2";
    static final String BLACKHOLE_IPV4 = "10.97.0.1";
    static final String PROHIBIT_IPV4 = "10.96.0.1";
    static final String VLAN_OWN_IPV4 = "10.21.0.1";
    static final String VLAN_PEER_IPV4 = "10.21.0.2";
    static final String VLAN_PEER_IPV6 = "2001:db8:21::2";
    static final String JUMBO_OWN_IPV4 = "10.22.0.1";
    static final String JUMBO_PEER_IPV4 = "10.22.0.2";
    static final String JUMBO_PEER_IPV6 = "2001:db8:22::2";
    static final String MID_PEER_IPV4 = "10.23.0.2";
    static final String MID_PEER_IPV6 = "2001:db8:23::2";
    static final String TINY_PEER_IPV4 = "10.24.0.2";
    /** On {@code k10}, whose rxe6 DeviceRemovalAgainstKernelCmInGuest removes. */
    static final String GONE_PEER_IPV4 = "10.25.0.2";
    static final String GONE_DEVICE = "rxe6";
    static final String ROUTED_IPV4 = "10.60.0.5";
    static final String ROUTED_IPV6 = "2001:db8:60::5";
    static final String ROUTED_JUMBO_IPV4 = "10.61.0.5";
    /** On {@code k12}, whose mqprio gives it {@code num_tc} 4, and on its VLAN {@code k12.300}. */
    static final String PRIO_PEER_IPV4 = "10.28.0.2";
    static final String PRIO_VLAN_PEER_IPV4 = "10.29.0.2";
    /** A second address of the peer on {@code k0}, whose neighbour entry a case sets FAILED by hand. */
    static final String SECOND_PEER_IPV4 = "10.20.0.3";
    static final String SECOND_PEER_IPV6 = "2001:db8:20::3";
    /** Nobody answers for it on {@code k0} either: a FAILED entry set by hand that stays FAILED. */
    static final String SECOND_SILENT_IPV4 = "10.20.0.8";
    /** The bond whose failover changes its MAC (fail_over_mac active), its slaves and its peer. */
    static final String ACTIVE_BOND = "bnd0";
    static final String ACTIVE_BOND_OWN_IPV4 = "10.26.0.1";
    static final String ACTIVE_BOND_PEER_IPV4 = "10.26.0.2";
    static final String ACTIVE_BOND_FIRST_SLAVE = "k20";
    static final String ACTIVE_BOND_SECOND_SLAVE = "k22";
    /** The bond whose failover keeps its MAC (fail_over_mac none). */
    static final String STILL_BOND = "bnd1";
    static final String STILL_BOND_PEER_IPV4 = "10.27.0.2";
    static final String STILL_BOND_SECOND_SLAVE = "k26";

    private KernelCmGuest()
    {
    }

    public static GuestSpec spec()
    {
        return GuestSpec.named("kernel-cm").topology(topology());
    }

    /** The steps alone, for a guest that adds its own (the conformance module's). */
    public static GuestTopology topology()
    {
        final GuestTopology topology = GuestTopology.create()
            .veth("k0", "k1", "peer")
            .address("k0", OWN_IPV4 + "/24").address("k0", OWN_IPV6 + "/64").address("k0", "fe80::1/64")
            .address("peer", "k1", PEER_IPV4 + "/24").address("peer", "k1", PEER_IPV6 + "/64")
            .address("peer", "k1", PEER_LINK_LOCAL + "/64")
            .vlan("k0", 100, "0:3 2:5 4:6 6:7")
            .address("k0.100", VLAN_OWN_IPV4 + "/24").address("k0.100", "2001:db8:21::1/64")
            .command("ip -n peer link add link k1 name k1.100 type vlan id 100")
            .command("ip -n peer link set k1.100 up")
            .address("peer", "k1.100", VLAN_PEER_IPV4 + "/24").address("peer", "k1.100", VLAN_PEER_IPV6 + "/64");
        link(topology, "k4", "k5", "jumbo", 9000, JUMBO_OWN_IPV4, JUMBO_PEER_IPV4, "2001:db8:22::1", JUMBO_PEER_IPV6);
        link(topology, "k6", "k7", "mid", 4200, "10.23.0.1", MID_PEER_IPV4, "2001:db8:23::1", MID_PEER_IPV6);
        link(topology, "k8", "k9", "tiny", 340, "10.24.0.1", TINY_PEER_IPV4, null, null);
        link(topology, "k10", "k11", "gone", 1500, "10.25.0.1", GONE_PEER_IPV4, null, null);
        topology.command("ip -n peer address add " + SECOND_PEER_IPV4 + "/24 dev k1")
            .command("ip -n peer address add " + SECOND_PEER_IPV6 + "/64 dev k1 nodad");
        priorities(topology);
        bond(topology, ACTIVE_BOND, "active", "k20", "k21", "k22", "k23", "bonda", ACTIVE_BOND_OWN_IPV4, ACTIVE_BOND_PEER_IPV4);
        bond(topology, STILL_BOND, "none", "k24", "k25", "k26", "k27", "bondn", "10.27.0.1", STILL_BOND_PEER_IPV4);
        topology
            .veth("k2", "k3", "plain")
            .address("k2", PLAIN_OWN_IPV4 + "/24").address("plain", "k3", PLAIN_PEER_IPV4 + "/24")
            .command("ip route add 10.60.0.0/24 via " + PEER_IPV4)
            .command("ip -6 route add 2001:db8:60::/64 via " + PEER_IPV6)
            .command("ip route add 10.61.0.0/24 via " + JUMBO_PEER_IPV4)
            .command("ip route add unreachable 10.98.0.0/16")
            .command("ip route add blackhole 10.97.0.0/16")
            .command("ip route add prohibit 10.96.0.0/16")
            .rxe("rxe0", "k0")
            .rxe("rxe1", "k4")
            .rxe("rxe2", "k6")
            .rxe("rxe3", "k8")
            .rxe(GONE_DEVICE, "k10")
            // rxe30..32, not rxe7..9: created before DevicesGuest's rxe4 and rxe5, they must sort by name
            // in creation order too, as `rdmacm devices` lists sysfs by name and libibverbs in creation
            // order, and DevicesCommandInGuest compares the two lists whole
            .rxe("rxe30", "k12")
            .rxe("rxe31", ACTIVE_BOND)
            .rxe("rxe32", STILL_BOND);
        return topology;
    }

    /**
     * {@code k12} with four transmit queues and an mqprio root qdisc ({@code hw 0}: the kernel itself sets
     * {@code num_tc} and {@code prio_tc_map}), and a VLAN over it whose egress-qos-map the kernel CM then
     * ignores ({@code get_vlan_ndev_tc} asks the real device first).
     */
    private static void priorities(final GuestTopology topology)
    {
        topology.namespace("prio")
            .command("ip link add k12 numtxqueues 4 numrxqueues 4 type veth peer name k13 numtxqueues 4 numrxqueues 4 netns prio")
            .command("ip link set k12 up").command("ip -n prio link set k13 up")
            .command("tc qdisc add dev k12 root mqprio num_tc 4 map 1 0 2 0 3 0 0 0 0 0 0 0 0 0 0 0 queues 1@0 1@1 1@2 1@3 hw 0")
            .address("k12", "10.28.0.1/24").address("prio", "k13", PRIO_PEER_IPV4 + "/24")
            .vlan("k12", 300, "0:7 2:7 4:7 6:7")
            .address("k12.300", "10.29.0.1/24")
            .command("ip -n prio link add link k13 name k13.300 type vlan id 300")
            .command("ip -n prio link set k13.300 up")
            .address("prio", "k13.300", PRIO_VLAN_PEER_IPV4 + "/24");
    }

    /**
     * An active-backup bond of two veths ({@code first} becomes the active slave), whose peers are
     * bridged in {@code namespace} so that the peer answers over whichever slave is active.
     */
    private static void bond(final GuestTopology topology, final String bond, final String failOverMac, final String first,
        final String firstPeer, final String second, final String secondPeer, final String namespace, final String ownIpv4,
        final String peerIpv4)
    {
        topology.namespace(namespace)
            .command("ip link add " + bond + " type bond mode active-backup fail_over_mac " + failOverMac)
            .command("ip link add " + first + " type veth peer name " + firstPeer + " netns " + namespace)
            .command("ip link add " + second + " type veth peer name " + secondPeer + " netns " + namespace)
            .command("ip link set " + first + " master " + bond)
            .command("ip link set " + second + " master " + bond)
            .command("ip link set " + bond + " up")
            .command("ip -n " + namespace + " link add br0 type bridge")
            .command("ip -n " + namespace + " link set " + firstPeer + " master br0")
            .command("ip -n " + namespace + " link set " + secondPeer + " master br0")
            .command("ip -n " + namespace + " link set " + firstPeer + " up")
            .command("ip -n " + namespace + " link set " + secondPeer + " up")
            .command("ip -n " + namespace + " link set br0 up")
            .address(bond, ownIpv4 + "/24").address(namespace, "br0", peerIpv4 + "/24");
    }

    /** A veth {@code own}/{@code peer} with {@code mtu} on both ends, the peer in {@code namespace}. */
    private static void link(
        final GuestTopology topology, final String own, final String peer, final String namespace, final int mtu,
        final String ownIpv4, final String peerIpv4, final String ownIpv6, final String peerIpv6)
    {
        topology.veth(own, peer, namespace).mtu(own, mtu)
            .command("ip -n " + namespace + " link set " + peer + " mtu " + mtu)
            .address(own, ownIpv4 + "/24").address(namespace, peer, peerIpv4 + "/24");
        if (ownIpv6 != null)
        {
            topology.address(own, ownIpv6 + "/64").address(namespace, peer, peerIpv6 + "/64");
        }
    }
}
