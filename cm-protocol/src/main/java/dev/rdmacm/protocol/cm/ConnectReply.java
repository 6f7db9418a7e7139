package dev.rdmacm.protocol.cm;

/**
 * Flyweight over the CM REP message (IBA 12.6.8, Table 110; AttributeID 0x0013), the passive side's
 * answer to a REQ. Big-endian, offsets relative to the message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      LocalCommunicationID                     |   0
 *  +---------------------------------------------------------------+
 *  |                     RemoteCommunicationID                     |   4
 *  +---------------------------------------------------------------+
 *  |                           LocalQ_Key                          |   8
 *  +-----------------------------------------------+---------------+
 *  |                    LocalQPN                   |VendorID 23:16 |  12
 *  +-----------------------------------------------+---------------+
 *  |                    LocalEECN                  |  VendorID 15:8|  16
 *  +-----------------------------------------------+---------------+
 *  |                   StartingPSN                 |  VendorID 7:0 |  20
 *  +---------------+---------------+---------+---+-+-----+-+-------+
 *  | ResponderRsrc | InitiatorDepth|TgtAckDly|FoA|E|RNRRt|S| Rsvd  |  24
 *  +---------------+---------------+---------+---+-+-----+-+-------+
 *  |                      LocalCAGUID (8 bytes)                    |  28
 *  +---------------------------------------------------------------+
 *  |                    PrivateData (196 bytes)                    |  36
 *  +---------------------------------------------------------------+
 * </pre>
 * FoA is FailoverAccepted ({@code FAILOVER_*}), E End-to-End flow control, S SRQ. The ECE VendorID
 * (IBA comment 9434) is spread over the three bytes after the 24-bit numbers (kernel
 * {@code CM_REP_VENDOR_ID_H/M/L}). {@link #toString()} names the fields as tshark's
 * {@code infiniband.cm.rep.*} do.
 */
public final class ConnectReply extends ConnectionMessage<ConnectReply>
{
    public static final int LOCAL_Q_KEY_OFFSET = 8;
    public static final int LOCAL_QPN_OFFSET = 12;
    public static final int VENDOR_ID_HIGH_OFFSET = 15;
    public static final int LOCAL_EECN_OFFSET = 16;
    public static final int VENDOR_ID_MIDDLE_OFFSET = 19;
    public static final int STARTING_PSN_OFFSET = 20;
    public static final int VENDOR_ID_LOW_OFFSET = 23;
    public static final int RESPONDER_RESOURCES_OFFSET = 24;
    public static final int INITIATOR_DEPTH_OFFSET = 25;
    public static final int TARGET_ACK_DELAY_OFFSET = 26;
    public static final int FAILOVER_ACCEPTED_OFFSET = 26;
    public static final int END_TO_END_FLOW_CONTROL_OFFSET = 26;
    public static final int RNR_RETRY_COUNT_OFFSET = 27;
    public static final int SRQ_OFFSET = 27;
    public static final int LOCAL_CA_GUID_OFFSET = 28;
    public static final int PRIVATE_DATA_OFFSET = 36;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public static final int TARGET_ACK_DELAY_MASK = 0xf8;
    public static final int TARGET_ACK_DELAY_SHIFT = 3;
    public static final int FAILOVER_ACCEPTED_MASK = 0x06;
    public static final int FAILOVER_ACCEPTED_SHIFT = 1;
    public static final int END_TO_END_FLOW_CONTROL_MASK = 0x01;
    public static final int END_TO_END_FLOW_CONTROL_SHIFT = 0;
    public static final int RNR_RETRY_COUNT_MASK = 0xe0;
    public static final int RNR_RETRY_COUNT_SHIFT = 5;
    public static final int SRQ_MASK = 0x10;
    public static final int SRQ_SHIFT = 4;

    /** FailoverAccepted values (IBA Table 110; kernel {@code CM_REP_FAILOVER_*}). */
    public static final int FAILOVER_ACCEPTED = 0;
    public static final int FAILOVER_NOT_SUPPORTED = 1;
    public static final int FAILOVER_REJECTED = 2;

    public ConnectReply()
    {
        super(CmAttribute.REP, PRIVATE_DATA_OFFSET);
    }

    public long localQKey()
    {
        return getUnsignedInt(LOCAL_Q_KEY_OFFSET);
    }

    public ConnectReply localQKey(final long value)
    {
        putUnsignedInt(LOCAL_Q_KEY_OFFSET, value, "localqkey");
        return this;
    }

    public int localQpn()
    {
        return getUnsigned24(LOCAL_QPN_OFFSET);
    }

    public ConnectReply localQpn(final int value)
    {
        putUnsigned24(LOCAL_QPN_OFFSET, value, "localqpn");
        return this;
    }

    /** The 24-bit ECE vendor ID gathered from its three bytes. */
    public int vendorId()
    {
        return (getUnsignedByte(VENDOR_ID_HIGH_OFFSET) << 16) | (getUnsignedByte(VENDOR_ID_MIDDLE_OFFSET) << 8) |
            getUnsignedByte(VENDOR_ID_LOW_OFFSET);
    }

