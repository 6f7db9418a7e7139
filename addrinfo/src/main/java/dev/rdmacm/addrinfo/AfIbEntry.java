package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.protocol.sa.PathRecordLayout;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * The AF_IB entry librdmacm puts in front of an IP result when ACM returned a route and the kernel
 * supports AF_IB ({@code ucma_resolve_af_ib}, reference §3.4): addresses from the first path record
 * (P_Key, flow label, SGID, DGID), Service IDs from the IP ports, and the 36-byte {@code cma_hdr} the CM
 * private data must start with:
 * <pre>
 *  0        1          2               4                   20                  36
 * +--------+----------+---------------+-------------------+-------------------+
 * | cma_ver| ip_ver   | port (0)      | src addr (16)     | dst addr (16)     |
 * +--------+----------+---------------+-------------------+-------------------+
 * </pre>
 * IPv4 addresses sit in the last 4 bytes of their 16.
 */
final class AfIbEntry
{
    static final int CONNECT_LENGTH = 36;
    static final int IP_VERSION_OFFSET = 1;
    static final int CONNECT_SRC_OFFSET = 4;
    static final int CONNECT_DST_OFFSET = 20;

    private AfIbEntry()
    {
    }

    static RdmaAddrInfo from(final RdmaAddrInfo ip)
    {
        final byte[] route = ip.route();
        final UnsafeBuffer buffer = new UnsafeBuffer(route);
        final IbvPathRecord path = new IbvPathData().wrap(buffer, 0, route.length).path();
        final int pkey = path.pKey();
        // librdmacm shifts the whole word, so the 4 reserved bits above the flow label come along
        final long flowLabel = (buffer.getInt(IbvPathData.PATH_OFFSET + PathRecordLayout.FLOW_LABEL_HOP_LIMIT_OFFSET,
            ByteOrder.BIG_ENDIAN) & 0xffff_ffffL) >>> 8;
        final IbSockaddr src = sockaddr(ip.portSpace(), pkey, flowLabel, path.sgid(), ip.srcAddr());
        final IbSockaddr dst = sockaddr(ip.portSpace(), pkey, flowLabel, path.dgid(), ip.dstAddr());
        return new RdmaAddrInfo(ip.flags(), AddressFamily.AF_IB, ip.qpType(), ip.portSpace(), src, dst, ip.srcCanonName(),
            ip.dstCanonName(), route, ip.family() == AddressFamily.AF_IB ? null : connectHeader(ip));
    }

    /** {@code ucma_set_sid}: the Service ID from the port space and the original address's port. */
    static IbSockaddr sockaddr(final int portSpace, final int pkey, final long flowInfo, final Gid gid, final RdmaSockaddr portFrom)
    {
        final int port = portOf(portFrom);
        return new IbSockaddr(PKey.of(pkey), flowInfo, gid, UcmaSetSid.sid(portSpace, port), UcmaSetSid.mask(portSpace, port), 0);
    }

    /** {@code ucma_get_port}: the port of an IP address, the SID's low 16 bits of an AF_IB one, 0 when absent. */
    static int portOf(final RdmaSockaddr address)
    {
        return switch (address)
        {
            case null -> 0;
            case Ipv4Sockaddr v4 -> v4.port();
            case Ipv6Sockaddr v6 -> v6.port();
            case IbSockaddr ib -> ib.port();
            case OpaqueSockaddr ignored -> 0;
        };
    }

    private static byte[] connectHeader(final RdmaAddrInfo ip)
    {
        final byte[] header = new byte[CONNECT_LENGTH];
        final boolean v4 = ip.family() == AddressFamily.AF_INET;
        header[IP_VERSION_OFFSET] = (byte)((v4 ? 4 : 6) << 4);
        copyAddress(ip.srcAddr(), header, CONNECT_SRC_OFFSET);
        copyAddress(ip.dstAddr(), header, CONNECT_DST_OFFSET);
        return header;
    }

    private static void copyAddress(final RdmaSockaddr address, final byte[] header, final int offset)
    {
        switch (address)
        {
            case Ipv4Sockaddr v4 -> System.arraycopy(v4.addressBytes(), 0, header, offset + 12, 4);
            case Ipv6Sockaddr v6 -> System.arraycopy(v6.address(), 0, header, offset, 16);
            case null, default ->
            {
                // librdmacm would dereference a missing address; we leave the zero bytes
            }
        }
    }
}
