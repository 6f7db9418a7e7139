package dev.rdmacm.resolver;

/**
 * The kernel's {@code enum rdma_network_type} for a resolved address: {@link #IB} for InfiniBand and
 * for directly connected RoCE, {@link #IPV4}/{@link #IPV6} when a RoCE destination is behind a gateway
 * (which makes the path RoCE v2).
 */
public enum NetworkType
{
    IB,
    IPV4,
    IPV6
}
