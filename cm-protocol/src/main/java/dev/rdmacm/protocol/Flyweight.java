package dev.rdmacm.protocol;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.UnsafeApi;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static java.nio.ByteOrder.BIG_ENDIAN;
import static org.agrona.DirectBuffer.SHOULD_BOUNDS_CHECK;

/**
 * The buffer, offset and bounds check that every fixed-layout flyweight in this module shares, and the
 * bit-field accessors that IBA layouts need (a 20-bit flow label inside a 32-bit word, a 2-bit selector
 * above a 6-bit code). Fields are big-endian unless a subclass says a C struct keeps them in host order
 * (see {@link #HOST_ORDER}).
 * <p>
 * A flyweight is wrapped for reading with a length that is checked once, so that no accessor can read
 * outside the message, or for writing over a buffer the caller sized.
 * <p>
 * <b>Why the field accessors do not call the buffer.</b> Measured with benchmarks/'s MadCodecBenchmark: a
 * {@code buffer.getInt(i, BIG_ENDIAN)} is an interface call into Agrona's getInt, boundsCheck0,
 * Objects.checkFromIndexSize and UnsafeApi.getInt, about 95 bytes of bytecode for C2 to inline per field.
 * A REQ encoder calls about 50 setters, and inlined they overflowed C2's per-compilation budget
 * (DesiredMethodLimit), which left the last 13 setters as real calls; reading eight MadHeader fields took
 * three times as long as it does now. So a wrap takes a snapshot of where the bytes are, the same
 * {@link DirectBuffer#byteArray()} and {@link DirectBuffer#addressOffset()} pair that Agrona's own
 * accessors use, and the accessors below read and write there through {@link UnsafeApi}, checked against
 * the buffer's capacity at wrap time where Agrona would check (not at all when
 * {@code agrona.disable.bounds.checks} is set). The one consequence: a flyweight keeps reading the memory
 * it was wrapped over, so wrap it again after re-pointing its buffer ({@code UnsafeBuffer.wrap}) elsewhere.
 * Bulk copies, zeroing and text still go through the buffer.
 */
public abstract class Flyweight
{
    /** The byte order of host-visible C structs ({@code sockaddr_ib.sib_family}, {@code ibv_path_data.flags}). */
    protected static final ByteOrder HOST_ORDER = ByteOrder.nativeOrder();

    /** Whether multi-byte fields must be byte-swapped between the wire (big-endian) and this CPU. */
    private static final boolean SWAP_BIG_ENDIAN = ByteOrder.nativeOrder() != BIG_ENDIAN;

    protected DirectBuffer buffer;
    protected MutableDirectBuffer mutableBuffer;
    protected int offset;

    // the snapshot the field accessors use, see the class comment
    /** The buffer's byte array, or null for off-heap memory. */
    private byte[] array;
    /** The address of the byte at {@link #offset}: relative to {@link #array}, or absolute when it is null. */
    private long address;
    /** How many bytes from {@link #offset} to the end of the buffer; -1 when unwrapped. */
    private int readLimit = -1;
    /** {@link #readLimit}, or -1 when the buffer is not a {@link MutableDirectBuffer}. */
    private int writeLimit = -1;

    /**
     * Wraps for reading after checking that {@code required} bytes lie inside both the message and the
     * buffer.
     *
     * @throws MalformedMessageException naming {@code what} when they do not.
     */
    protected final void wrapForReading(
        final String what, final DirectBuffer buffer, final int offset, final int length, final int required)
    {
        // the test is here and only the throw is in MalformedMessageException: C2 never inlines a method of
        // an exception class, so calling requireLength unconditionally cost every wrap a real call
        if (length < required)
        {
            MalformedMessageException.requireLength(what, length, required);
        }
        if (offset < 0 || (long)offset + length > buffer.capacity())
        {
            throw new MalformedMessageException(what + ": " + length + " bytes at offset " + offset +
                " do not fit in a buffer of " + buffer.capacity() + " bytes");
        }
        snapshot(buffer, buffer instanceof MutableDirectBuffer m ? m : null, offset);
    }

    protected final void wrapForWriting(final MutableDirectBuffer buffer, final int offset)
    {
        snapshot(buffer, buffer, offset);
    }

    private void snapshot(final DirectBuffer buffer, final MutableDirectBuffer mutableBuffer, final int offset)
    {
        // a flyweight is usually wrapped again and again over the same buffer: testing before storing a
        // reference spares the GC write barrier that every reference store pays
        if (this.buffer != buffer)
        {
            this.buffer = buffer;
        }
        if (this.mutableBuffer != mutableBuffer)
        {
            this.mutableBuffer = mutableBuffer;
        }
        final byte[] bytes = buffer.byteArray();
        if (array != bytes)
        {
            array = bytes;
        }
        this.offset = offset;
        this.address = buffer.addressOffset() + offset;
        // a negative offset leaves nothing accessible, as Agrona's check would refuse every index
        this.readLimit = offset < 0 ? -1 : buffer.capacity() - offset;
        this.writeLimit = mutableBuffer == null ? -1 : readLimit;
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
        return (short)(UnsafeApi.getByte(array, readAt(field, Byte.BYTES)) & 0xff);
    }

