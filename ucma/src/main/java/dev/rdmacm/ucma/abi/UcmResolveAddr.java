package dev.rdmacm.ucma.abi;

import dev.rdmacm.addrinfo.RdmaSockaddr;

/**
 * Flyweight over {@code struct rdma_ucm_resolve_addr} (RESOLVE_ADDR: {@code rdma_resolve_addr} for any
 * family); host byte order, the addresses in their own C layouts. {@code src_size} 0 means no source;
 * the sizes must be 0 (source only), 16, 28 or 48 and {@code reserved} 0, or the kernel says EINVAL.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                              id                               |  0
 *  +---------------------------------------------------------------+
 *  |                          timeout_ms                           |  4
 *  +-------------------------------+-------------------------------+
 *  |  src_size (0: no source)      |           dst_size            |  8
 *  +-------------------------------+-------------------------------+
 *  |                         reserved (0)                          | 12
 *  +---------------------------------------------------------------+
 *  |              src_addr (128-byte sockaddr_storage)             | 16
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |              dst_addr (128-byte sockaddr_storage)             | 144
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmResolveAddr extends UcmaStruct<UcmResolveAddr>
{
    public static final int ID_OFFSET = 0;
    public static final int TIMEOUT_MS_OFFSET = 4;
    public static final int SRC_SIZE_OFFSET = 8;
    public static final int DST_SIZE_OFFSET = 10;
    public static final int RESERVED_OFFSET = 12;
    public static final int SRC_ADDR_OFFSET = 16;
    public static final int DST_ADDR_OFFSET = SRC_ADDR_OFFSET + SOCKADDR_STORAGE_LENGTH;
    public static final int LENGTH = DST_ADDR_OFFSET + SOCKADDR_STORAGE_LENGTH;

    public UcmResolveAddr()
    {
        super("rdma_ucm_resolve_addr", LENGTH);
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmResolveAddr id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long timeoutMs()
    {
        return hostU32(TIMEOUT_MS_OFFSET);
    }

    public UcmResolveAddr timeoutMs(final long value)
    {
        putHostU32(TIMEOUT_MS_OFFSET, value);
        return this;
    }

    public int srcSize()
    {
        return hostU16(SRC_SIZE_OFFSET);
    }

    public int dstSize()
    {
        return hostU16(DST_SIZE_OFFSET);
    }

    /** The source, or null for none. */
    public RdmaSockaddr source()
    {
        return sockaddr(SRC_ADDR_OFFSET, srcSize());
    }

    /** Sets {@code src_addr} and {@code src_size}; null clears both (no source). */
    public UcmResolveAddr source(final RdmaSockaddr address)
    {
        if (address == null)
        {
            zero(SRC_ADDR_OFFSET, SOCKADDR_STORAGE_LENGTH);
            putHostU16(SRC_SIZE_OFFSET, 0);
            return this;
        }
        putHostU16(SRC_SIZE_OFFSET, putSockaddr("src_addr", SRC_ADDR_OFFSET, SOCKADDR_STORAGE_LENGTH, address));
        return this;
    }

    public RdmaSockaddr destination()
    {
        return sockaddr(DST_ADDR_OFFSET, dstSize());
    }

    public UcmResolveAddr destination(final RdmaSockaddr address)
    {
        putHostU16(DST_SIZE_OFFSET, putSockaddr("dst_addr", DST_ADDR_OFFSET, SOCKADDR_STORAGE_LENGTH, address));
        return this;
    }
}
