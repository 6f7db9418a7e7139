package dev.rdmacm.resolver;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.verbs.GidType;

/**
 * Where a resolved address lands on the RDMA side: a device, a port and the index of the matching
 * entry in that port's GID table.
 *
 * @param device   the RDMA device name, e.g. {@code rxe0} or {@code mlx5_0}.
 * @param port     the port number (from 1).
 * @param gidIndex the index of {@code gid} in the port's GID table.
 * @param gid      the GID at that index.
 * @param gidType  the type of that entry.
 * @param netdev   the network device the entry is bound to (RoCE), or null (InfiniBand).
 * @param pkey     the P_Key at P_Key index 0 of the port (used for loopback resolution).
 */
public record RdmaPortBinding(String device, int port, int gidIndex, Gid gid, GidType gidType, String netdev, PKey pkey)
{
    @Override
    public String toString()
    {
        return device + " port " + port + " gid index " + gidIndex + " " + gid + " (" + gidType.text() +
            (netdev == null ? "" : ", " + netdev) + ")";
    }
}
