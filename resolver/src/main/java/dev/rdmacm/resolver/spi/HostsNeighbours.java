package dev.rdmacm.resolver.spi;

import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.verbs.GidType;

/**
 * IPoIB without an IP layer: an ibacm hosts file serves as the neighbour table (address to port GID)
 * and the local port stands in for the IPoIB netdev, so that {@code rdma_resolve_addr} and
 * {@code rdma_resolve_route} run on a simulated fabric (ibsim) exactly as on IPoIB, minus ARP.
 *
 * @param hosts     the table.
 * @param localPort the RDMA port the resolver's MADs leave from, with its GID and P_Key.
 */
public record HostsNeighbours(HostsFile hosts, RdmaPortBinding localPort)
{
    /** The P_Key of the default partition, full member, which the IPoIB broadcast address carries by default. */
    public static final int DEFAULT_PKEY = 0xffff;

    /** A port of an InfiniBand fabric known by its GID, e.g. the ibsim node the SA client attached as. */
    public static RdmaPortBinding infinibandPort(final String device, final int port, final Gid gid)
    {
        return new RdmaPortBinding(device, port, 0, gid, GidType.IB, null, PKey.of(DEFAULT_PKEY));
    }
}
