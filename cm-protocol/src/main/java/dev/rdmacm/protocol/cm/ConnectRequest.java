package dev.rdmacm.protocol.cm;

/**
 * Flyweight over the CM REQ message (IBA 12.6.5, Table 106; AttributeID 0x0010), big-endian, the
 * 232 bytes after the MAD header. Offsets are relative to the message.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      LocalCommunicationID                     |   0
 *  +---------------+-----------------------------------------------+
 *  |   Reserved    |                   VendorID                    |   4
 *  +---------------+-----------------------------------------------+
 *  |                        ServiceID (8 bytes)                    |   8
 *  +---------------------------------------------------------------+
 *  |                      LocalCAGUID (8 bytes)                    |  16
 *  +---------------------------------------------------------------+
 *  |                           Reserved                            |  24
 *  +---------------------------------------------------------------+
 *  |                          LocalQ_Key                           |  28
 *  +-----------------------------------------------+---------------+
 *  |                   LocalQPN                    |ResponderRsrcs |  32
 *  +-----------------------------------------------+---------------+
 *  |                   LocalEECN                   |InitiatorDepth |  36
 *  +-----------------------------------------------+---------+---+-+
 *  |                   RemoteEECN                  |RemCMTout|TST|E|  40
 *  +-----------------------------------------------+---------+---+-+
 *  |                   StartingPSN                 |LocCMTout|Retry|  44
 *  +-------------------------------+-------+-+-----+-------+-+-----+
 *  |         PartitionKey          |PathMTU|R|RNRRt|MaxCMRt|S|ExtTT|  48
 *  +-------------------------------+-------+-+-----+-------+-+-----+
 *  |                 primary path block (44 bytes)                 |  52
 *  +---------------------------------------------------------------+
 *  |                alternate path block (44 bytes)                |  96
 *  |          ... last byte: AltLocalACKTimeout|SAP|Rsvd           |
 *  +---------------------------------------------------------------+
 *  |                     PrivateData (92 bytes)                    | 140
 *  +---------------------------------------------------------------+
 * </pre>
 * Both path blocks are laid out as {@link ConnectRequestPath} draws them; SAP is the SAPSupported bit
 * after the alternate LocalACKTimeout. TST is the TransportServiceType, E the End-to-End flow control bit, R RDCExists, S SRQ, ExtTT the
 * ExtendedTransportType. VendorID is the ECE vendor ID (IBA comment 9434, kernel
 * {@code CM_REQ_VENDOR_ID}). RDMA CM puts an {@link IpCmPrivateDataHeader} at the start of the
 * private data. {@link #toString()} names the fields as tshark's {@code infiniband.cm.req.*} do.
 */
public final class ConnectRequest extends CmMessage<ConnectRequest>
{
    public static final int LOCAL_COMM_ID_OFFSET = 0;
    public static final int VENDOR_ID_OFFSET = 5;
    public static final int SERVICE_ID_OFFSET = 8;
    public static final int LOCAL_CA_GUID_OFFSET = 16;
    public static final int LOCAL_Q_KEY_OFFSET = 28;
    public static final int LOCAL_QPN_OFFSET = 32;
    public static final int RESPONDER_RESOURCES_OFFSET = 35;
    public static final int LOCAL_EECN_OFFSET = 36;
    public static final int INITIATOR_DEPTH_OFFSET = 39;
    public static final int REMOTE_EECN_OFFSET = 40;
    public static final int REMOTE_CM_RESPONSE_TIMEOUT_OFFSET = 43;
    public static final int TRANSPORT_SERVICE_TYPE_OFFSET = 43;
    public static final int END_TO_END_FLOW_CONTROL_OFFSET = 43;
    public static final int STARTING_PSN_OFFSET = 44;
    public static final int LOCAL_CM_RESPONSE_TIMEOUT_OFFSET = 47;
    public static final int RETRY_COUNT_OFFSET = 47;
    public static final int PARTITION_KEY_OFFSET = 48;
    public static final int PATH_MTU_OFFSET = 50;
    public static final int RDC_EXISTS_OFFSET = 50;
    public static final int RNR_RETRY_COUNT_OFFSET = 50;
    public static final int MAX_CM_RETRIES_OFFSET = 51;
    public static final int SRQ_OFFSET = 51;
    public static final int EXTENDED_TRANSPORT_TYPE_OFFSET = 51;
    public static final int PRIMARY_PATH_OFFSET = 52;
    public static final int ALTERNATE_PATH_OFFSET = 96;
    public static final int SAP_SUPPORTED_OFFSET = 139;
    public static final int PRIVATE_DATA_OFFSET = 140;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public static final int REMOTE_CM_RESPONSE_TIMEOUT_MASK = 0xf8;
    public static final int REMOTE_CM_RESPONSE_TIMEOUT_SHIFT = 3;
    public static final int TRANSPORT_SERVICE_TYPE_MASK = 0x06;
    public static final int TRANSPORT_SERVICE_TYPE_SHIFT = 1;
    public static final int END_TO_END_FLOW_CONTROL_MASK = 0x01;
    public static final int END_TO_END_FLOW_CONTROL_SHIFT = 0;
    public static final int LOCAL_CM_RESPONSE_TIMEOUT_MASK = 0xf8;
    public static final int LOCAL_CM_RESPONSE_TIMEOUT_SHIFT = 3;
    public static final int RETRY_COUNT_MASK = 0x07;
    public static final int RETRY_COUNT_SHIFT = 0;
    public static final int PATH_MTU_MASK = 0xf0;
    public static final int PATH_MTU_SHIFT = 4;
    public static final int RDC_EXISTS_MASK = 0x08;
    public static final int RDC_EXISTS_SHIFT = 3;
    public static final int RNR_RETRY_COUNT_MASK = 0x07;
    public static final int RNR_RETRY_COUNT_SHIFT = 0;
    public static final int MAX_CM_RETRIES_MASK = 0xf0;
    public static final int MAX_CM_RETRIES_SHIFT = 4;
    public static final int SRQ_MASK = 0x08;
    public static final int SRQ_SHIFT = 3;
    public static final int EXTENDED_TRANSPORT_TYPE_MASK = 0x07;
    public static final int EXTENDED_TRANSPORT_TYPE_SHIFT = 0;
    public static final int SAP_SUPPORTED_MASK = 0x04;
    public static final int SAP_SUPPORTED_SHIFT = 2;

