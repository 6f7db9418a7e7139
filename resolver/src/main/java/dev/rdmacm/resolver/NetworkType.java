package dev.rdmacm.resolver;

/**
 * The kernel's {@code enum rdma_network_type} for a resolved address: {@link #IB} for InfiniBand and
 * for directly connected RoCE, {@link #IPV4}/{@link #IPV6} when a RoCE destination is behind a gateway
 * (which makes the path RoCE v2).
 */
public enum NetworkType
{
    /** {@code RDMA_NETWORK_IB}: InfiniBand, or RoCE to a directly connected destination. */
    IB,
    /** {@code RDMA_NETWORK_IPV4}: RoCE v2 to an IPv4 destination behind a gateway. */
    IPV4,
    /** {@code RDMA_NETWORK_IPV6}: RoCE v2 to an IPv6 destination behind a gateway. */
    IPV6
}
