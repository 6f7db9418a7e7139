package dev.rdmacm.protocol.cm;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the CM REJ message (IBA 12.6.7, Table 108; AttributeID 0x0012), big-endian,
 * offsets relative to the message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      LocalCommunicationID                     |   0
 *  +---------------------------------------------------------------+
 *  |                     RemoteCommunicationID                     |   4
 *  +---+-----------+-------------+-+-------------------------------+
 *  |MsR| Reserved  | RejInfoLen  |R|            Reason             |   8
 *  +---+-----------+-------------+-+-------------------------------+
 *  |           AdditionalRejectionInformation (ARI, 72 bytes)      |  12
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (148 bytes)                    |  84
 *  +---------------------------------------------------------------+
 * </pre>
 * MsR is MessageRejected ({@code MESSAGE_REJECTED_*}); RejInfoLen the 7-bit count of ARI bytes that
 * mean something; Reason a {@link RejectReason} code. {@link #wrap(DirectBuffer, int, int)}
 * rejects a RejInfoLen over 72. {@link #toString()} names the fields as tshark's
 * {@code infiniband.cm.rej.*} do.
 */
public final class ConnectReject extends ConnectionMessage<ConnectReject>
{
    public static final int MESSAGE_REJECTED_OFFSET = 8;
    public static final int REJECTED_INFO_LENGTH_OFFSET = 9;
    public static final int REASON_OFFSET = 10;
    public static final int ARI_OFFSET = 12;
    /** Room for AdditionalRejectionInformation (ib_cm_types.h {@code IB_ARI_SIZE}). */
    public static final int ARI_CAPACITY = 72;
    public static final int PRIVATE_DATA_OFFSET = 84;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public static final int MESSAGE_REJECTED_MASK = 0xc0;
    public static final int MESSAGE_REJECTED_SHIFT = 6;
    public static final int REJECTED_INFO_LENGTH_MASK = 0xfe;
    public static final int REJECTED_INFO_LENGTH_SHIFT = 1;

    /** MessageRejected values (kernel {@code CM_MSG_RESPONSE_*}). */
    public static final int MESSAGE_REJECTED_REQ = 0;
    public static final int MESSAGE_REJECTED_REP = 1;
    public static final int MESSAGE_REJECTED_OTHER = 2;

    public ConnectReject()
    {
        super(CmAttribute.REJ, PRIVATE_DATA_OFFSET);
    }

    /** Which message is rejected: one of the {@code MESSAGE_REJECTED_*} values. */
    public int messageRejected()
    {
        return getBits(MESSAGE_REJECTED_OFFSET, MESSAGE_REJECTED_MASK, MESSAGE_REJECTED_SHIFT);
    }

    public ConnectReject messageRejected(final int value)
    {
        putBits(MESSAGE_REJECTED_OFFSET, MESSAGE_REJECTED_MASK, MESSAGE_REJECTED_SHIFT, value, "msgrej");
        return this;
    }

    /** How many of the ARI bytes are meaningful, 0 to {@link #ARI_CAPACITY}. */
    public int rejectedInfoLength()
    {
        return getBits(REJECTED_INFO_LENGTH_OFFSET, REJECTED_INFO_LENGTH_MASK, REJECTED_INFO_LENGTH_SHIFT);
    }

    public ConnectReject rejectedInfoLength(final int value)
    {
        if (value > ARI_CAPACITY)
        {
            throw tooLong(value, ARI_CAPACITY, "rejinfolen");
        }
        putBits(REJECTED_INFO_LENGTH_OFFSET, REJECTED_INFO_LENGTH_MASK, REJECTED_INFO_LENGTH_SHIFT, value,
            "rejinfolen");
        return this;
    }

    /** The Reason code; {@link RejectReason#fromCode} names it. */
    public int reason()
    {
        return getUnsignedShort(REASON_OFFSET);
    }

    public ConnectReject reason(final int value)
    {
        putUnsignedShort(REASON_OFFSET, value, "reason");
        return this;
    }

    public ConnectReject reason(final RejectReason value)
    {
        return reason(value.code());
    }

    /**
     * Writes {@code length} bytes of ARI, zeroes the rest of the field and sets RejInfoLen to
     * {@code length}.
     */
    public ConnectReject ari(final DirectBuffer source, final int sourceOffset, final int length)
    {
        rejectedInfoLength(length);
        putInfo(ARI_OFFSET, ARI_CAPACITY, source, sourceOffset, length);
        return this;
    }

    /** Copies the {@link #rejectedInfoLength()} meaningful ARI bytes; returns how many. */
    public int getAri(final MutableDirectBuffer destination, final int destinationOffset)
    {
        return getInfo(ARI_OFFSET, rejectedInfoLength(), destination, destinationOffset);
    }

    @Override
    void validate()
    {
        requireInfoLength(rejectedInfoLength(), ARI_CAPACITY, "rejinfolen");
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return unwrappedText();
        }
        return textEnd(textStart(256)
            .append(", msgrej=").append(messageRejected())
            .append(", rejinfolen=").append(rejectedInfoLength())
            .append(", reason=").append(reason()).append(" (").append(RejectReason.describe(reason())).append(')')
            .append(", ari=").append(hexBytes(ARI_OFFSET, Math.min(rejectedInfoLength(), ARI_CAPACITY))));
    }
}
