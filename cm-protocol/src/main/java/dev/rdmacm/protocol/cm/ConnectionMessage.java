package dev.rdmacm.protocol.cm;

/**
 * A CM message sent once a connection exists on both sides, which therefore starts with the pair of
 * communication IDs that name it (IBA 12.6: MRA, REJ, REP, RTU, DREQ, DREP, LAP, APR).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      LocalCommunicationID                     |   0
 *  +---------------------------------------------------------------+
 *  |                     RemoteCommunicationID                     |   4
 *  +---------------------------------------------------------------+
 *  |                 the message's own fields ...                  |   8
 * </pre>
 * "Local" is always the sender's ID, "remote" the receiver's.
 *
 * @param <M> the concrete message, returned by the fluent setters.
 */
public abstract sealed class ConnectionMessage<M extends ConnectionMessage<M>> extends CmMessage<M>
    permits MessageReceiptAck, ConnectReject, ConnectReply, ReadyToUse, DisconnectRequest, DisconnectReply,
    LoadAlternatePath, AlternatePathResponse
{
    public static final int LOCAL_COMM_ID_OFFSET = 0;
    public static final int REMOTE_COMM_ID_OFFSET = 4;

    ConnectionMessage(final CmAttribute attribute, final int privateDataOffset)
    {
        super(attribute, privateDataOffset);
    }

    public final long localCommId()
    {
        return getUnsignedInt(LOCAL_COMM_ID_OFFSET);
    }

    public final M localCommId(final long value)
    {
        putUnsignedInt(LOCAL_COMM_ID_OFFSET, value, "localcommid");
        return self();
    }

    public final long remoteCommId()
    {
        return getUnsignedInt(REMOTE_COMM_ID_OFFSET);
    }

    public final M remoteCommId(final long value)
    {
        putUnsignedInt(REMOTE_COMM_ID_OFFSET, value, "remotecommid");
        return self();
    }

    /** Starts {@link #toString()}: the message name and the two IDs, as tshark's {@code cm.*.localcommid}. */
    final StringBuilder textStart(final int capacity)
    {
        return new StringBuilder(capacity).append(attribute().wireName())
            .append("{localcommid=0x").append(Long.toHexString(localCommId()))
            .append(", remotecommid=0x").append(Long.toHexString(remoteCommId()));
    }

    /** Ends {@link #toString()} with the private data. */
    final String textEnd(final StringBuilder text)
    {
        return text.append(", private=").append(privateDataText()).append('}').toString();
    }
}
