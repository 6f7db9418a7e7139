package dev.rdmacm.protocol.cm;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the CM APR message (IBA 12.8.3, Table 116; AttributeID 0x001A), the answer to a LAP.
 * Big-endian, offsets relative to the message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      LocalCommunicationID                     |   0
 *  +---------------------------------------------------------------+
 *  |                     RemoteCommunicationID                     |   4
 *  +---------------+---------------+-------------------------------+
 *  | AddInfoLength |   AP status   |           Reserved            |   8
 *  +---------------+---------------+-------------------------------+
 *  |              AdditionalInformation (72 bytes)                 |  12
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (148 bytes)                    |  84
 *  +---------------------------------------------------------------+
 * </pre>
 * AP status is an {@link AlternatePathStatus} code. {@link #wrap(DirectBuffer, int, int)} rejects an
 * AddInfoLength over 72. tshark does not decode APR; {@link #toString()} follows its {@code cm.*} naming.
 */
public final class AlternatePathResponse extends ConnectionMessage<AlternatePathResponse>
{
    public static final int ADDITIONAL_INFO_LENGTH_OFFSET = 8;
    public static final int AP_STATUS_OFFSET = 9;
    public static final int ADDITIONAL_INFO_OFFSET = 12;
    /** Room for AdditionalInformation (ib_cm_types.h {@code IB_APR_INFO_SIZE}). */
    public static final int ADDITIONAL_INFO_CAPACITY = 72;
    public static final int PRIVATE_DATA_OFFSET = 84;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public AlternatePathResponse()
    {
        super(CmAttribute.APR, PRIVATE_DATA_OFFSET);
    }

    /** How many AdditionalInformation bytes are meaningful, 0 to {@link #ADDITIONAL_INFO_CAPACITY}. */
    public short additionalInfoLength()
    {
        return getUnsignedByte(ADDITIONAL_INFO_LENGTH_OFFSET);
    }

    public AlternatePathResponse additionalInfoLength(final int value)
    {
        if (value > ADDITIONAL_INFO_CAPACITY)
        {
            throw tooLong(value, ADDITIONAL_INFO_CAPACITY, "addinfolen");
        }
        putUnsignedByte(ADDITIONAL_INFO_LENGTH_OFFSET, value, "addinfolen");
        return this;
    }

    /** The AP status code; {@link AlternatePathStatus#fromCode} names it. */
    public short apStatus()
    {
        return getUnsignedByte(AP_STATUS_OFFSET);
    }

    public AlternatePathResponse apStatus(final int value)
    {
        putUnsignedByte(AP_STATUS_OFFSET, value, "apstatus");
        return this;
    }

    public AlternatePathResponse apStatus(final AlternatePathStatus value)
    {
        return apStatus(value.code());
    }

    /** Writes {@code length} bytes of AdditionalInformation, zeroes the rest, sets AddInfoLength. */
    public AlternatePathResponse additionalInfo(final DirectBuffer source, final int sourceOffset, final int length)
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
        final AlternatePathStatus status = AlternatePathStatus.fromCode(apStatus());
        return textEnd(textStart(256)
            .append(", addinfolen=").append(additionalInfoLength())
            .append(", apstatus=").append(apStatus()).append(" (").append(status == null ? "unassigned" : status)
            .append(')')
            .append(", addinfo=").append(hexBytes(ADDITIONAL_INFO_OFFSET,
                Math.min(additionalInfoLength(), ADDITIONAL_INFO_CAPACITY))));
    }
}
