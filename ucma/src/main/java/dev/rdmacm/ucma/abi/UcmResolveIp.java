package dev.rdmacm.ucma.abi;

import dev.rdmacm.addrinfo.RdmaSockaddr;

/**
 * Flyweight over {@code struct rdma_ucm_resolve_ip} (RESOLVE_IP, the pre-AF_IB form of RESOLVE_ADDR:
 * IPv4 and IPv6 only, each in a 28-byte {@code sockaddr_in6} room; a source of family 0 is none); host
 * byte order.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |           src_addr (28 bytes: sockaddr_in or sockaddr_in6)    |  0
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |           dst_addr (28 bytes: sockaddr_in or sockaddr_in6)    | 28
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |                              id                               | 56
 *  +---------------------------------------------------------------+
 *  |                          timeout_ms                           | 60
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class UcmResolveIp extends UcmaStruct<UcmResolveIp>
{
    public static final int SRC_ADDR_OFFSET = 0;
    public static final int DST_ADDR_OFFSET = SOCKADDR_IN6_LENGTH;
    public static final int ID_OFFSET = 2 * SOCKADDR_IN6_LENGTH;
    public static final int TIMEOUT_MS_OFFSET = ID_OFFSET + 4;
    public static final int LENGTH = TIMEOUT_MS_OFFSET + 4;

    public UcmResolveIp()
    {
        super("rdma_ucm_resolve_ip", LENGTH);
    }

    /** Sets the source (IPv4 or IPv6); null leaves family 0, no source. */
    public UcmResolveIp source(final RdmaSockaddr address)
    {
        if (address == null)
        {
            zero(SRC_ADDR_OFFSET, SOCKADDR_IN6_LENGTH);
            return this;
        }
        putSockaddr("src_addr", SRC_ADDR_OFFSET, SOCKADDR_IN6_LENGTH, address);
        return this;
    }

    public UcmResolveIp destination(final RdmaSockaddr address)
    {
        putSockaddr("dst_addr", DST_ADDR_OFFSET, SOCKADDR_IN6_LENGTH, address);
        return this;
    }

    public int id()
    {
        return (int)hostU32(ID_OFFSET);
    }

    public UcmResolveIp id(final int value)
    {
        putHostU32(ID_OFFSET, value);
        return this;
    }

    public long timeoutMs()
    {
        return hostU32(TIMEOUT_MS_OFFSET);
    }

    public UcmResolveIp timeoutMs(final long value)
    {
        putHostU32(TIMEOUT_MS_OFFSET, value);
        return this;
    }
}
