package dev.rdmacm.protocol.cm;

/**
 * Flyweight over the CM MRA message (IBA 12.6.6, Table 107; AttributeID 0x0011): "I got your REQ,
 * REP or LAP and need more time". Big-endian, offsets relative to the message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      LocalCommunicationID                     |   0
 *  +---------------------------------------------------------------+
 *  |                     RemoteCommunicationID                     |   4
 *  +---+-----------+---------+-----+-------------------------------+
 *  |MsM| Reserved  |SvcTmout |Rsvd |     PrivateData (222 bytes)   |   8
 *  +---+-----------+---------+-----+                               |
 *  |                              ...                              |
 *  +---------------------------------------------------------------+
 * </pre>
 * MsM is MessageMRAed ({@code MESSAGE_MRAED_*}); SvcTmout the 5-bit ServiceTimeout exponent.
 * tshark does not decode MRA; {@link #toString()} follows its {@code cm.*} naming.
 */
public final class MessageReceiptAck extends ConnectionMessage<MessageReceiptAck>
{
    public static final int MESSAGE_MRAED_OFFSET = 8;
    public static final int SERVICE_TIMEOUT_OFFSET = 9;
    public static final int PRIVATE_DATA_OFFSET = 10;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public static final int MESSAGE_MRAED_MASK = 0xc0;
    public static final int MESSAGE_MRAED_SHIFT = 6;
    public static final int SERVICE_TIMEOUT_MASK = 0xf8;
    public static final int SERVICE_TIMEOUT_SHIFT = 3;

    /** MessageMRAed values (kernel {@code CM_MSG_RESPONSE_*}). */
    public static final int MESSAGE_MRAED_REQ = 0;
    public static final int MESSAGE_MRAED_REP = 1;
    public static final int MESSAGE_MRAED_LAP = 2;

    public MessageReceiptAck()
    {
        super(CmAttribute.MRA, PRIVATE_DATA_OFFSET);
    }

    /** Which message is acknowledged: one of the {@code MESSAGE_MRAED_*} values. */
    public int messageMraed()
    {
        return getBits(MESSAGE_MRAED_OFFSET, MESSAGE_MRAED_MASK, MESSAGE_MRAED_SHIFT);
    }

    public MessageReceiptAck messageMraed(final int value)
    {
        putBits(MESSAGE_MRAED_OFFSET, MESSAGE_MRAED_MASK, MESSAGE_MRAED_SHIFT, value, "msgmraed");
        return this;
    }

    /** The 5-bit exponent of the extra time the sender needs: 4.096 us * 2^value. */
    public int serviceTimeout()
    {
        return getBits(SERVICE_TIMEOUT_OFFSET, SERVICE_TIMEOUT_MASK, SERVICE_TIMEOUT_SHIFT);
    }

    public MessageReceiptAck serviceTimeout(final int value)
    {
        putBits(SERVICE_TIMEOUT_OFFSET, SERVICE_TIMEOUT_MASK, SERVICE_TIMEOUT_SHIFT, value, "svctimeout");
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return unwrappedText();
        }
        return textEnd(textStart(96)
            .append(", msgmraed=").append(messageMraed())
            .append(", svctimeout=").append(serviceTimeout()));
    }
}
