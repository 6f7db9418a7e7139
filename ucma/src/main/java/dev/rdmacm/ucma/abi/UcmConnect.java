package dev.rdmacm.ucma.abi;

import org.agrona.DirectBuffer;

/**
 * Flyweight over {@code struct rdma_ucm_connect} (CONNECT: the REQ of an RC id, the SIDR REQ of a UD
 * one); host byte order. Sent whole (288 bytes, the 5.8+ size with ECE); kernels before 5.8 read the
 * first 280. {@code conn_param.valid} must be 1.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |             conn_param (272 bytes: rdma_ucm_conn_param)       |  0
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |                              id                               | 272
 *  +---------------------------------------------------------------+
 *  |                           reserved                            | 276
 *  +---------------------------------------------------------------+
 *  |                       ece.vendor_id                           | 280
 *  +---------------------------------------------------------------+
 *  |                       ece.attr_mod                            | 284
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmConnect extends UcmaStruct<UcmConnect>
{
    public static final int CONN_PARAM_OFFSET = 0;
    public static final int ID_OFFSET = ConnParam.LENGTH;
    public static final int RESERVED_OFFSET = ID_OFFSET + 4;
    public static final int ECE_VENDOR_ID_OFFSET = RESERVED_OFFSET + 4;
    public static final int ECE_ATTR_MOD_OFFSET = ECE_VENDOR_ID_OFFSET + 4;
    public static final int LENGTH = ECE_ATTR_MOD_OFFSET + 4;

    private final ConnParam connParam = new ConnParam();

    public UcmConnect()
    {
        super("rdma_ucm_connect", LENGTH);
    }

    @Override
    protected void wrapped(final DirectBuffer buffer, final int offset)
    {
        connParam.wrap(buffer, offset + CONN_PARAM_OFFSET, ConnParam.LENGTH);
    }

    public ConnParam connParam()
    {
        return connParam;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmConnect id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long eceVendorId()
    {
        return hostU32(ECE_VENDOR_ID_OFFSET);
    }

    public UcmConnect eceVendorId(final long value)
    {
        putHostU32(ECE_VENDOR_ID_OFFSET, value);
        return this;
    }

    public long eceAttrMod()
    {
        return hostU32(ECE_ATTR_MOD_OFFSET);
    }

    public UcmConnect eceAttrMod(final long value)
    {
        putHostU32(ECE_ATTR_MOD_OFFSET, value);
        return this;
    }
}
