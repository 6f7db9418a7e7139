package dev.rdmacm.verbs;

import dev.rdmacm.testing.guest.GuestTopology;

import java.util.List;

/**
 * What the verbs tests need of their guest: a veth pair {@code v0}/{@code v1} with an IPv4 and an IPv6
 * address on each end, and a Soft-RoCE device on each, {@code rxe10} on {@code v0} and {@code rxe11}
 * on {@code v1}. The {@code *InGuest} classes use these names only; every address, GID, MAC and
 * limit they expect is read from the guest (sysfs, {@code ibv_devinfo}, {@code rdma}, {@code ip}).
 * They share the guest with the SA transport's LAN (the conformance module's
 * {@code SoftRoceGuestsTest}), so the names keep clear of its {@code rxe0..rxe2} on {@code e0..e2}.
 * <p>
 * Both ends stay in the initial namespace because rxe in Linux 6.1 opens its UDP port 4791 there
 * only: a datagram arriving on a veth end in another namespace finds no socket. In one namespace
 * the kernel would take 192.0.2.2 as local and loop it through {@code lo}, where rxe drops it; rxe
 * routes with the netdev as output interface, which keeps the packet on {@code v0}, and
 * {@code accept_local} lets {@code v1} take ARP and UDP from a source address its own host owns.
 */
public final class SoftRoceGuest
{
    static final String SENDER = "rxe10";
    static final String SENDER_NETDEV = "v0";
    public static final String RECEIVER = "rxe11";
    static final String RECEIVER_NETDEV = "v1";
    /** Both rxe devices have one port. */
    static final int PORT = 1;

    /** The verbs need no CM: rxe, uverbs and veth are all the guest loads. */
    public static final List<String> MODULES = List.of("rdma_rxe", "ib_uverbs", "veth");

    private SoftRoceGuest()
    {
    }

    /** The steps, for the guest that adds them to its own. */
    public static GuestTopology addTo(final GuestTopology topology)
    {
        return topology
            .veth(SENDER_NETDEV, RECEIVER_NETDEV)
            .address(SENDER_NETDEV, "192.0.2.1/24").address(SENDER_NETDEV, "2001:db8:10::1/64")
            .address(RECEIVER_NETDEV, "192.0.2.2/24").address(RECEIVER_NETDEV, "2001:db8:10::2/64")
            .command("sysctl -qw net.ipv4.conf." + SENDER_NETDEV + ".accept_local=1 net.ipv4.conf." + RECEIVER_NETDEV
                + ".accept_local=1")
            .rxe(SENDER, SENDER_NETDEV)
            .rxe(RECEIVER, RECEIVER_NETDEV);
    }
}
