package dev.rdmacm.cli;

import dev.rdmacm.testing.guest.GuestTopology;

/**
 * What {@code rdmacm devices} is checked on: two rxe devices on the two ends of a veth pair, and a VLAN
 * upper device on the first, whose addresses the kernel adds to its GID table with the VLAN as netdev.
 * {@link #CHANGING_NETDEV} is where the tests add an IPv6 address and change the MTU. The steps join
 * the conformance module's kernel guest ({@link #addTo}), beside the kernel-CM topology, so one boot
 * serves both.
 */
public final class DevicesGuest
{
    static final String VLAN_DEVICE = "rxe4";
    static final String VLAN = "d0.300";
    static final String CHANGING_DEVICE = "rxe5";
    static final String CHANGING_NETDEV = "d1";
    static final String ADDED_ADDRESS = "2001:db8:31::7";

    private DevicesGuest()
    {
    }

    /** Adds the devices' netdevs, addresses and rxe devices to {@code topology}; they need rdma_rxe, veth and 8021q. */
    public static GuestTopology addTo(final GuestTopology topology)
    {
        return topology
            .veth("d0", "d1")
            .address("d0", "198.51.100.1/24").address("d1", "198.51.100.2/24")
            .vlan("d0", 300, "0:3")
            .address(VLAN, "203.0.113.1/24").address(VLAN, "2001:db8:30::1/64")
            .rxe(VLAN_DEVICE, "d0")
            .rxe(CHANGING_DEVICE, CHANGING_NETDEV);
    }
}
