package dev.rdmacm.cm.kernel;

import dev.rdmacm.testing.guest.GuestSpec;
import dev.rdmacm.testing.guest.GuestTopology;

/**
 * The guest the kernel CM is compared in: rxe0 on {@code k0}, whose veth peer {@code k1} lives in the
 * namespace {@code peer} and answers ARP and ND there; {@code k2}, a netdev without rxe whose peer
 * in {@code plain} answers; routes that are {@code unreachable}, {@code blackhole} and {@code prohibit};
 * nothing answers for {@link #SILENT_IPV4}.
 */
final class KernelCmGuest
{
    static final String OWN_IPV4 = "10.20.0.1";
    static final String OWN_IPV6 = "2001:db8:20::1";
    static final String PEER_IPV4 = "10.20.0.2";
    static final String PEER_IPV6 = "2001:db8:20::2";
    static final String SILENT_IPV4 = "10.20.0.9";
    static final String UNROUTED_IPV4 = "10.99.0.1";
    static final String UNREACHABLE_IPV4 = "10.98.0.1";
    static final String UNCONFIGURED_IPV4 = "10.20.0.77";
    /** On {@code k2}, a netdev without an RDMA device, whose veth peer in {@code plain} answers ARP. */
    static final String PLAIN_OWN_IPV4 = "10.30.0.1";
    static final String PLAIN_PEER_IPV4 = "10.30.0.2";
    static final String BLACKHOLE_IPV4 = "10.97.0.1";
    static final String PROHIBIT_IPV4 = "10.96.0.1";

    private KernelCmGuest()
    {
    }

    static GuestSpec spec()
    {
        return GuestSpec.named("kernel-cm").topology(GuestTopology.create()
            .veth("k0", "k1", "peer")
            .address("k0", OWN_IPV4 + "/24").address("k0", OWN_IPV6 + "/64")
            .address("peer", "k1", PEER_IPV4 + "/24").address("peer", "k1", PEER_IPV6 + "/64")
            .veth("k2", "k3", "plain")
            .address("k2", PLAIN_OWN_IPV4 + "/24").address("plain", "k3", PLAIN_PEER_IPV4 + "/24")
            .command("ip route add unreachable 10.98.0.0/16")
            .command("ip route add blackhole 10.97.0.0/16")
            .command("ip route add prohibit 10.96.0.0/16")
            .rxe("rxe0", "k0"));
    }
}
