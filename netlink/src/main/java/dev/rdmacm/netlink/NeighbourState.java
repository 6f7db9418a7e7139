package dev.rdmacm.netlink;

import java.util.StringJoiner;

/** The NUD_* state bits of a neighbour entry named as {@code ip -j neigh} names them. */
public final class NeighbourState
{
    private static final int[] BITS = {
        NeighbourMessage.NUD_INCOMPLETE, NeighbourMessage.NUD_REACHABLE, NeighbourMessage.NUD_STALE,
        NeighbourMessage.NUD_DELAY, NeighbourMessage.NUD_PROBE, NeighbourMessage.NUD_FAILED,
        NeighbourMessage.NUD_NOARP, NeighbourMessage.NUD_PERMANENT};
    private static final String[] NAMES = {
        "INCOMPLETE", "REACHABLE", "STALE", "DELAY", "PROBE", "FAILED", "NOARP", "PERMANENT"};

    private NeighbourState()
    {
    }

    public static String names(final int state)
    {
        if (state == NeighbourMessage.NUD_NONE)
        {
            return "NONE";
        }
        final StringJoiner joined = new StringJoiner(",");
        for (int i = 0; i < BITS.length; i++)
        {
            if ((state & BITS[i]) != 0)
            {
                joined.add(NAMES[i]);
            }
        }
        return joined.toString();
    }
}
