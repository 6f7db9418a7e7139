package dev.rdmacm.verbs;

import dev.rdmacm.testing.guest.GuestSpec;
import dev.rdmacm.testing.guest.GuestTopology;

import java.util.List;

/**
 * The one guest the verbs tests run in: a veth pair {@code e0}/{@code e1} with an IPv4 and an IPv6
 * address on each end, and a Soft-RoCE device on each, {@code rxe0} on {@code e0} and {@code rxe1}
 * on {@code e1}. The {@code *InGuest} classes use these names only; every address, GID, MAC and
 * limit they expect is read from the guest (sysfs, {@code ibv_devinfo}, {@code rdma}, {@code ip}).
 * <p>
 * Both ends stay in the initial namespace because rxe in Linux 6.1 opens its UDP port 4791 there
 * only: a datagram arriving on a veth end in another namespace finds no socket. In one namespace
 * the kernel would take 192.0.2.2 as local and loop it through {@code lo}, where rxe drops it; rxe
 * routes with the netdev as output interface, which keeps the packet on {@code e0}, and
 * {@code accept_local} lets {@code e1} take ARP and UDP from a source address its own host owns.
 */
final class SoftRoceGuest
{
    static final String SENDER = "rxe0";
    static final String SENDER_NETDEV = "e0";
    static final String RECEIVER = "rxe1";
    static final String RECEIVER_NETDEV = "e1";
    /** Both rxe devices have one port. */
    static final int PORT = 1;

    /** The verbs need no CM: rxe, uverbs and veth are all the guest loads. */
    private static final List<String> MODULES = List.of("rdma_rxe", "ib_uverbs", "veth");

    private SoftRoceGuest()
    {
    }

    static GuestSpec spec()
    {
        return GuestSpec.named("verbs").modules(MODULES).topology(GuestTopology.create()
            .veth(SENDER_NETDEV, RECEIVER_NETDEV)
            .address(SENDER_NETDEV, "192.0.2.1/24").address(SENDER_NETDEV, "2001:db8:10::1/64")
            .address(RECEIVER_NETDEV, "192.0.2.2/24").address(RECEIVER_NETDEV, "2001:db8:10::2/64")
            .command("sysctl -qw net.ipv4.conf." + SENDER_NETDEV + ".accept_local=1 net.ipv4.conf." + RECEIVER_NETDEV
                + ".accept_local=1")
            .rxe(SENDER, SENDER_NETDEV)
            .rxe(RECEIVER, RECEIVER_NETDEV));
    }
}
