package dev.rdmacm.addrinfo;

import java.util.Arrays;
import java.util.Objects;

/**
 * The {@code hints} argument of {@code rdma_getaddrinfo}: the fields librdmacm reads from it. Passing
 * {@code null} hints is not the same as passing {@link #NONE}: like librdmacm, null node, service and
 * hints together are {@code EINVAL}, while {@code NONE} with null node and service is a valid (empty)
 * request.
 *
 * @param route {@code ai_route}: a 64-byte {@code ibv_path_record} or a 72-byte {@code ibv_path_data}
 *              that seeds the ACM query; empty for none.
 */
public record RdmaAddrInfoHints(
    int flags,
    int family,
    int qpType,
    int portSpace,
    RdmaSockaddr srcAddr,
    RdmaSockaddr dstAddr,
    byte[] route)
{
    /** All-zero hints. */
    public static final RdmaAddrInfoHints NONE = new RdmaAddrInfoHints(0, 0, 0, 0, null, null, new byte[0]);

    public RdmaAddrInfoHints
    {
        route = route == null ? new byte[0] : route.clone();
    }

    @Override
    public byte[] route()
    {
        return route.clone();
    }

    int routeLength()
    {
        return route.length;
    }

    public RdmaAddrInfoHints withFlags(final int newFlags)
    {
        return new RdmaAddrInfoHints(newFlags, family, qpType, portSpace, srcAddr, dstAddr, route);
    }

    public RdmaAddrInfoHints withFamily(final int newFamily)
    {
        return new RdmaAddrInfoHints(flags, newFamily, qpType, portSpace, srcAddr, dstAddr, route);
    }

    public RdmaAddrInfoHints withQpType(final int newQpType)
    {
        return new RdmaAddrInfoHints(flags, family, newQpType, portSpace, srcAddr, dstAddr, route);
    }

    public RdmaAddrInfoHints withPortSpace(final int newPortSpace)
    {
        return new RdmaAddrInfoHints(flags, family, qpType, newPortSpace, srcAddr, dstAddr, route);
    }

    public RdmaAddrInfoHints withSrcAddr(final RdmaSockaddr newSrc)
    {
        return new RdmaAddrInfoHints(flags, family, qpType, portSpace, newSrc, dstAddr, route);
    }

    public RdmaAddrInfoHints withDstAddr(final RdmaSockaddr newDst)
    {
        return new RdmaAddrInfoHints(flags, family, qpType, portSpace, srcAddr, newDst, route);
    }

    public RdmaAddrInfoHints withRoute(final byte[] newRoute)
    {
        return new RdmaAddrInfoHints(flags, family, qpType, portSpace, srcAddr, dstAddr, newRoute);
    }

    boolean has(final int flag)
    {
        return (flags & flag) != 0;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof RdmaAddrInfoHints that && flags == that.flags && family == that.family &&
            qpType == that.qpType && portSpace == that.portSpace && Objects.equals(srcAddr, that.srcAddr) &&
            Objects.equals(dstAddr, that.dstAddr) && Arrays.equals(route, that.route);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(flags, family, qpType, portSpace, srcAddr, dstAddr);
    }

    @Override
    public String toString()
    {
        return "RdmaAddrInfoHints[flags=0x" + Integer.toHexString(flags) + ", family=" + family + ", qpType=" + qpType +
            ", portSpace=0x" + Integer.toHexString(portSpace) + ", src=" + (srcAddr == null ? "-" : srcAddr.toText()) +
            ", dst=" + (dstAddr == null ? "-" : dstAddr.toText()) + ", routeLength=" + route.length + "]";
    }
}
