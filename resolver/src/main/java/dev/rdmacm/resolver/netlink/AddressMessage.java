package dev.rdmacm.resolver.netlink;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.resolver.netlink.NetlinkMessageHeader.ORDER;

/**
 * Flyweight over {@code struct ifaddrmsg} (8 bytes), the body of RTM_NEWADDR/RTM_GETADDR, followed by
 * IFA_* attributes. Host byte order.
 * <pre>
 *  +---------------+---------------+---------------+---------------+
 *  |  ifa_family   | ifa_prefixlen |   ifa_flags   |   ifa_scope   |  0
 *  +---------------+---------------+---------------+---------------+
 *  |                       ifa_index (u32)                         |  4
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class AddressMessage
{
    public static final int FAMILY_OFFSET = 0;
    public static final int PREFIX_LENGTH_OFFSET = 1;
    public static final int FLAGS_OFFSET = 2;
    public static final int SCOPE_OFFSET = 3;
    public static final int INDEX_OFFSET = 4;
    public static final int LENGTH = 8;

    public static final int IFA_ADDRESS = 1;
    public static final int IFA_LOCAL = 2;
    public static final int IFA_LABEL = 3;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    public AddressMessage wrap(final DirectBuffer buffer, final int offset)
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

    public AddressMessage clear()
    {
        mutableBuffer.setMemory(offset, LENGTH, (byte)0);
        return this;
    }

    public short family()
    {
        return (short)(buffer.getByte(offset + FAMILY_OFFSET) & 0xff);
    }

    public AddressMessage family(final int family)
    {
        mutableBuffer.putByte(offset + FAMILY_OFFSET, (byte)family);
        return this;
    }

    public short prefixLength()
    {
        return (short)(buffer.getByte(offset + PREFIX_LENGTH_OFFSET) & 0xff);
    }

    public short flags()
    {
        return (short)(buffer.getByte(offset + FLAGS_OFFSET) & 0xff);
    }

    public short scope()
    {
        return (short)(buffer.getByte(offset + SCOPE_OFFSET) & 0xff);
    }

    public long index()
    {
        return buffer.getInt(offset + INDEX_OFFSET, ORDER) & 0xffff_ffffL;
    }
}
