package dev.rdmacm.protocol.cm;

/**
 * Flyweight over the CM DREQ message (IBA 12.6.10, Table 112; AttributeID 0x0015). Big-endian,
 * offsets relative to the message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      LocalCommunicationID                     |   0
 *  +---------------------------------------------------------------+
 *  |                     RemoteCommunicationID                     |   4
 *  +-----------------------------------------------+---------------+
 *  |                 RemoteQPN/EECN                |   Reserved    |   8
 *  +-----------------------------------------------+---------------+
 *  |                    PrivateData (220 bytes)                    |  12
 *  +---------------------------------------------------------------+
 * </pre>
 * {@link #toString()} names the fields as tshark's {@code infiniband.cm.dreq.*} do (tshark files the
 * remote QPN under {@code cm.req.remoteqpneecn}).
 */
public final class DisconnectRequest extends ConnectionMessage<DisconnectRequest>
{
    public static final int REMOTE_QPN_EECN_OFFSET = 8;
    public static final int PRIVATE_DATA_OFFSET = 12;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public DisconnectRequest()
    {
        super(CmAttribute.DREQ, PRIVATE_DATA_OFFSET);
    }

    /** The receiver's QPN (or EECN for RD), so that it can find the QP without the comm ID. */
    public int remoteQpnEecn()
    {
        return getUnsigned24(REMOTE_QPN_EECN_OFFSET);
    }

    public DisconnectRequest remoteQpnEecn(final int value)
    {
        putUnsigned24(REMOTE_QPN_EECN_OFFSET, value, "remoteqpneecn");
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return unwrappedText();
        }
        return textEnd(textStart(96).append(", remoteqpneecn=0x").append(Integer.toHexString(remoteQpnEecn())));
    }
}
