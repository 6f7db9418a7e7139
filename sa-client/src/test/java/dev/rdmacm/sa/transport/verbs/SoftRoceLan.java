package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.testing.guest.GuestTopology;

import java.util.List;

/**
 * Three Soft-RoCE ports on one Ethernet bridge inside one guest, as three hosts on one switch:
 * {@link #CLIENT} (our UD QP), {@link #SA} (where the umad SA test double listens on QP1) and
 * {@link #STRANGER} (another port that answers from the wrong GID).
 * <p>
 * Why the routing: all three addresses are local to one namespace (Debian 6.1's rxe works in the
 * initial namespace only), and Linux delivers a packet for a local address through {@code lo}, where
 * rxe does not listen; address handles to such GIDs cannot even be created. So each port gets a table
 * for its own output interface, ahead of the local table; {@code accept_local} lets a packet from one
 * of our own addresses in, and {@code arp_ignore=1} makes each address answer ARP only on its own port
 * (otherwise every port answers and the last of the replies wins, often with the wrong MAC).
 */
public final class SoftRoceLan
{
    static final String CLIENT = "rxe0";
    static final String SA = "rxe1";
    static final String STRANGER = "rxe2";
    static final Gid CLIENT_GID = Gid.parse("::ffff:10.10.0.1");
    static final Gid SA_GID = Gid.parse("::ffff:10.10.0.2");
    static final Gid STRANGER_GID = Gid.parse("::ffff:10.10.0.3");
    /** Index of the IPv4 GID on each port: 0 is the link-local one, and 6.1's rxe lists RoCE v2 entries only. */
    static final int IPV4_GID_INDEX = 1;
    /** rxe and verbs, umad for the double, veth and a bridge for the LAN; no ib_cm (it would not matter to the SA class). */
    public static final List<String> MODULES = List.of("rdma_rxe", "ib_uverbs", "ib_umad", "veth", "bridge");

    private SoftRoceLan()
    {
    }

    public static GuestTopology topology()
    {
        final GuestTopology lan = GuestTopology.create()
            .command("ip link add br0 type bridge")
            .command("ip link set br0 up")
            .command("sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2 net.ipv4.conf.all.accept_local=1");
        final String[] devices = {CLIENT, SA, STRANGER};
        for (int i = 0; i < devices.length; i++)
        {
            final String port = "e" + i;
            final String address = "10.10.0." + (i + 1);
            lan.veth(port, "b" + i)
                .command("ip link set b" + i + " master br0")
                .command("ip link set " + port + " address 02:00:0a:0a:00:0" + (i + 1))
                .command("sysctl -qw net.ipv4.conf." + port + ".accept_local=1")
                .address(port, address + "/24")
                .command("ip rule add pref " + (10 + i) + " oif " + port + " lookup " + (100 + i))
                .command("ip route add 10.10.0.0/24 dev " + port + " src " + address + " table " + (100 + i))
                .rxe(devices[i], port);
        }
        return lan.command("ip rule add pref 100 lookup local").command("ip rule del pref 0");
    }
}
