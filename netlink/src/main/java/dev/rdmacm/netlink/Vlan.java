package dev.rdmacm.netlink;

import java.util.List;

/**
 * What RTM_GETLINK says about an 802.1Q upper device ({@code IFLA_LINKINFO} of kind {@code vlan}):
 * its VLAN id, the netdev it sits on ({@code IFLA_LINK}) and its egress QoS map, the table
 * {@code ip link add ... type vlan egress-qos-map FROM:TO} fills.
 * <p>
 * The RDMA CM reads the map to choose a RoCE path's SL ({@code iboe_tos_to_sl} and
 * {@code get_vlan_ndev_tc} in drivers/infiniband/core/cma.c): the VLAN priority the map gives the
 * skb priority of the id's ToS.
 *
 * @param id              IFLA_VLAN_ID.
 * @param lowerIfindex    IFLA_LINK: the netdev the VLAN sits on, 0 when not reported.
 * @param egressQosMap    IFLA_VLAN_EGRESS_QOS, in the order the kernel lists it.
 */
public record Vlan(int id, int lowerIfindex, List<QosMapping> egressQosMap)
{
    /** The highest 802.1p priority: the PCP field has three bits. */
    public static final int MAX_PRIORITY = 7;

    /**
     * One {@code struct ifla_vlan_qos_mapping}: skb priority {@code from} leaves with 802.1p priority
     * {@code to}.
     */
    public record QosMapping(long from, int to)
    {
    }

    public Vlan
    {
        egressQosMap = List.copyOf(egressQosMap);
    }

    /**
     * The 802.1p priority a frame of skb priority {@code skbPriority} leaves with, as
     * {@code vlan_dev_get_egress_qos_mask} finds it; 0 when the map has no entry for it.
     */
    public int egressPriority(final long skbPriority)
    {
        for (final QosMapping mapping : egressQosMap)
        {
            if (mapping.from() == skbPriority)
            {
                return mapping.to() & MAX_PRIORITY;
            }
        }
        return 0;
    }
}
