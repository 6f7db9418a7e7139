package dev.rdmacm.netlink;

/**
 * One network interface as RTM_GETLINK reports it.
 *
 * @param ifindex          the interface index.
 * @param name             IFLA_IFNAME.
 * @param type             ARPHRD_* ({@link LinkMessage#ARPHRD_ETHER}, {@link LinkMessage#ARPHRD_INFINIBAND}...).
 * @param flags            IFF_* flags.
 * @param mtu              IFLA_MTU.
 * @param address          IFLA_ADDRESS (6 bytes Ethernet, 20 bytes IPoIB), empty if none.
 * @param broadcastAddress IFLA_BROADCAST, empty if none.
 * @param operationalState IFLA_OPERSTATE (IF_OPER_*; 6 up, 2 down).
 * @param vlan             the 802.1Q details when IFLA_LINKINFO says {@code vlan}, else null.
 * @param kind             IFLA_INFO_KIND of IFLA_LINKINFO ({@code vlan}, {@code bond}, {@code veth}...), empty if none.
 * @param txQueues         IFLA_NUM_TX_QUEUES, 0 when not reported.
 * @param event            IFLA_EVENT of an RTNLGRP_LINK notification ({@link LinkMessage#IFLA_EVENT_BONDING_FAILOVER}...),
 *                         0 (IFLA_EVENT_NONE) when absent.
 */
public record Link(
    int ifindex,
    String name,
    int type,
    long flags,
    int mtu,
    byte[] address,
    byte[] broadcastAddress,
    int operationalState,
    Vlan vlan,
    String kind,
    int txQueues,
    int event)
{
    public boolean isVlan()
    {
        return vlan != null;
    }

    public boolean isLoopback()
    {
        return (flags & LinkMessage.IFF_LOOPBACK) != 0 || type == LinkMessage.ARPHRD_LOOPBACK;
    }

    public boolean isNoArp()
    {
        return (flags & LinkMessage.IFF_NOARP) != 0;
    }

    /** A bonding master ({@code netif_is_bond_master}: its link kind is {@code bond}). */
    public boolean isBondMaster()
    {
        return kind.equals("bond");
    }

    /** The notification {@code NETDEV_BONDING_FAILOVER} caused: the bond changed its active slave. */
    public boolean isBondingFailover()
    {
        return event == LinkMessage.IFLA_EVENT_BONDING_FAILOVER;
    }

    public boolean isInfiniband()
    {
        return type == LinkMessage.ARPHRD_INFINIBAND;
    }

    public String addressText()
    {
        return HardwareAddress.format(address);
    }

    public String broadcastText()
    {
        return HardwareAddress.format(broadcastAddress);
    }
}