    /** TransportServiceType values (IBA Table 106; kernel cm.c's cm_req_set_qp_type). */
    public static final int TRANSPORT_SERVICE_TYPE_RC = 0;
    public static final int TRANSPORT_SERVICE_TYPE_UC = 1;
    public static final int TRANSPORT_SERVICE_TYPE_RD = 2;
    /** The type is given by ExtendedTransportType instead. */
    public static final int TRANSPORT_SERVICE_TYPE_EXTENDED = 3;
    /** ExtendedTransportType of an XRC initiator QP. */
    public static final int EXTENDED_TRANSPORT_TYPE_XRC = 1;

    private final ConnectRequestPath primaryPath = new ConnectRequestPath(this, PRIMARY_PATH_OFFSET, "prim_");
    private final ConnectRequestPath alternatePath = new ConnectRequestPath(this, ALTERNATE_PATH_OFFSET, "alt_");

    public ConnectRequest()
    {
        super(CmAttribute.REQ, PRIVATE_DATA_OFFSET);
    }

    public long localCommId()
    {
        return getUnsignedInt(LOCAL_COMM_ID_OFFSET);
    }

    public ConnectRequest localCommId(final long value)
    {
        putUnsignedInt(LOCAL_COMM_ID_OFFSET, value, "localcommid");
        return this;
    }

    public int vendorId()
    {
        return getUnsigned24(VENDOR_ID_OFFSET);
    }

    public ConnectRequest vendorId(final int value)
    {
        putUnsigned24(VENDOR_ID_OFFSET, value, "vendorid");
        return this;
    }

    public long serviceId()
    {
        return getLong(SERVICE_ID_OFFSET);
    }

    public ConnectRequest serviceId(final long value)
    {
        putLong(SERVICE_ID_OFFSET, value);
        return this;
    }

    public long localCaGuid()
    {
        return getLong(LOCAL_CA_GUID_OFFSET);
    }

    public ConnectRequest localCaGuid(final long value)
    {
        putLong(LOCAL_CA_GUID_OFFSET, value);
        return this;
    }

    public long localQKey()
    {
        return getUnsignedInt(LOCAL_Q_KEY_OFFSET);
    }

    public ConnectRequest localQKey(final long value)
    {
        putUnsignedInt(LOCAL_Q_KEY_OFFSET, value, "localqkey");
        return this;
    }

    public int localQpn()
    {
        return getUnsigned24(LOCAL_QPN_OFFSET);
    }

    public ConnectRequest localQpn(final int value)
    {
        putUnsigned24(LOCAL_QPN_OFFSET, value, "localqpn");
        return this;
    }

    public short responderResources()
    {
        return getUnsignedByte(RESPONDER_RESOURCES_OFFSET);
    }

    public ConnectRequest responderResources(final int value)
    {
        putUnsignedByte(RESPONDER_RESOURCES_OFFSET, value, "responderres");
        return this;
    }

    public int localEecn()
    {
        return getUnsigned24(LOCAL_EECN_OFFSET);
    }

    public ConnectRequest localEecn(final int value)
    {
        putUnsigned24(LOCAL_EECN_OFFSET, value, "localeecn");
        return this;
    }

