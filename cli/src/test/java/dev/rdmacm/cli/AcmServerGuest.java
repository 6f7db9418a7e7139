package dev.rdmacm.cli;

import dev.rdmacm.testing.guest.GuestTopology;

/**
 * Where acm-server serves real librdmacm programs: two rxe devices on the two ends of a veth pair, both
 * in the initial namespace (6.1's rxe listens there only) with {@code accept_local}, so that rping's
 * server on {@link #SERVER_DEVICE} and its client on {@link #CLIENT_DEVICE} connect through the
 * kernel's CM over the veth. The steps join the conformance module's kernel guest ({@link #addTo}); the
 * names follow that guest's rxe0..rxe6 in one digit, so that sysfs's order and libibverbs' agree.
 */
public final class AcmServerGuest
{
    public static final String SERVER_DEVICE = "rxe7";
    public static final String SERVER_NETDEV = "a0";
    public static final String SERVER_IPV4 = "10.40.0.1";
    public static final String CLIENT_DEVICE = "rxe8";
    public static final String CLIENT_NETDEV = "a1";
    public static final String CLIENT_IPV4 = "10.40.0.2";

    private AcmServerGuest()
    {
    }

    /** Adds the pair and its rxe devices to {@code topology}; they need rdma_rxe, veth and the kernel CM. */
    public static GuestTopology addTo(final GuestTopology topology)
    {
        return topology
            .veth(SERVER_NETDEV, CLIENT_NETDEV)
            .address(SERVER_NETDEV, SERVER_IPV4 + "/24").address(CLIENT_NETDEV, CLIENT_IPV4 + "/24")
            .command("sysctl -qw net.ipv4.conf." + SERVER_NETDEV + ".accept_local=1 net.ipv4.conf." + CLIENT_NETDEV +
                ".accept_local=1")
            .rxe(SERVER_DEVICE, SERVER_NETDEV)
            .rxe(CLIENT_DEVICE, CLIENT_NETDEV);
    }
}
