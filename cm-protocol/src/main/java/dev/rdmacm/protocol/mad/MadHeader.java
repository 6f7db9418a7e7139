package dev.rdmacm.protocol.mad;

import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over the 24-byte common header that starts every MAD (IBA 13.4.2), big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+---------------+-+-------------+
 *  |  BaseVersion  |   MgmtClass   | ClassVersion  |R|   Method    |  0
 *  +---------------+---------------+---------------+-+-------------+
 *  |            Status             |         ClassSpecific         |  4
 *  +-------------------------------+-------------------------------+
 *  |                        TransactionID                          |  8
 *  |                                                               |
 *  +-------------------------------+-------------------------------+
 *  |          AttributeID          |           Reserved            | 16
 *  +-------------------------------+-------------------------------+
 *  |                      AttributeModifier                        | 20
 *  +---------------------------------------------------------------+
 * </pre>
 * Status: bit 0 busy, bit 1 redirect required, bits 2-4 the common invalid-field code, bits 8-15
 * class-specific (see {@link MadStatus}).
 */
public final class MadHeader
{
    public static final int BASE_VERSION_OFFSET = 0;
    public static final int MGMT_CLASS_OFFSET = 1;
    public static final int CLASS_VERSION_OFFSET = 2;
    public static final int METHOD_OFFSET = 3;
    public static final int STATUS_OFFSET = 4;
    public static final int CLASS_SPECIFIC_OFFSET = 6;
    public static final int TRANSACTION_ID_OFFSET = 8;
    public static final int ATTRIBUTE_ID_OFFSET = 16;
    public static final int RESERVED_OFFSET = 18;
    public static final int ATTRIBUTE_MODIFIER_OFFSET = 20;
    public static final int LENGTH = 24;

    /** Every MAD on a UD QP is exactly this long (IBA 13.4.1). */
    public static final int MAD_SIZE = 256;
    /** The base version of every MAD this stack speaks (OPA's 0x80 is not spoken). */
    public static final short BASE_VERSION = 1;

    /** The R bit of the method byte: set in every response. */
    public static final int METHOD_RESPONSE_BIT = 0x80;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    /** Wraps {@code buffer} for reading, checking that a whole header is present. */
    public MadHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        MalformedMessageException.requireLength("MAD header", length, LENGTH);
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer m ? m : null;
        this.offset = offset;
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public MadHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
        return this;
    }

    public int offset()
    {
        return offset;
    }

    public short baseVersion()
    {
        return (short)(buffer.getByte(offset + BASE_VERSION_OFFSET) & 0xff);
    }

    public MadHeader baseVersion(final int value)
    {
        mutableBuffer.putByte(offset + BASE_VERSION_OFFSET, (byte)value);
        return this;
    }

    public short mgmtClass()
    {
        return (short)(buffer.getByte(offset + MGMT_CLASS_OFFSET) & 0xff);
    }

    public MadHeader mgmtClass(final int value)
    {
        mutableBuffer.putByte(offset + MGMT_CLASS_OFFSET, (byte)value);
        return this;
    }

    public short classVersion()
    {
        return (short)(buffer.getByte(offset + CLASS_VERSION_OFFSET) & 0xff);
    }

    public MadHeader classVersion(final int value)
    {
        mutableBuffer.putByte(offset + CLASS_VERSION_OFFSET, (byte)value);
        return this;
    }

    /** The whole method byte, R bit included, e.g. 0x81 for GetResp. */
    public short method()
    {
        return (short)(buffer.getByte(offset + METHOD_OFFSET) & 0xff);
    }

    public MadHeader method(final int value)
    {
        mutableBuffer.putByte(offset + METHOD_OFFSET, (byte)value);
        return this;
    }

    public boolean isResponse()
    {
        return (method() & METHOD_RESPONSE_BIT) != 0;
    }

    /** The method without the R bit, so that a Get and its GetResp compare equal. */
    public int methodWithoutResponseBit()
    {
        return method() & ~METHOD_RESPONSE_BIT;
    }

    public int status()
    {
        return buffer.getShort(offset + STATUS_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public MadHeader status(final int value)
    {
        mutableBuffer.putShort(offset + STATUS_OFFSET, (short)value, BIG_ENDIAN);
        return this;
    }

    public int classSpecific()
    {
        return buffer.getShort(offset + CLASS_SPECIFIC_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public MadHeader classSpecific(final int value)
    {
        mutableBuffer.putShort(offset + CLASS_SPECIFIC_OFFSET, (short)value, BIG_ENDIAN);
        return this;
    }

    public long transactionId()
    {
        return buffer.getLong(offset + TRANSACTION_ID_OFFSET, BIG_ENDIAN);
    }

    public MadHeader transactionId(final long value)
    {
        mutableBuffer.putLong(offset + TRANSACTION_ID_OFFSET, value, BIG_ENDIAN);
        return this;
    }

    public int attributeId()
    {
        return buffer.getShort(offset + ATTRIBUTE_ID_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public MadHeader attributeId(final int value)
    {
        mutableBuffer.putShort(offset + ATTRIBUTE_ID_OFFSET, (short)value, BIG_ENDIAN);
        mutableBuffer.putShort(offset + RESERVED_OFFSET, (short)0, BIG_ENDIAN);
        return this;
    }

    public long attributeModifier()
    {
        return buffer.getInt(offset + ATTRIBUTE_MODIFIER_OFFSET, BIG_ENDIAN) & 0xffff_ffffL;
    }

    public MadHeader attributeModifier(final long value)
    {
        mutableBuffer.putInt(offset + ATTRIBUTE_MODIFIER_OFFSET, (int)value, BIG_ENDIAN);
        return this;
    }

    @Override
    public String toString()
    {
        if (buffer == null)
        {
            return "MadHeader{unwrapped}";
        }
        return String.format(
            "MAD{BaseVersion=%d, MgmtClass=0x%02x, ClassVersion=%d, Method=0x%02x, Status=0x%04x, " +
            "ClassSpecific=0x%04x, TransactionID=0x%016x, AttributeID=0x%04x, AttributeModifier=0x%08x}",
            baseVersion(), mgmtClass(), classVersion(), method(), status(), classSpecific(), transactionId(),
            attributeId(), attributeModifier());
    }
}
