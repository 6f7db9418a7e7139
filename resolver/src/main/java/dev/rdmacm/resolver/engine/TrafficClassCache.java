package dev.rdmacm.resolver.engine;

import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.netlink.TrafficClasses;
import org.agrona.collections.Int2ObjectHashMap;

import java.io.IOException;

/**
 * The netdevs' traffic classes ({@code num_tc}, {@code prio_tc_map}) the loop has read with an
 * RTM_GETQDISC dump, by ifindex, so that a RoCE route does not dump every qdisc of the namespace. An
 * entry goes when rtnetlink reports a qdisc change on its netdev (RTNLGRP_TC: mqprio sets the classes
 * as it is added and clears them as it goes) or the netdev's removal; everything goes when the loop's
 * event socket overflowed. Loop thread only.
 */
public final class TrafficClassCache
{
    /** Made at the first netdev with classes to ask about: a caller's route makes a cache per call (CallerRoute), and most netdevs have one queue. */
    private Int2ObjectHashMap<TrafficClasses> byIfindex;

    /** An empty cache: each netdev's classes are read the first time they are asked for. */
    public TrafficClassCache()
    {
    }

    /**
     * The classes of {@code netdev}. A netdev with one transmit queue has none without asking:
     * {@code mqprio_init} refuses it ({@code netif_is_multiqueue}).
     */
    TrafficClasses of(final Link netdev, final Rtnetlink rtnetlink) throws IOException
    {
        if (netdev.txQueues() == 1)
        {
            return TrafficClasses.none(netdev.ifindex());
        }
        if (byIfindex == null)
        {
            byIfindex = new Int2ObjectHashMap<>();
        }
        TrafficClasses classes = byIfindex.get(netdev.ifindex());
        if (classes == null)
        {
            classes = rtnetlink.trafficClasses(netdev.ifindex());
            byIfindex.put(netdev.ifindex(), classes);
        }
        return classes;
    }

    /** A qdisc of {@code ifindex} changed, or the netdev went away. */
    public void changed(final int ifindex)
    {
        if (byIfindex != null)
        {
            byIfindex.remove(ifindex);
        }
    }

    /** Events were lost: nothing read before can be trusted. */
    public void clear()
    {
        if (byIfindex != null)
        {
            byIfindex.clear();
        }
    }
}
