package dev.rdmacm.verbs;

import dev.rdmacm.protocol.Gid;

import java.util.Objects;
import java.util.Optional;

/**
 * One valid entry of a port's GID table: its index (what an address handle's {@code sgid_index}
 * names), the GID, its type and, for RoCE, the network device the GID was derived from.
 *
 * @param index  the GID index within the port's table.
 * @param gid    the GID.
 * @param type   IB, RoCE v1 or RoCE v2.
 * @param netdev the netdev name for RoCE GIDs, empty for InfiniBand GIDs.
 */
public record GidEntry(int index, Gid gid, GidType type, Optional<String> netdev)
{
    public GidEntry
    {
        Objects.requireNonNull(gid, "gid");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(netdev, "netdev");
        if (index < 0)
        {
            throw new IllegalArgumentException("GID index " + index + " is negative");
        }
    }

    /** Whether this entry is bound to {@code name}. */
    public boolean isOn(final String name)
    {
        return netdev.isPresent() && netdev.get().equals(name);
    }
}
