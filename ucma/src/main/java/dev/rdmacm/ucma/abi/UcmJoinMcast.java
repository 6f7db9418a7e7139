package dev.rdmacm.ucma.abi;

import dev.rdmacm.addrinfo.RdmaSockaddr;

/**
 * Flyweight over {@code struct rdma_ucm_join_mcast} (JOIN_MCAST: {@code rdma_join_multicast_ex}, any family,
 * with the join flags); host byte order, the address in its own C layout. The response is {@link IdResponse}:
 * the kernel's handle of the membership, which LEAVE_MCAST names and the group's events carry, with
 * {@code uid}. The kernel refuses an {@code addr_size} that is not the address family's and a flag other than
 * {@link UcmaConstants#RDMA_MC_JOIN_FLAG_FULLMEMBER} or {@link UcmaConstants#RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER}
 * (EINVAL).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |       response (u64 address of rdma_ucm_create_id_resp)       |  0
 *  +---------------------------------------------------------------+
 *  |           uid (u64: what the group's events carry)            |  8
 *  +---------------------------------------------------------------+
 *  |                              id                               | 16
 *  +-------------------------------+-------------------------------+
 *  |      addr_size (16/28/48)     |     join_flags (0 or 1)       | 20
 *  +-------------------------------+-------------------------------+
 *  |    addr: sockaddr_in, sockaddr_in6 or sockaddr_ib, zero-padded | 24
 *  ~                  to a 128-byte sockaddr_storage               ~
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmJoinMcast extends UcmaStruct<UcmJoinMcast>
{
    public static final int RESPONSE_OFFSET = 0;
    public static final int UID_OFFSET = 8;
    public static final int ID_OFFSET = 16;
    public static final int ADDR_SIZE_OFFSET = 20;
    public static final int JOIN_FLAGS_OFFSET = 22;
    public static final int ADDR_OFFSET = 24;
    public static final int LENGTH = ADDR_OFFSET + SOCKADDR_STORAGE_LENGTH;

    public UcmJoinMcast()
    {
        super("rdma_ucm_join_mcast", LENGTH);
    }

    public long response()
    {
        return hostU64(RESPONSE_OFFSET);
    }

    public UcmJoinMcast response(final long address)
    {
        putHostU64(RESPONSE_OFFSET, address);
        return this;
    }

    public long uid()
    {
        return hostU64(UID_OFFSET);
    }

    public UcmJoinMcast uid(final long value)
    {
        putHostU64(UID_OFFSET, value);
        return this;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmJoinMcast id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public int addrSize()
    {
        return hostU16(ADDR_SIZE_OFFSET);
    }

    public int joinFlags()
    {
        return hostU16(JOIN_FLAGS_OFFSET);
    }

    /** {@link UcmaConstants#RDMA_MC_JOIN_FLAG_FULLMEMBER} or {@link UcmaConstants#RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER}. */
    public UcmJoinMcast joinFlags(final int value)
    {
        putHostU16(JOIN_FLAGS_OFFSET, value);
        return this;
    }

    /** The address, or null when {@code addr_size} is 0. */
    public RdmaSockaddr address()
    {
        return sockaddr(ADDR_OFFSET, addrSize());
    }

    /** Sets {@code addr} and {@code addr_size} together. */
    public UcmJoinMcast address(final RdmaSockaddr address)
    {
        putHostU16(ADDR_SIZE_OFFSET, putSockaddr("addr", ADDR_OFFSET, SOCKADDR_STORAGE_LENGTH, address));
        return this;
    }
}