    public ConnectReply vendorId(final int value)
    {
        if ((value >>> 24) != 0)
        {
            throw outOfRange(value, 24, "vendorid");
        }
        putUnsignedByte(VENDOR_ID_HIGH_OFFSET, value >>> 16, "vendorid");
        putUnsignedByte(VENDOR_ID_MIDDLE_OFFSET, (value >>> 8) & 0xff, "vendorid");
        putUnsignedByte(VENDOR_ID_LOW_OFFSET, value & 0xff, "vendorid");
        return this;
    }

    public int localEecn()
    {
        return getUnsigned24(LOCAL_EECN_OFFSET);
    }

    public ConnectReply localEecn(final int value)
    {
        putUnsigned24(LOCAL_EECN_OFFSET, value, "localeecn");
        return this;
    }

    public int startingPsn()
    {
        return getUnsigned24(STARTING_PSN_OFFSET);
    }

    public ConnectReply startingPsn(final int value)
    {
        putUnsigned24(STARTING_PSN_OFFSET, value, "startpsn");
        return this;
    }

    public short responderResources()
    {
        return getUnsignedByte(RESPONDER_RESOURCES_OFFSET);
    }

    public ConnectReply responderResources(final int value)
    {
        putUnsignedByte(RESPONDER_RESOURCES_OFFSET, value, "respres");
        return this;
    }

    public short initiatorDepth()
    {
        return getUnsignedByte(INITIATOR_DEPTH_OFFSET);
    }

    public ConnectReply initiatorDepth(final int value)
    {
        putUnsignedByte(INITIATOR_DEPTH_OFFSET, value, "initdepth");
        return this;
    }

    /** The 5-bit exponent: 4.096 us * 2^value. */
    public int targetAckDelay()
    {
        return getBits(TARGET_ACK_DELAY_OFFSET, TARGET_ACK_DELAY_MASK, TARGET_ACK_DELAY_SHIFT);
    }

    public ConnectReply targetAckDelay(final int value)
    {
        putBits(TARGET_ACK_DELAY_OFFSET, TARGET_ACK_DELAY_MASK, TARGET_ACK_DELAY_SHIFT, value, "tgtackdelay");
        return this;
    }

    /** One of {@link #FAILOVER_ACCEPTED}, {@link #FAILOVER_NOT_SUPPORTED}, {@link #FAILOVER_REJECTED}. */
    public int failoverAccepted()
    {
        return getBits(FAILOVER_ACCEPTED_OFFSET, FAILOVER_ACCEPTED_MASK, FAILOVER_ACCEPTED_SHIFT);
    }

    public ConnectReply failoverAccepted(final int value)
    {
        putBits(FAILOVER_ACCEPTED_OFFSET, FAILOVER_ACCEPTED_MASK, FAILOVER_ACCEPTED_SHIFT, value, "failoveracc");
        return this;
    }

    public boolean endToEndFlowControl()
    {
        return getBits(END_TO_END_FLOW_CONTROL_OFFSET, END_TO_END_FLOW_CONTROL_MASK,
            END_TO_END_FLOW_CONTROL_SHIFT) != 0;
    }

    public ConnectReply endToEndFlowControl(final boolean value)
    {
        putBits(END_TO_END_FLOW_CONTROL_OFFSET, END_TO_END_FLOW_CONTROL_MASK, END_TO_END_FLOW_CONTROL_SHIFT,
            value ? 1 : 0, "e2eflowctrl");
        return this;
    }

    public int rnrRetryCount()
    {
        return getBits(RNR_RETRY_COUNT_OFFSET, RNR_RETRY_COUNT_MASK, RNR_RETRY_COUNT_SHIFT);
    }

    public ConnectReply rnrRetryCount(final int value)
    {
        putBits(RNR_RETRY_COUNT_OFFSET, RNR_RETRY_COUNT_MASK, RNR_RETRY_COUNT_SHIFT, value, "rnrretrcount");
        return this;
    }

    public boolean srq()
    {
        return getBits(SRQ_OFFSET, SRQ_MASK, SRQ_SHIFT) != 0;
    }

    public ConnectReply srq(final boolean value)
    {
        putBits(SRQ_OFFSET, SRQ_MASK, SRQ_SHIFT, value ? 1 : 0, "srq");
        return this;
    }

    public long localCaGuid()
    {
        return getLong(LOCAL_CA_GUID_OFFSET);
    }

    public ConnectReply localCaGuid(final long value)
    {
        putLong(LOCAL_CA_GUID_OFFSET, value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return unwrappedText();
        }
        return textEnd(textStart(512)
            .append(", localqkey=0x").append(Long.toHexString(localQKey()))
            .append(", localqpn=0x").append(Integer.toHexString(localQpn()))
            .append(", vendorid=0x").append(Integer.toHexString(vendorId()))
            .append(", localeecn=0x").append(Integer.toHexString(localEecn()))
            .append(", startpsn=0x").append(Integer.toHexString(startingPsn()))
            .append(", respres=").append(responderResources())
            .append(", initdepth=").append(initiatorDepth())
            .append(", tgtackdelay=").append(targetAckDelay())
            .append(", failoveracc=").append(failoverAccepted())
            .append(", e2eflowctrl=").append(endToEndFlowControl() ? 1 : 0)
            .append(", rnrretrcount=").append(rnrRetryCount())
            .append(", srq=").append(srq() ? 1 : 0)
            .append(", localcaguid=0x").append(String.format("%016x", localCaGuid())));
    }
}
