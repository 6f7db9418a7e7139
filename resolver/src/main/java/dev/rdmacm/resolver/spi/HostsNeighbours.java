package dev.rdmacm.resolver.spi;

import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.verbs.GidType;

import java.io.IOException;
import java.nio.file.Path;

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

    /**
     * {@code hosts} as the neighbour table of the port {@code sa} is attached to (port 1 of that node, its
     * GID, the default partition): what {@code rdmacm resolve-addr --fabric F --hosts FILE} hands the CM, for
     * {@code RdmaCm.Options.Builder#hostsNeighbours} beside {@code sa(sa)}.
     *
     * @param hosts the hosts file's entries.
     * @param sa    the SA client whose local port the entries are the neighbours of.
     * @return the neighbour table.
     */
    public static HostsNeighbours onPortOf(final HostsFile hosts, final SaClient sa)
    {
        return new HostsNeighbours(hosts, infinibandPort(sa.localPort().name(), 1, sa.localPort().gid()));
    }

    /**
     * The ibacm hosts file at {@code file} ({@code ibacm_hosts.data}: an address and its GID per line) as
     * {@link #onPortOf} takes it.
     *
     * @param file the hosts file.
     * @param sa   the SA client whose local port the entries are the neighbours of.
     * @return the neighbour table.
     * @throws IOException when the file cannot be read; a malformed line is an IllegalArgumentException naming it.
     */
    public static HostsNeighbours read(final Path file, final SaClient sa) throws IOException
    {
        return onPortOf(HostsFile.read(file), sa);
    }

    /**
     * A port of an InfiniBand fabric known by its GID, e.g. the ibsim node the SA client attached as.
     *
     * @param device the device's (or simulated node's) name.
     * @param port   the port number.
     * @param gid    the port's GID, at index 0 in the default partition.
     * @return the port's binding.
     */
    public static RdmaPortBinding infinibandPort(final String device, final int port, final Gid gid)
    {
        return new RdmaPortBinding(device, port, 0, gid, GidType.IB, null, PKey.of(DEFAULT_PKEY));
    }
}
