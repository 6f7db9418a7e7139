/**
 * What the resolver reads and can be given instead: the RDMA devices' GID tables
 * ({@link dev.rdmacm.resolver.spi.GidDirectory}: this machine's through libibverbs or sysfs, or a fixed
 * table), an ibacm hosts file standing in for the IP stack ({@link dev.rdmacm.resolver.spi.HostsNeighbours}),
 * and the kernel whose rules apply where kernels differ ({@link dev.rdmacm.resolver.spi.KernelProfile}).
 * The SA that InfiniBand routes are asked of is sa-client's {@code SaClient}, over its own transports
 * ({@code dev.rdmacm.sa.transport}).
 */
package dev.rdmacm.resolver.spi;
