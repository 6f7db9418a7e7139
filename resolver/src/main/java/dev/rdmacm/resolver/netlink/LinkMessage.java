package dev.rdmacm.resolver.netlink;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.resolver.netlink.NetlinkMessageHeader.ORDER;

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
public final class LinkMessage
{
    public static final int FAMILY_OFFSET = 0;
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
    public static final int IFLA_OPERSTATE = 16;
    /** Request attribute: which extra data to include (RTEXT_FILTER_*); 0 keeps replies small. */
    public static final int IFLA_EXT_MASK = 29;

    public static final int ARPHRD_ETHER = 1;
    public static final int ARPHRD_INFINIBAND = 32;
    public static final int ARPHRD_LOOPBACK = 772;
    public static final int ARPHRD_NONE = 0xfffe;

    public static final long IFF_UP = 0x1;
    public static final long IFF_BROADCAST = 0x2;
    public static final long IFF_LOOPBACK = 0x8;
    public static final long IFF_NOARP = 0x80;
    public static final long IFF_LOWER_UP = 0x10000;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    public LinkMessage wrap(final DirectBuffer buffer, final int offset)
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

    public LinkMessage clear()
    {
        mutableBuffer.setMemory(offset, LENGTH, (byte)0);
        return this;
    }

    public short family()
    {
        return (short)(buffer.getByte(offset + FAMILY_OFFSET) & 0xff);
    }

    public LinkMessage family(final int family)
    {
        mutableBuffer.putByte(offset + FAMILY_OFFSET, (byte)family);
        return this;
    }

    public int type()
    {
        return buffer.getShort(offset + TYPE_OFFSET, ORDER) & 0xffff;
    }

    public LinkMessage type(final int arphrd)
    {
        mutableBuffer.putShort(offset + TYPE_OFFSET, (short)arphrd, ORDER);
        return this;
    }

    public int index()
    {
        return buffer.getInt(offset + INDEX_OFFSET, ORDER);
    }

    public LinkMessage index(final int ifindex)
    {
        mutableBuffer.putInt(offset + INDEX_OFFSET, ifindex, ORDER);
        return this;
    }

    public long flags()
    {
        return buffer.getInt(offset + FLAGS_OFFSET, ORDER) & 0xffff_ffffL;
    }

    public LinkMessage flags(final long flags)
    {
        mutableBuffer.putInt(offset + FLAGS_OFFSET, (int)flags, ORDER);
        return this;
    }

    public long change()
    {
        return buffer.getInt(offset + CHANGE_OFFSET, ORDER) & 0xffff_ffffL;
    }
}
