package dev.rdmacm.resolver.engine;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.resolver.spi.KernelProfile;

/**
 * What one {@code rdma_resolve_route} asks of the resolver: the fields the kernel reads from the id
 * when it builds the SA query ({@code cma_query_ib_route}) or the RoCE path
 * ({@code cma_resolve_iboe_route}), fixed when the call is made.
 *
 * @param resolution      what {@code rdma_resolve_addr} found.
 * @param portSpace       the id's port space.
 * @param sourcePort      the bound source port.
 * @param destinationPort the destination port.
 * @param sourceFlowinfo  an IPv6 source's flow label, else 0.
 * @param tos             {@code rdma_set_service_type}, or null when never set.
 * @param ackTimeout      {@code rdma_set_ack_timeout}, or null when never set.
 * @param timeoutMs       the call's timeout in milliseconds.
 * @param ibSource        an AF_IB id's source ({@code sib_sid}, {@code sib_flowinfo} go into the query), else null.
 * @param ibDestination   an AF_IB id's destination, else null.
 * @param kernelProfile   the kernel whose rules the RoCE path follows.
 * @param trace           where each step of the resolution is recorded.
 */
public record RouteQuery(
    AddressResolution resolution, PortSpace portSpace, int sourcePort, int destinationPort, int sourceFlowinfo,
    Integer tos, Integer ackTimeout, int timeoutMs, IbSockaddr ibSource, IbSockaddr ibDestination,
    KernelProfile kernelProfile, ResolutionTrace trace)
{
}
