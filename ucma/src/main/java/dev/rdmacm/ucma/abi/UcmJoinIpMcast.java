package dev.rdmacm.ucma.abi;

import dev.rdmacm.addrinfo.RdmaSockaddr;

/**
 * Flyweight over {@code struct rdma_ucm_join_ip_mcast} (JOIN_IP_MCAST, the form before JOIN_MCAST: IPv4 and
 * IPv6 groups only, in a 28-byte {@code sockaddr_in6} room, always as a full member); host byte order. The
 * response is {@link IdResponse}: the kernel's handle of the membership, which LEAVE_MCAST names and the
 * group's events carry, with {@code uid}.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |       response (u64 address of rdma_ucm_create_id_resp)       |  0
 *  +---------------------------------------------------------------+
 *  |           uid (u64: what the group's events carry)            |  8
 *  +---------------------------------------------------------------+
 *  |           addr (28 bytes: sockaddr_in or sockaddr_in6)        | 16
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |                              id                               | 44
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmJoinIpMcast extends UcmaStruct<UcmJoinIpMcast>
{
    public static final int RESPONSE_OFFSET = 0;
    public static final int UID_OFFSET = 8;
    public static final int ADDR_OFFSET = 16;
    public static final int ID_OFFSET = ADDR_OFFSET + SOCKADDR_IN6_LENGTH;
    public static final int LENGTH = ID_OFFSET + 4;

    public UcmJoinIpMcast()
    {
        super("rdma_ucm_join_ip_mcast", LENGTH);
    }

    public long response()
    {
        return hostU64(RESPONSE_OFFSET);
    }

    public UcmJoinIpMcast response(final long address)
    {
        putHostU64(RESPONSE_OFFSET, address);
        return this;
    }

    public long uid()
    {
        return hostU64(UID_OFFSET);
    }

    public UcmJoinIpMcast uid(final long value)
    {
        putHostU64(UID_OFFSET, value);
        return this;
    }

    /** The group (IPv4 or IPv6; the rest of the room zeroed). */
    public UcmJoinIpMcast address(final RdmaSockaddr address)
    {
        putSockaddr("addr", ADDR_OFFSET, SOCKADDR_IN6_LENGTH, address);
        return this;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmJoinIpMcast id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }
}
