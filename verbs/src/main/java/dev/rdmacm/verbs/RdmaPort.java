package dev.rdmacm.verbs;

import java.util.List;

/**
 * What one port of an RDMA device looks like, whether read from sysfs or through libibverbs.
 *
 * @param number    the port number, from 1.
 * @param state     the logical state.
 * @param physState the physical state.
 * @param linkLayer InfiniBand or Ethernet (RoCE).
 * @param lid       the base LID (0 on Ethernet or before the SM assigned one).
 * @param lmc       the LID mask count.
 * @param smLid     the LID of the subnet manager.
 * @param smSl      the service level to reach the subnet manager.
 * @param rate      the kernel's rate text, e.g. {@code 100 Gb/sec (4X EDR)}.
 * @param gids      the valid GID table entries, by index.
 * @param pkeys     the non-zero P_Key table entries, by index.
 */
public record RdmaPort(
    int number,
    PortState state,
    PhysicalPortState physState,
    LinkLayer linkLayer,
    int lid,
    int lmc,
    int smLid,
    int smSl,
    String rate,
    List<GidEntry> gids,
    List<PkeyEntry> pkeys)
{
    public RdmaPort
    {
        gids = List.copyOf(gids);
        pkeys = List.copyOf(pkeys);
    }
}
