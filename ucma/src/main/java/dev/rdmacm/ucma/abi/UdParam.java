package dev.rdmacm.ucma.abi;

import org.agrona.DirectBuffer;

/**
 * Flyweight over {@code struct rdma_ucm_ud_param}, the parameter of a UD id's events (SIDR's
 * CONNECT_REQUEST and ESTABLISHED, MULTICAST_JOIN): the remote QP, its Q_Key and the address handle to
 * reach it; host byte order. 4-aligned only: inside an event it starts at offset 20.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                            qp_num                             |  0
 *  +---------------------------------------------------------------+
 *  |                             qkey                              |  4
 *  +---------------------------------------------------------------+
 *  |               ah_attr (32 bytes: ib_uverbs_ah_attr)           |  8
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |                  private_data (256 bytes)                     | 40
 *  ~                                                               ~
 *  +---------------+-----------------------------------------------+
 *  |private_data_len|                reserved[7]                   | 296
 *  +---------------+-----------------------------------------------+
 * </pre>
 */
public final class UdParam extends UcmaStruct<UdParam>
{
    public static final int QP_NUM_OFFSET = 0;
    public static final int QKEY_OFFSET = 4;
    public static final int AH_ATTR_OFFSET = 8;
    public static final int PRIVATE_DATA_OFFSET = AH_ATTR_OFFSET + UverbsAhAttr.LENGTH;
    public static final int PRIVATE_DATA_LEN_OFFSET = PRIVATE_DATA_OFFSET + UcmaConstants.MAX_PRIVATE_DATA;
    public static final int RESERVED_OFFSET = PRIVATE_DATA_LEN_OFFSET + 1;
    public static final int RESERVED_LENGTH = 7;
    public static final int LENGTH = RESERVED_OFFSET + RESERVED_LENGTH;

    private final UverbsAhAttr ahAttr = new UverbsAhAttr();

    public UdParam()
    {
        super("rdma_ucm_ud_param", LENGTH);
    }

    @Override
    protected void wrapped(final DirectBuffer buffer, final int offset)
    {
        ahAttr.wrap(buffer, offset + AH_ATTR_OFFSET, UverbsAhAttr.LENGTH);
    }

    public long qpNum()
    {
        return hostU32(QP_NUM_OFFSET);
    }

    public long qkey()
    {
        return hostU32(QKEY_OFFSET);
    }

    public UverbsAhAttr ahAttr()
    {
        return ahAttr;
    }

    public short privateDataLen()
    {
        return u8(PRIVATE_DATA_LEN_OFFSET);
    }

    public byte[] privateData()
    {
        return bytes(PRIVATE_DATA_OFFSET, Math.min(privateDataLen(), UcmaConstants.MAX_PRIVATE_DATA));
    }
}
