package dev.rdmacm.verbs;

import java.util.List;

/**
 * What one RDMA device looks like, whether read from sysfs or through libibverbs.
 *
 * @param name     the kernel's device name, e.g. {@code mlx5_0} or {@code rxe0}.
 * @param nodeType CA, switch, router, RNIC...
 * @param nodeGuid the node GUID (as a number: the 8 bytes read big-endian).
 * @param ports    the ports, by number.
 */
public record RdmaDevice(String name, NodeType nodeType, long nodeGuid, List<RdmaPort> ports)
{
    public RdmaDevice
    {
        ports = List.copyOf(ports);
    }

    /** The GUID as sysfs {@code node_guid} prints it: {@code 0002:c903:00a1:b2c4}. */
    public static String guidText(final long guid)
    {
        return String.format("%04x:%04x:%04x:%04x",
            (guid >>> 48) & 0xffff, (guid >>> 32) & 0xffff, (guid >>> 16) & 0xffff, guid & 0xffff);
    }
}
