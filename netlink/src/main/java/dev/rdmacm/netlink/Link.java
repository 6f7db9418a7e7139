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
    Vlan vlan)
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
