package dev.rdmacm.protocol.cm;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the CM SIDR_REP message (IBA 12.11.2, Table 120; AttributeID 0x0018). Big-endian,
 * offsets relative to the message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                           RequestID                           |   0
 *  +---------------+---------------+-------------------------------+
 *  |    Status     | AddInfoLength |        VendorID 23:8          |   4
 *  +---------------+---------------+---------------+---------------+
 *  |                      QPN                      | VendorID 7:0  |   8
 *  +-----------------------------------------------+---------------+
 *  |                        ServiceID (8 bytes)                    |  12
 *  +---------------------------------------------------------------+
 *  |                             Q_Key                             |  20
 *  +---------------------------------------------------------------+
 *  |        ClassPortInfo (AdditionalInformation, 72 bytes)        |  24
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (136 bytes)                    |  96
 *  +---------------------------------------------------------------+
 * </pre>
 * Status is a {@link SidrStatus} code; with {@link SidrStatus#REDIRECT} the additional information
 * holds the ClassPortInfo to redirect to. The ECE VendorID (IBA comment 9434; kernel
 * {@code CM_SIDR_REP_VENDOR_ID_H/L}) is read here as 24 bits: the 16 bits at byte 6 above the 8 at
 * byte 11. {@link #wrap(DirectBuffer, int, int)} rejects an AddInfoLength over 72. tshark does not
 * decode SIDR_REP; {@link #toString()} follows its {@code cm.*} naming.
 */
public final class SidrReply extends CmMessage<SidrReply>
{
    public static final int REQUEST_ID_OFFSET = 0;
    public static final int STATUS_OFFSET = 4;
    public static final int ADDITIONAL_INFO_LENGTH_OFFSET = 5;
    public static final int VENDOR_ID_HIGH_OFFSET = 6;
    public static final int QPN_OFFSET = 8;
    public static final int VENDOR_ID_LOW_OFFSET = 11;
    public static final int SERVICE_ID_OFFSET = 12;
    public static final int Q_KEY_OFFSET = 20;
    public static final int ADDITIONAL_INFO_OFFSET = 24;
    /** Room for the ClassPortInfo of a redirect (ib_cm_types.h {@code IB_APR_INFO_SIZE}, same 72 bytes). */
    public static final int ADDITIONAL_INFO_CAPACITY = 72;
    public static final int PRIVATE_DATA_OFFSET = 96;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public SidrReply()
    {
        super(CmAttribute.SIDR_REP, PRIVATE_DATA_OFFSET);
    }

    public long requestId()
    {
        return getUnsignedInt(REQUEST_ID_OFFSET);
    }

    public SidrReply requestId(final long value)
    {
        putUnsignedInt(REQUEST_ID_OFFSET, value, "requestid");
        return this;
    }

    /** The Status code; {@link SidrStatus#fromCode} names it. */
    public short status()
    {
        return getUnsignedByte(STATUS_OFFSET);
    }

    public SidrReply status(final int value)
    {
        putUnsignedByte(STATUS_OFFSET, value, "status");
        return this;
    }

    public SidrReply status(final SidrStatus value)
    {
        return status(value.code());
    }

    /** How many AdditionalInformation bytes are meaningful, 0 to {@link #ADDITIONAL_INFO_CAPACITY}. */
    public short additionalInfoLength()
    {
        return getUnsignedByte(ADDITIONAL_INFO_LENGTH_OFFSET);
    }

    public SidrReply additionalInfoLength(final int value)
    {
        if (value > ADDITIONAL_INFO_CAPACITY)
        {
            throw tooLong(value, ADDITIONAL_INFO_CAPACITY, "addinfolen");
        }
        putUnsignedByte(ADDITIONAL_INFO_LENGTH_OFFSET, value, "addinfolen");
        return this;
    }

    public int vendorId()
    {
        return (getUnsignedShort(VENDOR_ID_HIGH_OFFSET) << 8) | getUnsignedByte(VENDOR_ID_LOW_OFFSET);
    }

    public SidrReply vendorId(final int value)
    {
        if ((value >>> 24) != 0)
        {
            throw outOfRange(value, 24, "vendorid");
        }
        putUnsignedShort(VENDOR_ID_HIGH_OFFSET, value >>> 8, "vendorid");
        putUnsignedByte(VENDOR_ID_LOW_OFFSET, value & 0xff, "vendorid");
        return this;
    }

    public int qpn()
    {
        return getUnsigned24(QPN_OFFSET);
    }

    public SidrReply qpn(final int value)
    {
        putUnsigned24(QPN_OFFSET, value, "qpn");
        return this;
    }

    public long serviceId()
    {
        return getLong(SERVICE_ID_OFFSET);
    }

    public SidrReply serviceId(final long value)
    {
        putLong(SERVICE_ID_OFFSET, value);
        return this;
    }

    public long qKey()
    {
        return getUnsignedInt(Q_KEY_OFFSET);
    }

    public SidrReply qKey(final long value)
    {
        putUnsignedInt(Q_KEY_OFFSET, value, "qkey");
        return this;
    }

    /** Writes {@code length} bytes of AdditionalInformation, zeroes the rest, sets AddInfoLength. */
    public SidrReply additionalInfo(final DirectBuffer source, final int sourceOffset, final int length)
    {
        additionalInfoLength(length);
        putInfo(ADDITIONAL_INFO_OFFSET, ADDITIONAL_INFO_CAPACITY, source, sourceOffset, length);
        return this;
    }

    /** Copies the {@link #additionalInfoLength()} meaningful bytes; returns how many. */
    public int getAdditionalInfo(final MutableDirectBuffer destination, final int destinationOffset)
    {
        return getInfo(ADDITIONAL_INFO_OFFSET, additionalInfoLength(), destination, destinationOffset);
    }

    @Override
    void validate()
    {
        requireInfoLength(additionalInfoLength(), ADDITIONAL_INFO_CAPACITY, "addinfolen");
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return unwrappedText();
        }
        final SidrStatus named = SidrStatus.fromCode(status());
        return "SIDR_REP{requestid=0x" + Long.toHexString(requestId()) +
            ", status=" + status() + " (" + (named == null ? "unassigned" : named) + ")" +
            ", addinfolen=" + additionalInfoLength() +
            ", vendorid=0x" + Integer.toHexString(vendorId()) +
            ", qpn=0x" + Integer.toHexString(qpn()) +
            ", serviceid=0x" + String.format("%016x", serviceId()) +
            ", qkey=0x" + Long.toHexString(qKey()) +
            ", addinfo=" + hexBytes(ADDITIONAL_INFO_OFFSET, Math.min(additionalInfoLength(), ADDITIONAL_INFO_CAPACITY)) +
            ", private=" + privateDataText() + "}";
    }
}
