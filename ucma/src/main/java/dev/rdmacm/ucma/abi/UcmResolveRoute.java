package dev.rdmacm.ucma.abi;

/**
 * Flyweight over {@code struct rdma_ucm_resolve_route} (RESOLVE_ROUTE); host byte order. The kernel needs
 * the id in ADDR_RESOLVED and, on newer kernels, a timeout above 0; the result is an event.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                              id                               |  0
 *  +---------------------------------------------------------------+
 *  |                          timeout_ms                           |  4
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmResolveRoute extends UcmaStruct<UcmResolveRoute>
{
    public static final int ID_OFFSET = 0;
    public static final int TIMEOUT_MS_OFFSET = 4;
    public static final int LENGTH = 8;

    public UcmResolveRoute()
    {
        super("rdma_ucm_resolve_route", LENGTH);
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmResolveRoute id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long timeoutMs()
    {
        return hostU32(TIMEOUT_MS_OFFSET);
    }

    public UcmResolveRoute timeoutMs(final long value)
    {
        putHostU32(TIMEOUT_MS_OFFSET, value);
        return this;
    }
}
