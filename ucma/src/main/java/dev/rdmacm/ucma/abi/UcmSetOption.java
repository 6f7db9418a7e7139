package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_set_option} (SET_OPTION); host byte order. {@code optval} is
 * the address of {@code optlen} bytes the kernel copies during the write: a u8 for TOS and ACK_TIMEOUT,
 * an int for REUSEADDR and AFONLY, and for {@link UcmaConstants#RDMA_OPTION_IB_PATH} an array of 72-byte
 * {@code ib_path_rec_data} ({@code dev.rdmacm.protocol.path.IbvPathData}), of which the kernel installs
 * the first whose flags are exactly {@link UcmaConstants#IB_PATH_INSTALLED_FLAGS}.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |              optval (u64 address of the value)                |  0
 *  +---------------------------------------------------------------+
 *  |                              id                               |  8
 *  +---------------------------------------------------------------+
 *  |               level (RDMA_OPTION_ID, RDMA_OPTION_IB)          | 12
 *  +---------------------------------------------------------------+
 *  |                 optname (RDMA_OPTION_ID_*, _IB_*)             | 16
 *  +---------------------------------------------------------------+
 *  |                     optlen (bytes at optval)                  | 20
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmSetOption extends UcmaStruct<UcmSetOption>
{
    public static final int OPTVAL_OFFSET = 0;
    public static final int ID_OFFSET = 8;
    public static final int LEVEL_OFFSET = 12;
    public static final int OPTNAME_OFFSET = 16;
    public static final int OPTLEN_OFFSET = 20;
    public static final int LENGTH = 24;

    public UcmSetOption()
    {
        super("rdma_ucm_set_option", LENGTH);
    }

    public long optval()
    {
        return hostU64(OPTVAL_OFFSET);
    }

    public UcmSetOption optval(final long address)
    {
        putHostU64(OPTVAL_OFFSET, address);
        return this;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmSetOption id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long level()
    {
        return hostU32(LEVEL_OFFSET);
    }

    public UcmSetOption level(final long value)
    {
        putHostU32(LEVEL_OFFSET, value);
        return this;
    }

    public long optname()
    {
        return hostU32(OPTNAME_OFFSET);
    }

    public UcmSetOption optname(final long value)
    {
        putHostU32(OPTNAME_OFFSET, value);
        return this;
    }

    public long optlen()
    {
        return hostU32(OPTLEN_OFFSET);
    }

    public UcmSetOption optlen(final long value)
    {
        putHostU32(OPTLEN_OFFSET, value);
        return this;
    }
}
