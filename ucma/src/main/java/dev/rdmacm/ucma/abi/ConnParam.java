package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_conn_param}, embedded in CONNECT and ACCEPT and in the events
 * of an RC id (CONNECT_REQUEST, CONNECT_RESPONSE, ESTABLISHED, REJECTED...); host byte order. A
 * command's {@code valid} must be 1 (CONNECT refuses 0; ACCEPT with 0 is the active side's "send the
 * RTU now"). 4-aligned only: inside an event it starts at offset 20.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                            qp_num                             |  0
 *  +---------------------------------------------------------------+
 *  |                  qkey (librdmacm: "reserved")                 |  4
 *  +---------------------------------------------------------------+
 *  |                  private_data (256 bytes)                     |  8
 *  ~                                                               ~
 *  +---------------+---------------+---------------+---------------+
 *  |private_data_len|     srq      |responder_res. |initiator_depth| 264
 *  +---------------+---------------+---------------+---------------+
 *  | flow_control  |  retry_count  |rnr_retry_count|     valid     | 268
 *  +---------------+---------------+---------------+---------------+
 * </pre>
 */
public final class ConnParam extends UcmaStruct<ConnParam>
{
    public static final int QP_NUM_OFFSET = 0;
    public static final int QKEY_OFFSET = 4;
    public static final int PRIVATE_DATA_OFFSET = 8;
    public static final int PRIVATE_DATA_LEN_OFFSET = PRIVATE_DATA_OFFSET + UcmaConstants.MAX_PRIVATE_DATA;
    public static final int SRQ_OFFSET = PRIVATE_DATA_LEN_OFFSET + 1;
    public static final int RESPONDER_RESOURCES_OFFSET = SRQ_OFFSET + 1;
    public static final int INITIATOR_DEPTH_OFFSET = RESPONDER_RESOURCES_OFFSET + 1;
    public static final int FLOW_CONTROL_OFFSET = INITIATOR_DEPTH_OFFSET + 1;
    public static final int RETRY_COUNT_OFFSET = FLOW_CONTROL_OFFSET + 1;
    public static final int RNR_RETRY_COUNT_OFFSET = RETRY_COUNT_OFFSET + 1;
    public static final int VALID_OFFSET = RNR_RETRY_COUNT_OFFSET + 1;
    public static final int LENGTH = VALID_OFFSET + 1;

    public ConnParam()
    {
        super("rdma_ucm_conn_param", LENGTH);
    }

    public long qpNum()
    {
        return hostU32(QP_NUM_OFFSET);
    }

    public ConnParam qpNum(final long value)
    {
        putHostU32(QP_NUM_OFFSET, value);
        return this;
    }

    public long qkey()
    {
        return hostU32(QKEY_OFFSET);
    }

    public ConnParam qkey(final long value)
    {
        putHostU32(QKEY_OFFSET, value);
        return this;
    }

    /** The {@code private_data_len} first bytes of {@code private_data}. */
    public byte[] privateData()
    {
        return bytes(PRIVATE_DATA_OFFSET, Math.min(privateDataLen(), UcmaConstants.MAX_PRIVATE_DATA));
    }

    /** Sets {@code private_data} (the rest of its 256 bytes zeroed) and {@code private_data_len}. */
    public ConnParam privateData(final byte[] data)
    {
        putBytes("private_data", PRIVATE_DATA_OFFSET, UcmaConstants.MAX_PRIVATE_DATA, data);
        putU8(PRIVATE_DATA_LEN_OFFSET, data.length);
        return this;
    }

    public short privateDataLen()
    {
        return u8(PRIVATE_DATA_LEN_OFFSET);
    }

    public short srq()
    {
        return u8(SRQ_OFFSET);
    }

    public ConnParam srq(final int value)
    {
        putU8(SRQ_OFFSET, value);
        return this;
    }

    public short responderResources()
    {
        return u8(RESPONDER_RESOURCES_OFFSET);
    }

    public ConnParam responderResources(final int value)
    {
        putU8(RESPONDER_RESOURCES_OFFSET, value);
        return this;
    }

    public short initiatorDepth()
    {
        return u8(INITIATOR_DEPTH_OFFSET);
    }

    public ConnParam initiatorDepth(final int value)
    {
        putU8(INITIATOR_DEPTH_OFFSET, value);
        return this;
    }

    public short flowControl()
    {
        return u8(FLOW_CONTROL_OFFSET);
    }

    public ConnParam flowControl(final int value)
    {
        putU8(FLOW_CONTROL_OFFSET, value);
        return this;
    }

    public short retryCount()
    {
        return u8(RETRY_COUNT_OFFSET);
    }

    public ConnParam retryCount(final int value)
    {
        putU8(RETRY_COUNT_OFFSET, value);
        return this;
    }

    public short rnrRetryCount()
    {
        return u8(RNR_RETRY_COUNT_OFFSET);
    }

    public ConnParam rnrRetryCount(final int value)
    {
        putU8(RNR_RETRY_COUNT_OFFSET, value);
        return this;
    }

    public short valid()
    {
        return u8(VALID_OFFSET);
    }

    public ConnParam valid(final int value)
    {
        putU8(VALID_OFFSET, value);
        return this;
    }
}
