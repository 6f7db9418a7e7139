package dev.rdmacm.protocol.mad;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

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
public final class MadHeader extends Flyweight
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

    /** Wraps {@code buffer} for reading, checking that a whole header lies inside the message and the buffer. */
    public MadHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("MAD header", buffer, offset, length, LENGTH);
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public MadHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public short baseVersion()
    {
        return u8(BASE_VERSION_OFFSET);
    }

    public MadHeader baseVersion(final int value)
    {
        putU8(BASE_VERSION_OFFSET, value);
        return this;
    }

    public short mgmtClass()
    {
        return u8(MGMT_CLASS_OFFSET);
    }

    public MadHeader mgmtClass(final int value)
    {
        putU8(MGMT_CLASS_OFFSET, value);
        return this;
    }

    public short classVersion()
    {
        return u8(CLASS_VERSION_OFFSET);
    }

    public MadHeader classVersion(final int value)
    {
        putU8(CLASS_VERSION_OFFSET, value);
        return this;
    }

    /** The whole method byte, R bit included, e.g. 0x81 for GetResp. */
    public short method()
    {
        return u8(METHOD_OFFSET);
    }

    public MadHeader method(final int value)
    {
        putU8(METHOD_OFFSET, value);
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
        return u16(STATUS_OFFSET);
    }

    public MadHeader status(final int value)
    {
        putU16(STATUS_OFFSET, value);
        return this;
    }

    public int classSpecific()
    {
        return u16(CLASS_SPECIFIC_OFFSET);
    }

    public MadHeader classSpecific(final int value)
    {
        putU16(CLASS_SPECIFIC_OFFSET, value);
        return this;
    }

    public long transactionId()
    {
        return u64(TRANSACTION_ID_OFFSET);
    }

    public MadHeader transactionId(final long value)
    {
        putU64(TRANSACTION_ID_OFFSET, value);
        return this;
    }

    public int attributeId()
    {
        return u16(ATTRIBUTE_ID_OFFSET);
    }

    /** Sets the attribute ID and clears the reserved 16 bits after it. */
    public MadHeader attributeId(final int value)
    {
        putU16(ATTRIBUTE_ID_OFFSET, value);
        putU16(RESERVED_OFFSET, 0);
        return this;
    }

    public long attributeModifier()
    {
        return u32(ATTRIBUTE_MODIFIER_OFFSET);
    }

    public MadHeader attributeModifier(final long value)
    {
        putU32(ATTRIBUTE_MODIFIER_OFFSET, value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
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
