package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.path.IbvPathData;

import java.util.Arrays;
import java.util.Objects;

/**
 * One entry of an {@code rdma_getaddrinfo} result: {@code struct rdma_addrinfo} without {@code ai_next}
 * (the list is a Java list). The address lengths are the addresses' own lengths.
 *
 * @param flags         {@code ai_flags}: {@link RaiFlags#PASSIVE} for a passive result, 0 for an active one.
 * @param family        {@code ai_family}, an {@link AddressFamily} value.
 * @param qpType        {@code ai_qp_type}, a {@link QpType} value or 0.
 * @param portSpace     {@code ai_port_space}, a {@code rdma_port_space} value or 0.
 * @param srcAddr       {@code ai_src_addr}, null when absent.
 * @param dstAddr       {@code ai_dst_addr}, null when absent.
 * @param srcCanonName  {@code ai_src_canonname}, null when absent.
 * @param dstCanonName  {@code ai_dst_canonname}, null when absent.
 * @param route         {@code ai_route}: consecutive 72-byte {@code struct ibv_path_data}, empty when none.
 * @param connect       {@code ai_connect}: the 36-byte CM private-data header of an AF_IB entry, empty when none.
 */
public record RdmaAddrInfo(
    int flags,
    int family,
    int qpType,
    int portSpace,
    RdmaSockaddr srcAddr,
    RdmaSockaddr dstAddr,
    String srcCanonName,
    String dstCanonName,
    byte[] route,
    byte[] connect)
{
    public RdmaAddrInfo
    {
        route = route == null ? new byte[0] : route.clone();
        connect = connect == null ? new byte[0] : connect.clone();
    }

    @Override
    public byte[] route()
    {
        return route.clone();
    }

    @Override
    public byte[] connect()
    {
        return connect.clone();
    }

    /** The route as its {@code ibv_path_data} records, 72 bytes each. */
    public byte[][] pathData()
    {
        final byte[][] records = new byte[route.length / IbvPathData.LENGTH][];
        for (int i = 0; i < records.length; i++)
        {
            records[i] = Arrays.copyOfRange(route, i * IbvPathData.LENGTH, (i + 1) * IbvPathData.LENGTH);
        }
        return records;
    }

    RdmaAddrInfo withSrcAddr(final RdmaSockaddr newSrc)
    {
        return new RdmaAddrInfo(flags, family, qpType, portSpace, newSrc, dstAddr, srcCanonName, dstCanonName, route, connect);
    }

    RdmaAddrInfo withRoute(final byte[] newRoute)
    {
        return new RdmaAddrInfo(flags, family, qpType, portSpace, srcAddr, dstAddr, srcCanonName, dstCanonName, newRoute, connect);
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof RdmaAddrInfo that && flags == that.flags && family == that.family &&
            qpType == that.qpType && portSpace == that.portSpace &&
            Objects.equals(srcAddr, that.srcAddr) && Objects.equals(dstAddr, that.dstAddr) &&
            Objects.equals(srcCanonName, that.srcCanonName) &&
            Objects.equals(dstCanonName, that.dstCanonName) &&
            Arrays.equals(route, that.route) && Arrays.equals(connect, that.connect);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(flags, family, qpType, portSpace, srcAddr, dstAddr) * 31 + Arrays.hashCode(route);
    }

    @Override
    public String toString()
    {
        return "RdmaAddrInfo[flags=0x" + Integer.toHexString(flags) + ", family=" + family + ", qpType=" + qpType +
            ", portSpace=0x" + Integer.toHexString(portSpace) + ", src=" + (srcAddr == null ? "-" : srcAddr.toText()) +
            ", dst=" + (dstAddr == null ? "-" : dstAddr.toText()) + ", routeLength=" + route.length +
            ", connectLength=" + connect.length + "]";
    }
}