    public short initiatorDepth()
    {
        return getUnsignedByte(INITIATOR_DEPTH_OFFSET);
    }

    public ConnectRequest initiatorDepth(final int value)
    {
        putUnsignedByte(INITIATOR_DEPTH_OFFSET, value, "initdepth");
        return this;
    }

    public int remoteEecn()
    {
        return getUnsigned24(REMOTE_EECN_OFFSET);
    }

    public ConnectRequest remoteEecn(final int value)
    {
        putUnsigned24(REMOTE_EECN_OFFSET, value, "remoteeecn");
        return this;
    }

    /** The 5-bit exponent: 4.096 us * 2^value. */
    public int remoteCmResponseTimeout()
    {
        return getBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, REMOTE_CM_RESPONSE_TIMEOUT_MASK,
            REMOTE_CM_RESPONSE_TIMEOUT_SHIFT);
    }

    public ConnectRequest remoteCmResponseTimeout(final int value)
    {
        putBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, REMOTE_CM_RESPONSE_TIMEOUT_MASK, REMOTE_CM_RESPONSE_TIMEOUT_SHIFT,
            value, "remoteresptout");
        return this;
    }

    /** One of the {@code TRANSPORT_SERVICE_TYPE_*} values. */
    public int transportServiceType()
    {
        return getBits(TRANSPORT_SERVICE_TYPE_OFFSET, TRANSPORT_SERVICE_TYPE_MASK, TRANSPORT_SERVICE_TYPE_SHIFT);
    }

    public ConnectRequest transportServiceType(final int value)
    {
        putBits(TRANSPORT_SERVICE_TYPE_OFFSET, TRANSPORT_SERVICE_TYPE_MASK, TRANSPORT_SERVICE_TYPE_SHIFT, value,
            "transpsvctype");
        return this;
    }

    public boolean endToEndFlowControl()
    {
        return getBits(END_TO_END_FLOW_CONTROL_OFFSET, END_TO_END_FLOW_CONTROL_MASK,
            END_TO_END_FLOW_CONTROL_SHIFT) != 0;
    }

    public ConnectRequest endToEndFlowControl(final boolean value)
    {
        putBits(END_TO_END_FLOW_CONTROL_OFFSET, END_TO_END_FLOW_CONTROL_MASK, END_TO_END_FLOW_CONTROL_SHIFT,
            value ? 1 : 0, "e2eflowctrl");
        return this;
    }

    public int startingPsn()
    {
        return getUnsigned24(STARTING_PSN_OFFSET);
    }

    public ConnectRequest startingPsn(final int value)
    {
        putUnsigned24(STARTING_PSN_OFFSET, value, "startpsn");
        return this;
    }

    /** The 5-bit exponent: 4.096 us * 2^value. */
    public int localCmResponseTimeout()
    {
        return getBits(LOCAL_CM_RESPONSE_TIMEOUT_OFFSET, LOCAL_CM_RESPONSE_TIMEOUT_MASK,
            LOCAL_CM_RESPONSE_TIMEOUT_SHIFT);
    }

    public ConnectRequest localCmResponseTimeout(final int value)
    {
        putBits(LOCAL_CM_RESPONSE_TIMEOUT_OFFSET, LOCAL_CM_RESPONSE_TIMEOUT_MASK, LOCAL_CM_RESPONSE_TIMEOUT_SHIFT,
            value, "localresptout");
        return this;
    }

    public int retryCount()
    {
        return getBits(RETRY_COUNT_OFFSET, RETRY_COUNT_MASK, RETRY_COUNT_SHIFT);
    }

    public ConnectRequest retryCount(final int value)
    {
        putBits(RETRY_COUNT_OFFSET, RETRY_COUNT_MASK, RETRY_COUNT_SHIFT, value, "retrcount");
        return this;
    }

    /** The P_Key, full-member bit included. */
    public int partitionKey()
    {
        return getUnsignedShort(PARTITION_KEY_OFFSET);
    }

    public ConnectRequest partitionKey(final int value)
    {
        putUnsignedShort(PARTITION_KEY_OFFSET, value, "pkey");
        return this;
    }

    /** The 4-bit IBA MTU code (1 = 256 ... 5 = 4096), as in PathRecord.MTU. */
    public int pathMtu()
    {
        return getBits(PATH_MTU_OFFSET, PATH_MTU_MASK, PATH_MTU_SHIFT);
    }

    public ConnectRequest pathMtu(final int value)
    {
        putBits(PATH_MTU_OFFSET, PATH_MTU_MASK, PATH_MTU_SHIFT, value, "pppmtu");
        return this;
    }

    public boolean rdcExists()
    {
        return getBits(RDC_EXISTS_OFFSET, RDC_EXISTS_MASK, RDC_EXISTS_SHIFT) != 0;
    }

    public ConnectRequest rdcExists(final boolean value)
    {
        putBits(RDC_EXISTS_OFFSET, RDC_EXISTS_MASK, RDC_EXISTS_SHIFT, value ? 1 : 0, "rdcexist");
        return this;
    }

    public int rnrRetryCount()
    {
        return getBits(RNR_RETRY_COUNT_OFFSET, RNR_RETRY_COUNT_MASK, RNR_RETRY_COUNT_SHIFT);
    }

    public ConnectRequest rnrRetryCount(final int value)
    {
        putBits(RNR_RETRY_COUNT_OFFSET, RNR_RETRY_COUNT_MASK, RNR_RETRY_COUNT_SHIFT, value, "rnrretrcount");
        return this;
    }

    public int maxCmRetries()
    {
        return getBits(MAX_CM_RETRIES_OFFSET, MAX_CM_RETRIES_MASK, MAX_CM_RETRIES_SHIFT);
    }

    public ConnectRequest maxCmRetries(final int value)
    {
        putBits(MAX_CM_RETRIES_OFFSET, MAX_CM_RETRIES_MASK, MAX_CM_RETRIES_SHIFT, value, "maxcmretr");
        return this;
    }

    public boolean srq()
    {
        return getBits(SRQ_OFFSET, SRQ_MASK, SRQ_SHIFT) != 0;
    }

    public ConnectRequest srq(final boolean value)
    {
        putBits(SRQ_OFFSET, SRQ_MASK, SRQ_SHIFT, value ? 1 : 0, "srq");
        return this;
    }

    public int extendedTransportType()
    {
        return getBits(EXTENDED_TRANSPORT_TYPE_OFFSET, EXTENDED_TRANSPORT_TYPE_MASK, EXTENDED_TRANSPORT_TYPE_SHIFT);
    }

    public ConnectRequest extendedTransportType(final int value)
    {
        putBits(EXTENDED_TRANSPORT_TYPE_OFFSET, EXTENDED_TRANSPORT_TYPE_MASK, EXTENDED_TRANSPORT_TYPE_SHIFT, value,
            "ext_transport");
        return this;
    }

    /** The primary path block; the same flyweight on every call, reading this REQ's bytes. */
    public ConnectRequestPath primaryPath()
    {
        return primaryPath;
    }

    /** The alternate path block; all zero when the requester offers no alternate path. */
    public ConnectRequestPath alternatePath()
    {
        return alternatePath;
    }

    public boolean sapSupported()
    {
        return getBits(SAP_SUPPORTED_OFFSET, SAP_SUPPORTED_MASK, SAP_SUPPORTED_SHIFT) != 0;
    }

    public ConnectRequest sapSupported(final boolean value)
    {
        putBits(SAP_SUPPORTED_OFFSET, SAP_SUPPORTED_MASK, SAP_SUPPORTED_SHIFT, value ? 1 : 0, "sapsupported");
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return unwrappedText();
        }
        final StringBuilder text = new StringBuilder(1024)
            .append("REQ{localcommid=0x").append(Long.toHexString(localCommId()))
            .append(", vendorid=0x").append(Integer.toHexString(vendorId()))
            .append(", serviceid=0x").append(String.format("%016x", serviceId()))
            .append(", localcaguid=0x").append(String.format("%016x", localCaGuid()))
            .append(", localqkey=0x").append(Long.toHexString(localQKey()))
            .append(", localqpn=0x").append(Integer.toHexString(localQpn()))
            .append(", responderres=").append(responderResources())
            .append(", localeecn=0x").append(Integer.toHexString(localEecn()))
            .append(", initdepth=").append(initiatorDepth())
            .append(", remoteeecn=0x").append(Integer.toHexString(remoteEecn()))
            .append(", remoteresptout=").append(remoteCmResponseTimeout())
            .append(", transpsvctype=").append(transportServiceType())
            .append(", e2eflowctrl=").append(endToEndFlowControl() ? 1 : 0)
            .append(", startpsn=0x").append(Integer.toHexString(startingPsn()))
            .append(", localresptout=").append(localCmResponseTimeout())
            .append(", retrcount=").append(retryCount())
            .append(", pkey=0x").append(String.format("%04x", partitionKey()))
            .append(", pppmtu=").append(pathMtu())
            .append(", rdcexist=").append(rdcExists() ? 1 : 0)
            .append(", rnrretrcount=").append(rnrRetryCount())
            .append(", maxcmretr=").append(maxCmRetries())
            .append(", srq=").append(srq() ? 1 : 0)
            .append(", ext_transport=").append(extendedTransportType());
        primaryPath.appendTo(text);
        alternatePath.appendTo(text);
        return text.append(", sapsupported=").append(sapSupported() ? 1 : 0)
            .append(", private=").append(privateDataText()).append('}').toString();
    }
}
