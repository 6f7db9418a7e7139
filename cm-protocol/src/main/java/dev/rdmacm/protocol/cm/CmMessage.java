package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.ManagementClass;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What every CM message flyweight shares: the 232-byte message after the MAD header, the wrap and
 * length rules, the private data that ends every message, and range-checked setters for the field
 * widths IBA chapter 12 uses (8, 16, 24 of a 32-bit word, 32, 64 bits, sub-byte bit fields, GIDs) on
 * top of {@link Flyweight}'s big-endian accessors.
 * <p>
 * Offsets given to the accessors are relative to the start of the message, i.e. to
 * {@link CmMad#MESSAGE_OFFSET} inside the MAD. Setters check that the value fits the field's width,
 * so that a bit field never spills into its neighbours; decoders never throw anything but
 * {@link MalformedMessageException}.
 *
 * @param <M> the concrete message, returned by the fluent setters.
 */
public abstract sealed class CmMessage<M extends CmMessage<M>> extends Flyweight
    permits ConnectRequest, ConnectionMessage, SidrRequest, SidrReply
{
    /** Every CM message is this long: the MAD minus its common header. */
    public static final int LENGTH = CmMad.MESSAGE_LENGTH;

    private final CmAttribute attribute;
    private final int privateDataOffset;
    /** What {@link #wrapMad} names in its errors, built once so that wrapping never allocates. */
    private final String madName;

    CmMessage(final CmAttribute attribute, final int privateDataOffset)
    {
        this.attribute = attribute;
        this.privateDataOffset = privateDataOffset;
        this.madName = attribute.wireName() + " MAD";
    }

    /** The attribute whose ID the MAD header carries for this message. */
    public final CmAttribute attribute()
    {
        return attribute;
    }

    /**
     * Wraps the message at {@code offset} for reading.
     *
     * @param length the bytes present from {@code offset} on.
     * @throws MalformedMessageException when fewer than {@link #LENGTH} bytes are present, or a
     *                                   length field inside the message is out of range.
     */
    public final M wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading(attribute.wireName(), buffer, offset, length, LENGTH);
        validate();
        return self();
    }

    /** Wraps the message at {@code offset} for writing; fields are written where they are set. */
    public final M wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return self();
    }

    /**
     * Wraps the message of the whole MAD at {@code madOffset} for reading, after checking that the MAD
     * is a CM MAD carrying this message.
     *
     * @throws MalformedMessageException when the MAD is short, of another class, or another attribute.
     */
    public final M wrapMad(final DirectBuffer buffer, final int madOffset, final int length)
    {
        wrapForReading(madName, buffer, madOffset, length, MadHeader.MAD_SIZE);
        // wrapped at the MAD for now, so the header fields are read with the same accessors as the message's
        final int mgmtClass = u8(MadHeader.MGMT_CLASS_OFFSET);
        if (mgmtClass != ManagementClass.COMM_MGT)
        {
            throw new MalformedMessageException(attribute.wireName() + " MAD: MgmtClass 0x" +
                Integer.toHexString(mgmtClass) + " is not the CM class 0x07");
        }
        final int attributeId = u16(MadHeader.ATTRIBUTE_ID_OFFSET);
        if (attributeId != attribute.id())
        {
            throw new MalformedMessageException(attribute.wireName() + " MAD: AttributeID 0x" +
                Integer.toHexString(attributeId) + " is not 0x" + Integer.toHexString(attribute.id()));
        }
        return wrap(buffer, madOffset + CmMad.MESSAGE_OFFSET, length - CmMad.MESSAGE_OFFSET);
    }

    /**
     * Starts a whole 256-byte MAD at {@code madOffset}: zeroes it, writes the CM common header (base
     * version 1, class 0x07 version 2, method Send, this message's AttributeID) through the caller's
     * {@code header} flyweight, and wraps the message part for writing.
     */
    public final M encodeMad(
        final MutableDirectBuffer buffer, final int madOffset, final MadHeader header, final long transactionId)
    {
        buffer.setMemory(madOffset, MadHeader.MAD_SIZE, (byte)0);
        header.wrap(buffer, madOffset)
            .baseVersion(MadHeader.BASE_VERSION)
            .mgmtClass(ManagementClass.COMM_MGT)
            .classVersion(CmMad.CLASS_VERSION)
            .method(MadMethod.SEND)
            .transactionId(transactionId)
            .attributeId(attribute.id());
        return wrap(buffer, madOffset + CmMad.MESSAGE_OFFSET);
    }

    /** Zeroes the whole message, reserved fields included. */
    public final M clear()
    {
        zero(0, LENGTH);
        return self();
    }

    /** Where the private data starts, relative to the message. */
    public final int privateDataOffset()
    {
        return privateDataOffset;
    }

    /** How many bytes of private data the message carries; all of them are always on the wire. */
    public final int privateDataLength()
    {
        return LENGTH - privateDataOffset;
    }

    /**
     * Copies {@code length} bytes into the private data and zeroes the rest of it.
     *
     * @throws IllegalArgumentException when {@code length} exceeds {@link #privateDataLength()}.
     */
    public final M privateData(final DirectBuffer source, final int sourceOffset, final int length)
    {
        if (length < 0 || length > privateDataLength())
        {
            throw new IllegalArgumentException(attribute.wireName() + " private data: " + length +
                " bytes given, the message holds 0 to " + privateDataLength());
        }
        mutableBuffer.putBytes(offset + privateDataOffset, source, sourceOffset, length);
        zero(privateDataOffset + length, privateDataLength() - length);
        return self();
    }

    /** Copies all {@link #privateDataLength()} bytes of private data into {@code destination}. */
    public final void getPrivateData(final MutableDirectBuffer destination, final int destinationOffset)
    {
        destination.putBytes(destinationOffset, buffer, offset + privateDataOffset, privateDataLength());
    }

    /** A copy of the private data; allocates, for tools and tests. */
    public final byte[] privateData()
    {
        final byte[] copy = new byte[privateDataLength()];
        buffer.getBytes(offset + privateDataOffset, copy);
        return copy;
    }

    @Override
    public abstract String toString();

    /** What {@link #toString()} says before anything is wrapped. */
    final String unwrappedText()
    {
        return attribute.wireName() + "{unwrapped}";
    }

    /** Checks the fields that bound others (info lengths); called by {@link #wrap(DirectBuffer, int, int)}. */
    void validate()
    {
    }

    @SuppressWarnings("unchecked")
    final M self()
    {
        return (M)this;
    }

    final short getUnsignedByte(final int field)
    {
        return u8(field);
    }

    final void putUnsignedByte(final int field, final int value, final String name)
    {
        requireWidth(value, 8, name);
        putU8(field, value);
    }

    final int getUnsignedShort(final int field)
    {
        return u16(field);
    }

    final void putUnsignedShort(final int field, final int value, final String name)
    {
        requireWidth(value, 16, name);
        putU16(field, value);
    }

    /** The 24 bits from {@code field} on, the upper three bytes of a big-endian word: QPNs, EECNs, PSNs. */
    final int getUnsigned24(final int field)
    {
        return (int)bits32(field, 8, 24);
    }

    final void putUnsigned24(final int field, final int value, final String name)
    {
        requireWidth(value, 24, name);
        putBits32(field, 8, 24, value);
    }

    final long getUnsignedInt(final int field)
    {
        return u32(field);
    }

    final void putUnsignedInt(final int field, final long value, final String name)
    {
        if (value < 0 || value > 0xffff_ffffL)
        {
            throw outOfRange(value, 32, name);
        }
        putU32(field, value);
    }

    final long getLong(final int field)
    {
        return u64(field);
    }

    final void putLong(final int field, final long value)
    {
        putU64(field, value);
    }

    /** A bit field inside the byte at {@code field}, named by its mask and shift. */
    final int getBits(final int field, final int mask, final int shift)
    {
        return bits8(field, shift, Integer.bitCount(mask));
    }

    final void putBits(final int field, final int mask, final int shift, final int value, final String name)
    {
        requireWidth(value, Integer.bitCount(mask), name);
        putBits8(field, shift, Integer.bitCount(mask), value);
    }

    /** A bit field inside the big-endian 32-bit word at {@code field}: the 20-bit flow labels. */
    final int getBits32(final int field, final int mask, final int shift)
    {
        return (int)bits32(field, shift, Integer.bitCount(mask));
    }

    final void putBits32(final int field, final int mask, final int shift, final int value, final String name)
    {
        requireWidth(value, Integer.bitCount(mask), name);
        putBits32(field, shift, Integer.bitCount(mask), value);
    }

    final Gid getGid(final int field)
    {
        return gidAt(field);
    }

    /** {@link Flyweight}'s GID setter, open to the REQ path blocks, which are not subclasses. */
    final void writeGid(final int field, final long subnetPrefix, final long interfaceId)
    {
        putGid(field, subnetPrefix, interfaceId);
    }

    /**
     * Writes {@code length} bytes into a block of {@code capacity} bytes (ARI, additional information)
     * and zeroes the rest of it; the caller has checked {@code length} by setting the block's length field.
     */
    final void putInfo(final int field, final int capacity, final DirectBuffer source, final int sourceOffset,
        final int length)
    {
        mutableBuffer.putBytes(offset + field, source, sourceOffset, length);
        zero(field + length, capacity - length);
    }

    /** Copies the {@code length} meaningful bytes of a block; returns {@code length}. */
    final int getInfo(final int field, final int length, final MutableDirectBuffer destination,
        final int destinationOffset)
    {
        destination.putBytes(destinationOffset, buffer, offset + field, length);
        return length;
    }

    /** The bytes as hex digits, for {@link #toString()}. */
    final String hexBytes(final int field, final int length)
    {
        final StringBuilder text = new StringBuilder(2 * length);
        for (int i = 0; i < length; i++)
        {
            final int b = buffer.getByte(offset + field + i) & 0xff;
            text.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return text.toString();
    }

    /** The private data as hex digits without its trailing zero bytes, which are mostly padding. */
    final String privateDataText()
    {
        int end = privateDataLength();
        while (end > 0 && buffer.getByte(offset + privateDataOffset + end - 1) == 0)
        {
            end--;
        }
        return hexBytes(privateDataOffset, end);
    }

    final IllegalArgumentException outOfRange(final long value, final int bits, final String name)
    {
        return new IllegalArgumentException(attribute.wireName() + " " + name + ": " + value +
            " does not fit in " + bits + " unsigned bits (0.." + ((1L << bits) - 1) + ")");
    }

    /** An info length set beyond the bytes its field holds. */
    final IllegalArgumentException tooLong(final int value, final int capacity, final String name)
    {
        return new IllegalArgumentException(attribute.wireName() + " " + name + ": " + value +
            " is more than the " + capacity + " bytes the field holds");
    }

    private void requireWidth(final int value, final int bits, final String name)
    {
        if ((value >>> bits) != 0)
        {
            throw outOfRange(value, bits, name);
        }
    }

    final void requireInfoLength(final int length, final int max, final String name)
    {
        if (length > max)
        {
            throw new MalformedMessageException(attribute.wireName() + " " + name + ": " + length +
                " is more than the " + max + " bytes the field holds");
        }
    }
}
