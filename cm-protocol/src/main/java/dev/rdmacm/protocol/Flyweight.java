package dev.rdmacm.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * The buffer, offset and bounds check that every fixed-layout flyweight in this module shares, and the
 * bit-field accessors that IBA layouts need (a 20-bit flow label inside a 32-bit word, a 2-bit selector
 * above a 6-bit code). Fields are big-endian unless a subclass says a C struct keeps them in host order
 * (see {@link #HOST_ORDER}).
 * <p>
 * A flyweight is wrapped for reading with a length that is checked once, so that no accessor can read
 * outside the message, or for writing over a buffer the caller sized.
 */
public abstract class Flyweight
{
    /** The byte order of host-visible C structs ({@code sockaddr_ib.sib_family}, {@code ibv_path_data.flags}). */
    protected static final ByteOrder HOST_ORDER = ByteOrder.nativeOrder();

    protected DirectBuffer buffer;
    protected MutableDirectBuffer mutableBuffer;
    protected int offset;

    /**
     * Wraps for reading after checking that {@code required} bytes lie inside both the message and the
     * buffer.
     *
     * @throws MalformedMessageException naming {@code what} when they do not.
     */
    protected final void wrapForReading(
        final String what, final DirectBuffer buffer, final int offset, final int length, final int required)
    {
        MalformedMessageException.requireLength(what, length, required);
        if (offset < 0 || (long)offset + length > buffer.capacity())
        {
            throw new MalformedMessageException(what + ": " + length + " bytes at offset " + offset +
                " do not fit in a buffer of " + buffer.capacity() + " bytes");
        }
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer m ? m : null;
        this.offset = offset;
    }

    protected final void wrapForWriting(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
    }

    public final DirectBuffer buffer()
    {
        return buffer;
    }

    public final int offset()
    {
        return offset;
    }

    protected final boolean isWrapped()
    {
        return buffer != null;
    }

    protected final short u8(final int field)
    {
        return (short)(buffer.getByte(offset + field) & 0xff);
    }

    protected final void putU8(final int field, final int value)
    {
        mutableBuffer.putByte(offset + field, (byte)value);
    }

    protected final int u16(final int field)
    {
        return buffer.getShort(offset + field, BIG_ENDIAN) & 0xffff;
    }

    protected final void putU16(final int field, final int value)
    {
        mutableBuffer.putShort(offset + field, (short)value, BIG_ENDIAN);
    }

    protected final long u32(final int field)
    {
        return buffer.getInt(offset + field, BIG_ENDIAN) & 0xffff_ffffL;
    }

    protected final void putU32(final int field, final long value)
    {
        mutableBuffer.putInt(offset + field, (int)value, BIG_ENDIAN);
    }

    /** A 64-bit field as its raw bits; callers that print it use {@link Long#toUnsignedString(long)}. */
    protected final long u64(final int field)
    {
        return buffer.getLong(offset + field, BIG_ENDIAN);
    }

    protected final void putU64(final int field, final long value)
    {
        mutableBuffer.putLong(offset + field, value, BIG_ENDIAN);
    }

    /** {@code width} bits of the byte at {@code field}, starting {@code shift} bits above its LSB. */
    protected final int bits8(final int field, final int shift, final int width)
    {
        return (u8(field) >>> shift) & ((1 << width) - 1);
    }

    protected final void putBits8(final int field, final int shift, final int width, final int value)
    {
        final int mask = ((1 << width) - 1) << shift;
        putU8(field, (u8(field) & ~mask) | ((value << shift) & mask));
    }

    protected final int bits16(final int field, final int shift, final int width)
    {
        return (u16(field) >>> shift) & ((1 << width) - 1);
    }

    protected final void putBits16(final int field, final int shift, final int width, final int value)
    {
        final int mask = ((1 << width) - 1) << shift;
        putU16(field, (u16(field) & ~mask) | ((value << shift) & mask));
    }

    protected final long bits32(final int field, final int shift, final int width)
    {
        return (u32(field) >>> shift) & ((1L << width) - 1);
    }

    protected final void putBits32(final int field, final int shift, final int width, final long value)
    {
        final long mask = ((1L << width) - 1) << shift;
        putU32(field, (u32(field) & ~mask) | ((value << shift) & mask));
    }

    /** A GID field as a value object; hot paths use the two {@link #u64} halves instead. */
    protected final Gid gidAt(final int field)
    {
        return new Gid(u64(field), u64(field + 8));
    }

    protected final void putGid(final int field, final long subnetPrefix, final long interfaceId)
    {
        putU64(field, subnetPrefix);
        putU64(field + 8, interfaceId);
    }

    protected final int hostU16(final int field)
    {
        return buffer.getShort(offset + field, HOST_ORDER) & 0xffff;
    }

    protected final void putHostU16(final int field, final int value)
    {
        mutableBuffer.putShort(offset + field, (short)value, HOST_ORDER);
    }

    protected final long hostU32(final int field)
    {
        return buffer.getInt(offset + field, HOST_ORDER) & 0xffff_ffffL;
    }

    protected final void putHostU32(final int field, final long value)
    {
        mutableBuffer.putInt(offset + field, (int)value, HOST_ORDER);
    }

    protected final long hostU64(final int field)
    {
        return buffer.getLong(offset + field, HOST_ORDER);
    }

    protected final void putHostU64(final int field, final long value)
    {
        mutableBuffer.putLong(offset + field, value, HOST_ORDER);
    }

    /** Zeroes {@code length} bytes from {@code field}, for reserved ranges a setter must clear. */
    protected final void zero(final int field, final int length)
    {
        mutableBuffer.setMemory(offset + field, length, (byte)0);
    }

    /** A fixed-size NUL-padded UTF-8 text field (a ServiceName, a NodeDescription) up to its first NUL. */
    protected final String paddedText(final int field, final int length)
    {
        int end = 0;
        while (end < length && buffer.getByte(offset + field + end) != 0)
        {
            end++;
        }
        final byte[] bytes = new byte[end];
        buffer.getBytes(offset + field, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * Writes {@code text} as UTF-8 into a fixed-size field, NUL-padded.
     *
     * @throws IllegalArgumentException naming {@code what} when the text needs more than {@code length} bytes.
     */
    protected final void putPaddedText(final String what, final int field, final int length, final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > length)
        {
            throw new IllegalArgumentException(what + " '" + text + "' is " + bytes.length +
                " bytes of UTF-8, the field holds " + length);
        }
        zero(field, length);
        mutableBuffer.putBytes(offset + field, bytes);
    }
}
