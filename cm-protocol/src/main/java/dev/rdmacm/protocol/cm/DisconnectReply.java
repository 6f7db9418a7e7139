package dev.rdmacm.protocol.cm;

/**
 * Flyweight over the CM DREP message (IBA 12.6.11, Table 113; AttributeID 0x0016), the answer to a
 * DREQ: the connection is gone. Big-endian, offsets relative to the message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      LocalCommunicationID                     |   0
 *  +---------------------------------------------------------------+
 *  |                     RemoteCommunicationID                     |   4
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (224 bytes)                    |   8
 *  +---------------------------------------------------------------+
 * </pre>
 * {@link #toString()} names the fields as tshark's {@code infiniband.cm.drsp.*} do.
 */
public final class DisconnectReply extends ConnectionMessage<DisconnectReply>
{
    public static final int PRIVATE_DATA_OFFSET = 8;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public DisconnectReply()
    {
        super(CmAttribute.DREP, PRIVATE_DATA_OFFSET);
    }

    @Override
    public String toString()
    {
        return !isWrapped() ? unwrappedText() : textEnd(textStart(64));
    }
}
