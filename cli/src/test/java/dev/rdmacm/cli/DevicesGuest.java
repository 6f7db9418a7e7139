package dev.rdmacm.cli;

import dev.rdmacm.testing.guest.GuestSpec;
import dev.rdmacm.testing.guest.GuestTopology;

import java.util.List;

/**
 * The guest {@code rdmacm devices} is checked in: two rxe devices on the two ends of a veth pair, and
 * a VLAN upper device on the first, whose addresses the kernel adds to rxe0's GID table with the VLAN
 * as netdev. {@link #CHANGING_NETDEV} is where the tests add an IPv6 address and change the MTU.
 */
final class DevicesGuest
{
    static final String VLAN_DEVICE = "rxe0";
    static final String VLAN = "d0.300";
    static final String CHANGING_DEVICE = "rxe1";
    static final String CHANGING_NETDEV = "d1";
    static final String ADDED_ADDRESS = "2001:db8:31::7";

    private DevicesGuest()
    {
    }

    static GuestSpec spec()
    {
        return GuestSpec.named("devices").modules(List.of("rdma_rxe", "ib_uverbs", "veth", "8021q")).topology(GuestTopology.create()
            .veth("d0", "d1")
            .address("d0", "198.51.100.1/24").address("d1", "198.51.100.2/24")
            .vlan("d0", 300, "0:3")
            .address(VLAN, "203.0.113.1/24").address(VLAN, "2001:db8:30::1/64")
            .rxe(VLAN_DEVICE, "d0")
            .rxe(CHANGING_DEVICE, CHANGING_NETDEV));
    }
}
