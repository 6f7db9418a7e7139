package dev.rdmacm.resolver.engine;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.sa.path.PathQuery;

/**
 * The one SA PathRecord Get the kernel sends for {@code rdma_resolve_route} on an InfiniBand port
 * ({@code cma_query_ib_route} in drivers/infiniband/core/cma.c): SGID, DGID, P_Key, NumbPath 1,
 * Reversible 1 and the Service ID, plus the QoS class from the id's ToS for IPv4, or the traffic
 * class from the source's flow information for IPv6 and AF_IB. The component masks are therefore
 * {@code 0x780F} (IPv4) and {@code 0x3C0F} (IPv6, AF_IB); DLID, SLID, flow label, hop limit, SL,
 * MTU, rate and packet lifetime are left to the SA.
 */
final class IbRouteQuery
{
    /** {@code sin6_flowinfo} / {@code sib_flowinfo} (host order) holds the traffic class in bits 20-27. */
    public static final int FLOWINFO_TCLASS_SHIFT = 20;
    public static final int TCLASS_MASK = 0xff;
    /** {@code path_rec.numb_path = 1}: the kernel asks for one path. */
    public static final int NUMB_PATH = 1;

    private IbRouteQuery()
    {
    }

    /** IPv4: the QoS class is the id's ToS ({@code rdma_set_service_type}, 0 by default). */
    public static PathQuery ipv4(final Gid sgid, final Gid dgid, final int pKey, final long serviceId, final int tos)
    {
        if (tos < 0 || tos > 0xff)
        {
            throw new IllegalArgumentException("ToS " + tos + " out of range 0..255");
        }
        return PathQuery.builder().sgid(sgid).dgid(dgid).pKey(pKey).serviceId(serviceId).qosClass(tos)
            .numbPath(NUMB_PATH).reversible(true).build();
    }

    /** IPv6: the traffic class is {@code (u8)(be32_to_cpu(src.sin6_flowinfo) >> 20)}. */
    public static PathQuery ipv6(
        final Gid sgid, final Gid dgid, final int pKey, final long serviceId, final int sourceFlowinfo)
    {
        return PathQuery.builder().sgid(sgid).dgid(dgid).pKey(pKey).serviceId(serviceId)
            .tClass(trafficClass(sourceFlowinfo)).numbPath(NUMB_PATH).reversible(true).build();
    }

    /** AF_IB: the traffic class is {@code (u8)(be32_to_cpu(src.sib_flowinfo) >> 20)}, the Service ID the destination's {@code sib_sid}. */
    public static PathQuery ib(final Gid sgid, final Gid dgid, final int pKey, final long sid, final int sourceFlowinfo)
    {
        return ipv6(sgid, dgid, pKey, sid, sourceFlowinfo);
    }

    /** {@code rdma_get_service_id} for an IP address: {@code (ps << 16) + port}. */
    public static long ipServiceId(final PortSpace portSpace, final int destinationPort)
    {
        return portSpace.serviceId(destinationPort);
    }

    /** The (u8) cast of {@code flowinfo >> 20}. */
    public static int trafficClass(final int flowinfo)
    {
        return (flowinfo >>> FLOWINFO_TCLASS_SHIFT) & TCLASS_MASK;
    }
}
