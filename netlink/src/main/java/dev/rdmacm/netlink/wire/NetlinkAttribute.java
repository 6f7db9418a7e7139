package dev.rdmacm.netlink.wire;

import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.ORDER;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.align;

/**
 * Flyweight cursor over a run of {@code struct nlattr} (and the identical {@code struct rtattr})
 * type-length-value attributes, host byte order, each padded to 4 bytes ({@code NLA_ALIGN}), and
 * the static encoders that write them.
 * <pre>
 *  +-------------------------------+-------------------------------+
 *  |   nla_len (u16, incl. hdr)    |  nla_type (u16, flag bits)    |  0
 *  +-------------------------------+-------------------------------+
 *  |              value (nla_len - 4 bytes), padded to 4           |  4
 *  +---------------------------------------------------------------+
 * </pre>
 * Two ways to read, because the two users want different things from a bad attribute:
 * {@code wrap(buffer, start, end)} then {@code while (next()) switch (type()) ...} stops quietly at a
 * truncated attribute (the NETLINK_ROUTE client takes what the kernel sent), while
 * {@link #forEach} rejects one with a {@link MalformedMessageException} (the RDMA netlink LS codecs
 * answer a malformed request with an error, as ibacm does).
 */
public final class NetlinkAttribute
{
    public static final int LENGTH_OFFSET = 0;
    public static final int TYPE_OFFSET = 2;
    /** {@code NLA_HDRLEN}. */
    public static final int HEADER_LENGTH = 4;
    public static final int NLA_F_NET_BYTEORDER = 1 << 14;
    public static final int NLA_F_NESTED = 1 << 15;
    /** {@code NLA_TYPE_MASK}: the type without the flag bits that share its field. */
    public static final int TYPE_MASK = ~(NLA_F_NESTED | NLA_F_NET_BYTEORDER) & 0xffff;

    /** Receives each attribute of a run; {@code type} still carries its flag bits. */
    @FunctionalInterface
    public interface Visitor
    {
        void onAttribute(int type, DirectBuffer buffer, int valueOffset, int valueLength);
    }

    private DirectBuffer buffer;
    private int next;
    private int end;
    private int current = -1;

    /** Writes an attribute header for {@code valueLength} bytes; returns the value's offset. */
    public static int putHeader(
        final MutableDirectBuffer buffer, final int offset, final int type, final int valueLength)
    {
        buffer.putShort(offset + LENGTH_OFFSET, (short)(HEADER_LENGTH + valueLength), ORDER);
        buffer.putShort(offset + TYPE_OFFSET, (short)type, ORDER);
        return offset + HEADER_LENGTH;
    }

    /** The bytes an attribute with {@code valueLength} value bytes takes, padding included. */
    public static int totalLength(final int valueLength)
    {
        return align(HEADER_LENGTH + valueLength);
    }

    /** Puts an attribute with {@code length} value bytes copied from {@code value}; returns the aligned end. */
    public static int put(
        final MutableDirectBuffer buffer, final int offset, final int type, final byte[] value, final int length)
    {
        buffer.putBytes(putHeader(buffer, offset, type, length), value, 0, length);
        return pad(buffer, offset, length);
    }

    /** Puts an attribute holding all of {@code value}; returns the aligned end. */
    public static int put(final MutableDirectBuffer buffer, final int offset, final int type, final byte[] value)
    {
        return put(buffer, offset, type, value, value.length);
    }

    public static int putU8(final MutableDirectBuffer buffer, final int offset, final int type, final int value)
    {
        buffer.putByte(putHeader(buffer, offset, type, 1), (byte)value);
        return pad(buffer, offset, 1);
    }

    public static int putU16(final MutableDirectBuffer buffer, final int offset, final int type, final int value)
    {
        buffer.putShort(putHeader(buffer, offset, type, 2), (short)value, ORDER);
        return pad(buffer, offset, 2);
    }

    public static int putU32(final MutableDirectBuffer buffer, final int offset, final int type, final long value)
    {
        buffer.putInt(putHeader(buffer, offset, type, 4), (int)value, ORDER);
        return pad(buffer, offset, 4);
    }

