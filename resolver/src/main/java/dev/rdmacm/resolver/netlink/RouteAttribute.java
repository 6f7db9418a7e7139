package dev.rdmacm.resolver.netlink;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.resolver.netlink.NetlinkMessageHeader.ORDER;
import static dev.rdmacm.resolver.netlink.NetlinkMessageHeader.align;

/**
 * Flyweight cursor over a run of {@code struct rtattr} (and the identical {@code struct nlattr})
 * type-length-value attributes, host byte order, each padded to 4 bytes.
 * <pre>
 *  +-------------------------------+-------------------------------+
 *  |   rta_len (u16, incl. hdr)    |        rta_type (u16)         |  0
 *  +-------------------------------+-------------------------------+
 *  |              value (rta_len - 4 bytes), padded to 4           |  4
 *  +---------------------------------------------------------------+
 * </pre>
 * Use: {@code wrap(buffer, start, end)} then {@code while (next()) switch (type()) ...}.
 */
public final class RouteAttribute
{
    public static final int LENGTH_OFFSET = 0;
    public static final int TYPE_OFFSET = 2;
    public static final int HEADER_LENGTH = 4;
    /** nlattr flag bits that share the type field (NLA_F_NESTED, NLA_F_NET_BYTEORDER). */
    public static final int TYPE_MASK = 0x3fff;

    private DirectBuffer buffer;
    private int next;
    private int end;
    private int current = -1;

    /** Puts an attribute with {@code length} value bytes copied from {@code value} and returns the aligned end. */
    public static int put(
        final MutableDirectBuffer buffer, final int offset, final int type, final byte[] value, final int length)
    {
        putHeader(buffer, offset, type, length);
        buffer.putBytes(offset + HEADER_LENGTH, value, 0, length);
        return padTo(buffer, offset + HEADER_LENGTH + length);
    }

    public static int putInt(final MutableDirectBuffer buffer, final int offset, final int type, final int value)
    {
        putHeader(buffer, offset, type, 4);
        buffer.putInt(offset + HEADER_LENGTH, value, ORDER);
        return offset + HEADER_LENGTH + 4;
    }

    private static void putHeader(final MutableDirectBuffer buffer, final int offset, final int type, final int length)
    {
        buffer.putShort(offset + LENGTH_OFFSET, (short)(HEADER_LENGTH + length), ORDER);
        buffer.putShort(offset + TYPE_OFFSET, (short)type, ORDER);
    }

    private static int padTo(final MutableDirectBuffer buffer, final int end)
    {
        final int aligned = align(end);
        buffer.setMemory(end, aligned - end, (byte)0);
        return aligned;
    }

    /** Walks the attributes in {@code [offset, end)}. */
    public RouteAttribute wrap(final DirectBuffer buffer, final int offset, final int end)
    {
        this.buffer = buffer;
        this.next = offset;
        this.end = end;
        this.current = -1;
        return this;
    }

    /** Advances to the next well-formed attribute; false at the end or at a truncated one. */
    public boolean next()
    {
        if (next + HEADER_LENGTH > end)
        {
            return false;
        }
        final int length = buffer.getShort(next + LENGTH_OFFSET, ORDER) & 0xffff;
        if (length < HEADER_LENGTH || next + length > end)
        {
            return false;
        }
        current = next;
        next += align(length);
        return true;
    }

    public int type()
    {
        return (buffer.getShort(current + TYPE_OFFSET, ORDER) & 0xffff) & TYPE_MASK;
    }

    public int valueOffset()
    {
        return current + HEADER_LENGTH;
    }

    public int valueLength()
    {
        return (buffer.getShort(current + LENGTH_OFFSET, ORDER) & 0xffff) - HEADER_LENGTH;
    }

    public long u32()
    {
        return buffer.getInt(valueOffset(), ORDER) & 0xffff_ffffL;
    }

    public int u8()
    {
        return buffer.getByte(valueOffset()) & 0xff;
    }

    /** The value bytes as they are (addresses are network order and are copied unchanged). */
    public byte[] bytes()
    {
        final byte[] value = new byte[valueLength()];
        buffer.getBytes(valueOffset(), value);
        return value;
    }

    /** A NUL-terminated string value, without the NUL. */
    public String string()
    {
        int length = valueLength();
        while (length > 0 && buffer.getByte(valueOffset() + length - 1) == 0)
        {
            length--;
        }
        return buffer.getStringWithoutLengthAscii(valueOffset(), length);
    }
}
