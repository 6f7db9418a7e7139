package dev.rdmacm.netlink;

import java.net.InetAddress;

/**
 * One neighbour-table entry as RTM_GETNEIGH / RTM_NEWNEIGH report it.
 *
 * @param ifindex          the interface it is on.
 * @param destination      NDA_DST.
 * @param linkLayerAddress NDA_LLADDR, empty while unresolved.
 * @param state            NUD_* bits.
 * @param flags            NTF_* bits.
 */
public record Neighbour(int ifindex, InetAddress destination, byte[] linkLayerAddress, int state, int flags)
{
    /** The kernel's NUD_VALID test: the link-layer address may be used. */
    public boolean isValid()
    {
        return (state & NeighbourMessage.NUD_VALID) != 0;
    }

    public boolean isFailed()
    {
        return (state & NeighbourMessage.NUD_FAILED) != 0;
    }

    public String linkLayerText()
    {
        return HardwareAddress.format(linkLayerAddress);
    }

    /** The state names {@code ip neigh} prints, e.g. {@code REACHABLE} or {@code STALE}. */
    public String stateText()
    {
        return NeighbourState.names(state);
    }
}
