package dev.rdmacm.netlink;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The namespace's links by ifindex, as the last RTM_NEWLINK of each said: one writer (the thread that
 * reads the notifications, {@link NetlinkMirror}), any number of readers, which never lock
 * ({@link ConcurrentHashMap#get} does not). A {@link Link} is immutable, so a reader sees one
 * notification's link whole.
 */
public final class LinkTable
{
    private final ConcurrentHashMap<Integer, Link> byIfindex = new ConcurrentHashMap<>();

    /** The link of {@code ifindex}, or null when there is none (RTM_GETLINK's ENODEV). */
    public Link link(final int ifindex)
    {
        return byIfindex.get(ifindex);
    }

    public int size()
    {
        return byIfindex.size();
    }

    void put(final Link link)
    {
        byIfindex.put(link.ifindex(), link);
    }

    void remove(final int ifindex)
    {
        byIfindex.remove(ifindex);
    }

    void clear()
    {
        byIfindex.clear();
    }
}
