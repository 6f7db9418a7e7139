package dev.rdmacm.ucma.abi;

import dev.rdmacm.addrinfo.RdmaSockaddr;

/**
 * Flyweight over {@code struct rdma_ucm_bind} (BIND: {@code rdma_bind_addr} for any family, AF_IB
 * included); host byte order, the address in its own C layout. The kernel refuses an {@code addr_size}
 * other than 16, 28 or 48 and a {@code reserved} that is not 0 (EINVAL).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                              id                               |  0
 *  +-------------------------------+-------------------------------+
 *  |      addr_size (16/28/48)     |        reserved (0)           |  4
 *  +-------------------------------+-------------------------------+
 *  |    addr: sockaddr_in, sockaddr_in6 or sockaddr_ib, zero-padded |  8
 *  ~                  to a 128-byte sockaddr_storage               ~
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmBind extends UcmaStruct<UcmBind>
{
    public static final int ID_OFFSET = 0;
    public static final int ADDR_SIZE_OFFSET = 4;
    public static final int RESERVED_OFFSET = 6;
    public static final int ADDR_OFFSET = 8;
    public static final int LENGTH = ADDR_OFFSET + SOCKADDR_STORAGE_LENGTH;

    public UcmBind()
    {
        super("rdma_ucm_bind", LENGTH);
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmBind id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public int addrSize()
    {
        return hostU16(ADDR_SIZE_OFFSET);
    }

    /** The address, or null when {@code addr_size} is 0. */
    public RdmaSockaddr address()
    {
        return sockaddr(ADDR_OFFSET, addrSize());
    }

    /** Sets {@code addr} and {@code addr_size} together; {@code reserved} stays as {@link #clear()} left it. */
    public UcmBind address(final RdmaSockaddr address)
    {
        putHostU16(ADDR_SIZE_OFFSET, putSockaddr("addr", ADDR_OFFSET, SOCKADDR_STORAGE_LENGTH, address));
        return this;
    }
}
