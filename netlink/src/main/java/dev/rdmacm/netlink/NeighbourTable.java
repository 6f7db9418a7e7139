package dev.rdmacm.netlink;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The namespace's ARP and ND entries by (ifindex, address), as the last RTM_NEWNEIGH of each said
 * (proxy entries and other families left out): one writer ({@link NetlinkMirror}), readers that never
 * lock. A {@link Neighbour} is immutable, so a reader sees one notification's entry whole, as the
 * kernel's lookup sees one entry at a time.
 */
public final class NeighbourTable
{
    /**
     * An entry's key, as the kernel's neighbour tables key it: the netdev and the next hop's address. Its equals and
     * hashCode are written out: a record's are a chain of method handles that C1 does not inline, and every
     * resolution looks one up (its equals showed in the caller's resolve addr profile, issue 32).
     */
    record Key(int ifindex, InetAddress address)
    {
        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Key key && key.ifindex == ifindex && key.address.equals(address);
        }

        @Override
        public int hashCode()
        {
            return 31 * ifindex + address.hashCode();
        }
    }

    private final ConcurrentHashMap<Key, Neighbour> entries = new ConcurrentHashMap<>();

    /** The entry of {@code address} on {@code ifindex}, or null when there is none (RTM_GETNEIGH's ENOENT). */
    public Neighbour neighbour(final int ifindex, final InetAddress address)
    {
        return entries.get(new Key(ifindex, address));
    }

    public int size()
    {
        return entries.size();
    }

    void put(final Neighbour neighbour)
    {
        entries.put(new Key(neighbour.ifindex(), neighbour.destination()), neighbour);
    }

    void remove(final Neighbour neighbour)
    {
        entries.remove(new Key(neighbour.ifindex(), neighbour.destination()));
    }

    /** A link went away: its entries with it (the kernel flushes them too). */
    void removeLink(final int ifindex)
    {
        entries.keySet().removeIf(key -> key.ifindex() == ifindex);
    }

    void clear()
    {
        entries.clear();
    }
}
