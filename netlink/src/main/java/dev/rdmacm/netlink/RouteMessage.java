package dev.rdmacm.netlink;

/**
 * Flyweight over {@code struct rtmsg} (12 bytes), the body of RTM_NEWROUTE/RTM_GETROUTE, followed by
 * RTA_* attributes. Host byte order.
 * <pre>
 *  +---------------+---------------+---------------+---------------+
 *  |  rtm_family   |  rtm_dst_len  |  rtm_src_len  |    rtm_tos    |  0
 *  +---------------+---------------+---------------+---------------+
 *  |   rtm_table   | rtm_protocol  |   rtm_scope   |   rtm_type    |  4
 *  +---------------+---------------+---------------+---------------+
 *  |                       rtm_flags (u32)                         |  8
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class RouteMessage extends MessageBody<RouteMessage>
{
    public static final int DST_LEN_OFFSET = 1;
    public static final int SRC_LEN_OFFSET = 2;
    public static final int TOS_OFFSET = 3;
    public static final int TABLE_OFFSET = 4;
    public static final int PROTOCOL_OFFSET = 5;
    public static final int SCOPE_OFFSET = 6;
    public static final int TYPE_OFFSET = 7;
    public static final int FLAGS_OFFSET = 8;
    public static final int LENGTH = 12;

    public static final int RTA_DST = 1;
    public static final int RTA_SRC = 2;
    public static final int RTA_IIF = 3;
    public static final int RTA_OIF = 4;
    public static final int RTA_GATEWAY = 5;
    public static final int RTA_PRIORITY = 6;
    public static final int RTA_PREFSRC = 7;
    public static final int RTA_METRICS = 8;
    public static final int RTA_TABLE = 15;
    public static final int RTA_UID = 25;
    /** Nested in RTA_METRICS. */
    public static final int RTAX_MTU = 2;
    public static final int RTAX_HOPLIMIT = 10;

    public static final int RTN_UNSPEC = 0;
    public static final int RTN_UNICAST = 1;
    public static final int RTN_LOCAL = 2;
    public static final int RTN_BROADCAST = 3;
    public static final int RTN_ANYCAST = 4;
    public static final int RTN_MULTICAST = 5;
    public static final int RTN_BLACKHOLE = 6;
    public static final int RTN_UNREACHABLE = 7;
    public static final int RTN_PROHIBIT = 8;
    public static final int RTN_THROW = 9;

    /** Report the table the route came from; accepted under strict checking for IPv4 only. */
    public static final int RTM_F_LOOKUP_TABLE = 0x1000;

    @Override
    int length()
    {
        return LENGTH;
    }

    @Override
    String structName()
    {
        return "rtmsg";
    }

    public short dstLength()
    {
        return u8(DST_LEN_OFFSET);
    }

    public RouteMessage dstLength(final int bits)
    {
        putU8(DST_LEN_OFFSET, bits);
        return this;
    }

    public short srcLength()
    {
        return u8(SRC_LEN_OFFSET);
    }

    public RouteMessage srcLength(final int bits)
    {
        putU8(SRC_LEN_OFFSET, bits);
        return this;
    }

    public short tos()
    {
        return u8(TOS_OFFSET);
    }

    public short table()
    {
        return u8(TABLE_OFFSET);
    }

    public short protocol()
    {
        return u8(PROTOCOL_OFFSET);
    }

    public short scope()
    {
        return u8(SCOPE_OFFSET);
    }

    public short type()
    {
        return u8(TYPE_OFFSET);
    }

    public long flags()
    {
        return hostU32(FLAGS_OFFSET);
    }

    public RouteMessage flags(final long flags)
    {
        putHostU32(FLAGS_OFFSET, flags);
        return this;
    }
}
