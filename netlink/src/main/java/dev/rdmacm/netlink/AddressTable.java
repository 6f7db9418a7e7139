package dev.rdmacm.netlink;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

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
     * The same entries by address, each list replaced whole by the writer: every resolution looks its
     * source up here, and walking every address of the namespace was 10% of resolve addr's samples in
     * the kernel guest's cmtime (issue 32: 13 rxe netdevs, their VLANs and addresses).
     */
    private final ConcurrentHashMap<InetAddress, List<InterfaceAddress>> byAddress = new ConcurrentHashMap<>();

    /**
     * The address equal to {@code address}, on {@code ifindex} if that is not 0, else on the lowest
     * ifindex that has it (the order of an RTM_GETADDR dump); null if none.
     */
    public InterfaceAddress find(final InetAddress address, final int ifindex)
    {
        final List<InterfaceAddress> same = byAddress.get(address);
        if (same == null)
        {
            return null;
        }
        InterfaceAddress found = null;
        for (final InterfaceAddress candidate : same)
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
        final Key key = key(address);
        entries.put(key, address);
        byAddress.compute(address.address(), (ignored, same) ->
        {
            final List<InterfaceAddress> next = new ArrayList<>(same == null ? 1 : same.size() + 1);
            if (same != null)
            {
                same.stream().filter(other -> !key(other).equals(key)).forEach(next::add);
            }
            next.add(address);
            return List.copyOf(next);
        });
    }

    void remove(final InterfaceAddress address)
    {
        final Key key = key(address);
        entries.remove(key);
        byAddress.computeIfPresent(address.address(), (ignored, same) -> without(same, other -> key(other).equals(key)));
    }

    void removeLink(final int ifindex)
    {
        entries.keySet().removeIf(key -> key.ifindex() == ifindex);
        for (final InetAddress address : byAddress.keySet())
        {
            byAddress.computeIfPresent(address, (ignored, same) -> without(same, other -> other.ifindex() == ifindex));
        }
    }

    void clear()
    {
        entries.clear();
        byAddress.clear();
    }

    /** {@code same} without the entries {@code gone} picks; null (no mapping) when none is left. */
    private static List<InterfaceAddress> without(final List<InterfaceAddress> same, final Predicate<InterfaceAddress> gone)
    {
        final List<InterfaceAddress> left = same.stream().filter(gone.negate()).toList();
        return left.isEmpty() ? null : left;
    }

    private static Key key(final InterfaceAddress address)
    {
        return new Key(address.ifindex(), address.address(), address.prefixLength());
    }
}
