package dev.rdmacm.verbs;

/**
 * Where a GID lives: the device, the port and the GID table entry (whose index is what an address
 * handle or a path names as the source GID index).
 */
public record GidBinding(RdmaDevice device, RdmaPort port, GidEntry entry)
{
    @Override
    public String toString()
    {
        return device.name() + " port " + port.number() + " gid " + entry.index() + " " + entry.gid() + " "
            + entry.type().text() + entry.netdev().map(n -> " " + n).orElse("");
    }
}
