package dev.rdmacm.protocol.cm;

/**
 * Flyweight over the CM RTU message (IBA 12.6.9, Table 111; AttributeID 0x0014), the active side's
 * last word of the three-way handshake. Big-endian, offsets relative to the message.
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
 * {@link #toString()} names the fields as tshark's {@code infiniband.cm.rtu.*} do.
 */
public final class ReadyToUse extends ConnectionMessage<ReadyToUse>
{
    public static final int PRIVATE_DATA_OFFSET = 8;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public ReadyToUse()
    {
        super(CmAttribute.RTU, PRIVATE_DATA_OFFSET);
    }

    @Override
    public String toString()
    {
        return !isWrapped() ? unwrappedText() : textEnd(textStart(64));
    }
}
