package dev.rdmacm.netlink;

import java.util.Arrays;

/**
 * A netdev's traffic classes: {@code dev->num_tc} and {@code dev->prio_tc_map}, as the kernel's
 * {@code netdev_get_prio_tc_map} reads them. The RDMA CM takes a RoCE path's SL from this map when the
 * netdev has classes ({@code iboe_tos_to_sl} in drivers/infiniband/core/cma.c).
 *
 * @param ifindex        the netdev.
 * @param count          {@code num_tc}; 0 for a netdev without traffic classes.
 * @param priorityToClass {@code prio_tc_map}, 16 entries (skb priority 0..15).
 */
public record TrafficClasses(int ifindex, int count, byte[] priorityToClass)
{
    public TrafficClasses
    {
        if (priorityToClass.length != MqprioOptions.PRIO_TC_MAP_LENGTH)
        {
            throw new IllegalArgumentException("prio_tc_map: expected " + MqprioOptions.PRIO_TC_MAP_LENGTH +
                " entries, got " + priorityToClass.length);
        }
        priorityToClass = priorityToClass.clone();
    }

    /** A netdev with {@code num_tc} 0. */
    public static TrafficClasses none(final int ifindex)
    {
        return new TrafficClasses(ifindex, 0, new byte[MqprioOptions.PRIO_TC_MAP_LENGTH]);
    }

    public boolean present()
    {
        return count > 0;
    }

    /** {@code netdev_get_prio_tc_map}: {@code prio_tc_map[priority & TC_BITMASK]}. */
    public int trafficClass(final long priority)
    {
        return priorityToClass[(int)(priority & (MqprioOptions.PRIO_TC_MAP_LENGTH - 1))] & 0xff;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof TrafficClasses t && t.ifindex == ifindex && t.count == count &&
            Arrays.equals(t.priorityToClass, priorityToClass);
    }

    @Override
    public int hashCode()
    {
        return 31 * (31 * ifindex + count) + Arrays.hashCode(priorityToClass);
    }

    @Override
    public String toString()
    {
        final StringBuilder map = new StringBuilder();
        for (final byte b : priorityToClass)
        {
            map.append(map.isEmpty() ? "" : " ").append(b & 0xff);
        }
        return "num_tc " + count + " map " + map;
    }
}
