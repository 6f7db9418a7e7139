package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_migrate_id} (MIGRATE_ID); host byte order. Written on the
 * descriptor the id moves to; its events still queued move with it.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |        response (u64 address of rdma_ucm_migrate_resp)        |  0
 *  +---------------------------------------------------------------+
 *  |                              id                               |  8
 *  +---------------------------------------------------------------+
 *  |             fd (the descriptor the id is on now)              | 12
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmMigrateId extends UcmaStruct<UcmMigrateId>
{
    public static final int RESPONSE_OFFSET = 0;
    public static final int ID_OFFSET = 8;
    public static final int FD_OFFSET = 12;
    public static final int LENGTH = 16;

    public UcmMigrateId()
    {
        super("rdma_ucm_migrate_id", LENGTH);
    }

    public long response()
    {
        return hostU64(RESPONSE_OFFSET);
    }

    public UcmMigrateId response(final long address)
    {
        putHostU64(RESPONSE_OFFSET, address);
        return this;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmMigrateId id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long fd()
    {
        return hostU32(FD_OFFSET);
    }

    public UcmMigrateId fd(final long value)
    {
        putHostU32(FD_OFFSET, value);
        return this;
    }
}
