package dev.rdmacm.netlink;

/**
 * Flyweight over {@code struct ifinfomsg} (16 bytes), the body of RTM_NEWLINK/RTM_GETLINK/RTM_DELLINK,
 * followed by IFLA_* attributes. Host byte order.
 * <pre>
 *  +---------------+---------------+-------------------------------+
 *  |  ifi_family   |    (pad)      |   ifi_type (u16, ARPHRD_*)    |  0
 *  +---------------+---------------+-------------------------------+
 *  |                       ifi_index (s32)                         |  4
 *  +---------------------------------------------------------------+
 *  |                  ifi_flags (u32, IFF_*)                       |  8
 *  +---------------------------------------------------------------+
 *  |                      ifi_change (u32)                         | 12
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class LinkMessage extends MessageBody<LinkMessage>
{
    public static final int PAD_OFFSET = 1;
    public static final int TYPE_OFFSET = 2;
    public static final int INDEX_OFFSET = 4;
    public static final int FLAGS_OFFSET = 8;
    public static final int CHANGE_OFFSET = 12;
    public static final int LENGTH = 16;

    public static final int IFLA_ADDRESS = 1;
    public static final int IFLA_BROADCAST = 2;
    public static final int IFLA_IFNAME = 3;
    public static final int IFLA_MTU = 4;
    public static final int IFLA_LINK = 5;
    public static final int IFLA_OPERSTATE = 16;
    public static final int IFLA_LINKINFO = 18;
    /** Nested in IFLA_LINKINFO. */
    public static final int IFLA_INFO_KIND = 1;
    public static final int IFLA_INFO_DATA = 2;
    /** Nested in IFLA_INFO_DATA of kind {@code vlan}. */
    public static final int IFLA_VLAN_ID = 1;
    public static final int IFLA_VLAN_EGRESS_QOS = 3;
    /** Nested in IFLA_VLAN_EGRESS_QOS: {@code struct ifla_vlan_qos_mapping { __u32 from; __u32 to; }}. */
    public static final int IFLA_VLAN_QOS_MAPPING = 1;
    public static final int QOS_MAPPING_FROM_OFFSET = 0;
    public static final int QOS_MAPPING_TO_OFFSET = 4;
    public static final int QOS_MAPPING_LENGTH = 8;
    /** Request attribute: which extra data to include (RTEXT_FILTER_*); 0 keeps replies small. */
    public static final int IFLA_EXT_MASK = 29;
    /** u32: the netdev's transmit queues; a qdisc that sets traffic classes (mqprio) needs more than one. */
    public static final int IFLA_NUM_TX_QUEUES = 31;
    /** u32 of an RTM_NEWLINK notification: the netdev event that caused it (IFLA_EVENT_*). */
    public static final int IFLA_EVENT = 44;
    /** {@code NETDEV_BONDING_FAILOVER}: a bond's active slave changed. */
    public static final int IFLA_EVENT_BONDING_FAILOVER = 3;

    public static final int ARPHRD_ETHER = 1;
    public static final int ARPHRD_INFINIBAND = 32;
    public static final int ARPHRD_LOOPBACK = 772;
    public static final int ARPHRD_NONE = 0xfffe;

    public static final long IFF_UP = 0x1;
    public static final long IFF_BROADCAST = 0x2;
    public static final long IFF_LOOPBACK = 0x8;
    public static final long IFF_NOARP = 0x80;
    public static final long IFF_LOWER_UP = 0x10000;

    @Override
    int length()
    {
        return LENGTH;
    }

    @Override
    String structName()
    {
        return "ifinfomsg";
    }

    public int type()
    {
        return hostU16(TYPE_OFFSET);
    }

    public LinkMessage type(final int arphrd)
    {
        putHostU16(TYPE_OFFSET, arphrd);
        return this;
    }

    public int index()
    {
        return (int)hostU32(INDEX_OFFSET);
    }

    public LinkMessage index(final int ifindex)
    {
        putHostU32(INDEX_OFFSET, ifindex);
        return this;
    }

    public long flags()
    {
        return hostU32(FLAGS_OFFSET);
    }

    public LinkMessage flags(final long flags)
    {
        putHostU32(FLAGS_OFFSET, flags);
        return this;
    }

    public long change()
    {
        return hostU32(CHANGE_OFFSET);
    }
}
