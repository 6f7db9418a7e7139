package dev.rdmacm.ucma.abi;

import org.agrona.DirectBuffer;

/**
 * Flyweight over {@code struct rdma_ucm_accept} (ACCEPT: the REP of a passive id, with {@code valid}
 * 1 and the {@code uid} its events will carry from then on; or, with {@code valid} 0, the active side's
 * "send the RTU now" after it moved its QP); host byte order. Sent whole (296 bytes, 5.8+ with ECE).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  uid (u64, echoed in events)                  |  0
 *  +---------------------------------------------------------------+
 *  |             conn_param (272 bytes: rdma_ucm_conn_param)       |  8
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |                              id                               | 280
 *  +---------------------------------------------------------------+
 *  |                           reserved                            | 284
 *  +---------------------------------------------------------------+
 *  |                       ece.vendor_id                           | 288
 *  +---------------------------------------------------------------+
 *  |                       ece.attr_mod                            | 292
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmAccept extends UcmaStruct<UcmAccept>
{
    public static final int UID_OFFSET = 0;
    public static final int CONN_PARAM_OFFSET = 8;
    public static final int ID_OFFSET = CONN_PARAM_OFFSET + ConnParam.LENGTH;
    public static final int RESERVED_OFFSET = ID_OFFSET + 4;
    public static final int ECE_VENDOR_ID_OFFSET = RESERVED_OFFSET + 4;
    public static final int ECE_ATTR_MOD_OFFSET = ECE_VENDOR_ID_OFFSET + 4;
    public static final int LENGTH = ECE_ATTR_MOD_OFFSET + 4;

    private final ConnParam connParam = new ConnParam();

    public UcmAccept()
    {
        super("rdma_ucm_accept", LENGTH);
    }

    @Override
    protected void wrapped(final DirectBuffer buffer, final int offset)
    {
        connParam.wrap(buffer, offset + CONN_PARAM_OFFSET, ConnParam.LENGTH);
    }

    public long uid()
    {
        return hostU64(UID_OFFSET);
    }

    public UcmAccept uid(final long value)
    {
        putHostU64(UID_OFFSET, value);
        return this;
    }

    public ConnParam connParam()
    {
        return connParam;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmAccept id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long eceVendorId()
    {
        return hostU32(ECE_VENDOR_ID_OFFSET);
    }

    public UcmAccept eceVendorId(final long value)
    {
        putHostU32(ECE_VENDOR_ID_OFFSET, value);
        return this;
    }

    public long eceAttrMod()
    {
        return hostU32(ECE_ATTR_MOD_OFFSET);
    }

    public UcmAccept eceAttrMod(final long value)
    {
        putHostU32(ECE_ATTR_MOD_OFFSET, value);
        return this;
    }
}
