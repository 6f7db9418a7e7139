package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_query} (QUERY); host byte order. The response is a {@link
 * QueryAddrResponse} for ADDR and GID, a {@link QueryPathResponse} for PATH; an unknown option is ENOSYS.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |            response (u64 address of the response)             |  0
 *  +---------------------------------------------------------------+
 *  |                              id                               |  8
 *  +---------------------------------------------------------------+
 *  |                 option (RDMA_USER_CM_QUERY_*)                 | 12
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmQuery extends UcmaStruct<UcmQuery>
{
    public static final int RESPONSE_OFFSET = 0;
    public static final int ID_OFFSET = 8;
    public static final int OPTION_OFFSET = 12;
    public static final int LENGTH = 16;

    public UcmQuery()
    {
        super("rdma_ucm_query", LENGTH);
    }

    public long response()
    {
        return hostU64(RESPONSE_OFFSET);
    }

    public UcmQuery response(final long address)
    {
        putHostU64(RESPONSE_OFFSET, address);
        return this;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmQuery id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long option()
    {
        return hostU32(OPTION_OFFSET);
    }

    public UcmQuery option(final long value)
    {
        putHostU32(OPTION_OFFSET, value);
        return this;
    }
}
