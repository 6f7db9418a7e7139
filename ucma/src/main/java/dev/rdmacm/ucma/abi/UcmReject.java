package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_reject} (REJECT: a REJ, or SIDR REP with a status, to a
 * connection request); host byte order. {@code reason} 0 means the consumer's (28); only 28 and 35
 * (vendor option not supported, ECE) are allowed, anything else EINVAL.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                              id                               |  0
 *  +---------------+---------------+-------------------------------+
 *  |private_data_len|    reason    |          reserved[2]          |  4
 *  +---------------+---------------+-------------------------------+
 *  |                  private_data (256 bytes)                     |  8
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmReject extends UcmaStruct<UcmReject>
{
    public static final int ID_OFFSET = 0;
    public static final int PRIVATE_DATA_LEN_OFFSET = 4;
    public static final int REASON_OFFSET = 5;
    public static final int RESERVED_OFFSET = 6;
    public static final int PRIVATE_DATA_OFFSET = 8;
    public static final int LENGTH = PRIVATE_DATA_OFFSET + UcmaConstants.MAX_PRIVATE_DATA;

    public UcmReject()
    {
        super("rdma_ucm_reject", LENGTH);
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmReject id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public short reason()
    {
        return u8(REASON_OFFSET);
    }

    public UcmReject reason(final int value)
    {
        putU8(REASON_OFFSET, value);
        return this;
    }

    public short privateDataLen()
    {
        return u8(PRIVATE_DATA_LEN_OFFSET);
    }

    public byte[] privateData()
    {
        return bytes(PRIVATE_DATA_OFFSET, Math.min(privateDataLen(), UcmaConstants.MAX_PRIVATE_DATA));
    }

    /** Sets {@code private_data} (the rest zeroed) and {@code private_data_len}. */
    public UcmReject privateData(final byte[] data)
    {
        putBytes("private_data", PRIVATE_DATA_OFFSET, UcmaConstants.MAX_PRIVATE_DATA, data);
        putU8(PRIVATE_DATA_LEN_OFFSET, data.length);
        return this;
    }
}
