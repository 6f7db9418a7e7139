package dev.rdmacm.resolver.netlink;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.resolver.netlink.NetlinkMessageHeader.ORDER;

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
public final class RouteMessage
{
    public static final int FAMILY_OFFSET = 0;
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

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    public RouteMessage wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer m ? m : null;
        this.offset = offset;
        return this;
    }

    public int attributesOffset()
    {
        return offset + LENGTH;
    }

    /** Zeroes the whole body so that fields not set by the caller are 0 as the kernel expects. */
    public RouteMessage clear()
    {
        mutableBuffer.setMemory(offset, LENGTH, (byte)0);
        return this;
    }

    public short family()
    {
        return (short)(buffer.getByte(offset + FAMILY_OFFSET) & 0xff);
    }

    public RouteMessage family(final int family)
    {
        mutableBuffer.putByte(offset + FAMILY_OFFSET, (byte)family);
        return this;
    }

    public short dstLength()
    {
        return (short)(buffer.getByte(offset + DST_LEN_OFFSET) & 0xff);
    }

    public RouteMessage dstLength(final int bits)
    {
        mutableBuffer.putByte(offset + DST_LEN_OFFSET, (byte)bits);
        return this;
    }

    public short srcLength()
    {
        return (short)(buffer.getByte(offset + SRC_LEN_OFFSET) & 0xff);
    }

    public RouteMessage srcLength(final int bits)
    {
        mutableBuffer.putByte(offset + SRC_LEN_OFFSET, (byte)bits);
        return this;
    }

    public short tos()
    {
        return (short)(buffer.getByte(offset + TOS_OFFSET) & 0xff);
    }

    public short table()
    {
        return (short)(buffer.getByte(offset + TABLE_OFFSET) & 0xff);
    }

    public short protocol()
    {
        return (short)(buffer.getByte(offset + PROTOCOL_OFFSET) & 0xff);
    }

    public short scope()
    {
        return (short)(buffer.getByte(offset + SCOPE_OFFSET) & 0xff);
    }

    public short type()
    {
        return (short)(buffer.getByte(offset + TYPE_OFFSET) & 0xff);
    }

    public long flags()
    {
        return buffer.getInt(offset + FLAGS_OFFSET, ORDER) & 0xffff_ffffL;
    }

    public RouteMessage flags(final long flags)
    {
        mutableBuffer.putInt(offset + FLAGS_OFFSET, (int)flags, ORDER);
        return this;
    }
}