    protected final void putU8(final int field, final int value)
    {
        UnsafeApi.putByte(array, writeAt(field, Byte.BYTES), (byte)value);
    }

    protected final int u16(final int field)
    {
        return bigEndian(UnsafeApi.getShort(array, readAt(field, Short.BYTES))) & 0xffff;
    }

    protected final void putU16(final int field, final int value)
    {
        UnsafeApi.putShort(array, writeAt(field, Short.BYTES), bigEndian((short)value));
    }

    protected final long u32(final int field)
    {
        return bigEndian(UnsafeApi.getInt(array, readAt(field, Integer.BYTES))) & 0xffff_ffffL;
    }

    protected final void putU32(final int field, final long value)
    {
        UnsafeApi.putInt(array, writeAt(field, Integer.BYTES), bigEndian((int)value));
    }

    /** A 64-bit field as its raw bits; callers that print it use {@link Long#toUnsignedString(long)}. */
    protected final long u64(final int field)
    {
        return bigEndian(UnsafeApi.getLong(array, readAt(field, Long.BYTES)));
    }

    protected final void putU64(final int field, final long value)
    {
        UnsafeApi.putLong(array, writeAt(field, Long.BYTES), bigEndian(value));
    }

    /** Converts between this CPU's order and the wire's big-endian order (the conversion is its own inverse). */
    private static short bigEndian(final short value)
    {
        return SWAP_BIG_ENDIAN ? Short.reverseBytes(value) : value;
    }

    private static int bigEndian(final int value)
    {
        return SWAP_BIG_ENDIAN ? Integer.reverseBytes(value) : value;
    }

    private static long bigEndian(final long value)
    {
        return SWAP_BIG_ENDIAN ? Long.reverseBytes(value) : value;
    }

    /** The address of {@code size} bytes at {@code field}, after the bounds check Agrona would make. */
    private long readAt(final int field, final int size)
    {
        if (SHOULD_BOUNDS_CHECK && (field < 0 || field > readLimit - size))
        {
            throw outside(field, size, readLimit);
        }
        return address + field;
    }

    private long writeAt(final int field, final int size)
    {
        if (SHOULD_BOUNDS_CHECK && (field < 0 || field > writeLimit - size))
        {
            throw outside(field, size, writeLimit);
        }
        return address + field;
    }

    /** Out of line, so that the accessors stay small enough to inline by the dozen. */
    private RuntimeException outside(final int field, final int size, final int limit)
    {
        if (buffer == null)
        {
            return new IllegalStateException(getClass().getSimpleName() + " is not wrapped");
        }
        if (limit < 0 && mutableBuffer == null)
        {
            return new IllegalStateException(getClass().getSimpleName() +
                " was wrapped over a read-only buffer and cannot write");
        }
        return new IndexOutOfBoundsException(getClass().getSimpleName() + ": " + size + " bytes at index " +
            ((long)offset + field) + " are outside a buffer of " + buffer.capacity() + " bytes");
    }

    /** {@code width} bits of the byte at {@code field}, starting {@code shift} bits above its LSB. */
    protected final int bits8(final int field, final int shift, final int width)
    {
        return (u8(field) >>> shift) & ((1 << width) - 1);
    }

    // the putBits* below read and write the same address: one bounds check, no second call chain to inline
    protected final void putBits8(final int field, final int shift, final int width, final int value)
    {
        final int mask = ((1 << width) - 1) << shift;
        final long at = writeAt(field, Byte.BYTES);
        UnsafeApi.putByte(array, at, (byte)((UnsafeApi.getByte(array, at) & ~mask) | ((value << shift) & mask)));
    }

    protected final int bits16(final int field, final int shift, final int width)
    {
        return (u16(field) >>> shift) & ((1 << width) - 1);
    }

    protected final void putBits16(final int field, final int shift, final int width, final int value)
    {
        final int mask = ((1 << width) - 1) << shift;
        final long at = writeAt(field, Short.BYTES);
        final int old = bigEndian(UnsafeApi.getShort(array, at));
        UnsafeApi.putShort(array, at, bigEndian((short)((old & ~mask) | ((value << shift) & mask))));
    }

    protected final long bits32(final int field, final int shift, final int width)
    {
        return (u32(field) >>> shift) & ((1L << width) - 1);
    }

    protected final void putBits32(final int field, final int shift, final int width, final long value)
    {
        final int mask = (int)(((1L << width) - 1) << shift);
        final long at = writeAt(field, Integer.BYTES);
        final int old = bigEndian(UnsafeApi.getInt(array, at));
        UnsafeApi.putInt(array, at, bigEndian((old & ~mask) | ((int)(value << shift) & mask)));
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
