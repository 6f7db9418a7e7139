package dev.rdmacm.netlink;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The namespace's own IPv4 and IPv6 addresses, as RTM_NEWADDR and RTM_DELADDR left them: one writer
 * ({@link NetlinkMirror}), readers that never lock.
 */
public final class AddressTable
{
    /** How the kernel tells one address from another: its netdev, the address and its prefix. */
    private record Key(int ifindex, InetAddress address, int prefixLength)
    {
    }

    private final ConcurrentHashMap<Key, InterfaceAddress> entries = new ConcurrentHashMap<>();

    /**
     * The address equal to {@code address}, on {@code ifindex} if that is not 0, else on the lowest
     * ifindex that has it (the order of an RTM_GETADDR dump); null if none.
     */
    public InterfaceAddress find(final InetAddress address, final int ifindex)
    {
        InterfaceAddress found = null;
        for (final InterfaceAddress candidate : entries.values())
        {
            if (candidate.address().equals(address) && (ifindex == 0 || candidate.ifindex() == ifindex) &&
                (found == null || candidate.ifindex() < found.ifindex()))
            {
                found = candidate;
            }
        }
        return found;
    }

    public int size()
    {
        return entries.size();
    }

    void put(final InterfaceAddress address)
    {
        entries.put(key(address), address);
    }

    void remove(final InterfaceAddress address)
    {
        entries.remove(key(address));
    }

    void removeLink(final int ifindex)
    {
        entries.keySet().removeIf(key -> key.ifindex() == ifindex);
    }

    void clear()
    {
        entries.clear();
    }

    private static Key key(final InterfaceAddress address)
    {
        return new Key(address.ifindex(), address.address(), address.prefixLength());
    }
}