    public static int putU64(final MutableDirectBuffer buffer, final int offset, final int type, final long value)
    {
        buffer.putLong(putHeader(buffer, offset, type, 8), value, ORDER);
        return pad(buffer, offset, 8);
    }

    private static int pad(final MutableDirectBuffer buffer, final int offset, final int valueLength)
    {
        final int end = offset + HEADER_LENGTH + valueLength;
        final int aligned = offset + totalLength(valueLength);
        buffer.setMemory(end, aligned - end, (byte)0);
        return aligned;
    }

    /**
     * Walks the attributes in {@code [offset, offset + length)}. Stops, as the kernel's
     * {@code nla_ok} does, at trailing bytes too short for a header; rejects an attribute whose
     * length is below its header or runs past the run.
     *
     * @param typeMask the family's mask of the type field ({@link #TYPE_MASK}, or RDMA's, which also
     *                 strips its MANDATORY bit), so that the error names the bare type.
     * @param message  names the message in the error, e.g. "LS RESOLVE request".
     */
    public static void forEach(final DirectBuffer buffer, final int offset, final int length, final int typeMask,
        final String message, final Visitor visitor)
    {
        int at = offset;
        final int end = offset + length;
        while (end - at >= HEADER_LENGTH)
        {
            final int nlaLen = buffer.getShort(at + LENGTH_OFFSET, ORDER) & 0xffff;
            final int type = buffer.getShort(at + TYPE_OFFSET, ORDER) & 0xffff;
            if (nlaLen < HEADER_LENGTH || nlaLen > end - at)
            {
                throw new MalformedMessageException(message + ": attribute type " + (type & typeMask)
                    + " at byte " + (at - offset) + " has nla_len " + nlaLen + ", which must be 4.." + (end - at));
            }
            visitor.onAttribute(type, buffer, at + HEADER_LENGTH, nlaLen - HEADER_LENGTH);
            at += align(nlaLen);
        }
    }

    /**
     * Walks the attributes in {@code [offset, end)}; an empty run when {@code end <= offset}.
     *
     * @throws MalformedMessageException when the run does not lie inside the buffer.
     */
    public NetlinkAttribute wrap(final DirectBuffer buffer, final int offset, final int end)
    {
        if (offset < 0 || end > buffer.capacity())
        {
            throw new MalformedMessageException("netlink attributes: bytes " + offset + ".." + end +
                " do not fit in a buffer of " + buffer.capacity() + " bytes");
        }
        this.buffer = buffer;
        this.next = offset;
        this.end = end;
        this.current = -1;
        return this;
    }

    /** Advances to the next well-formed attribute; false at the end or at a truncated one. */
    public boolean next()
    {
        current = -1;
        if (buffer == null || next + HEADER_LENGTH > end)
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

    /** The type without its flag bits. */
    public int type()
    {
        return (buffer.getShort(current() + TYPE_OFFSET, ORDER) & 0xffff) & TYPE_MASK;
    }

    public int valueOffset()
    {
        return current() + HEADER_LENGTH;
    }

    public int valueLength()
    {
        return (buffer.getShort(current() + LENGTH_OFFSET, ORDER) & 0xffff) - HEADER_LENGTH;
    }

    public long u32()
    {
        requireValueLength(4);
        return buffer.getInt(valueOffset(), ORDER) & 0xffff_ffffL;
    }

    public int u8()
    {
        requireValueLength(1);
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

    /**
     * @throws IllegalStateException when {@link #next()} has not returned true: reading before it is
     *                               the caller's bug, not bad input.
     */
    private int current()
    {
        if (current < 0)
        {
            throw new IllegalStateException("no current netlink attribute: call next() first");
        }
        return current;
    }

    private void requireValueLength(final int required)
    {
        final int length = valueLength();
        if (length < required)
        {
            throw new MalformedMessageException("netlink attribute type " + type() + ": " + length +
                " value bytes, must be at least " + required);
        }
    }
}
