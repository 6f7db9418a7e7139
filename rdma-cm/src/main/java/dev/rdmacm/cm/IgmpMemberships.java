package dev.rdmacm.cm;

import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.util.HashMap;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The IPv4 multicast memberships RoCE joins hold on their netdevs, as {@code cma_igmp_send} takes them
 * with {@code ip_mc_inc_group}: the host's IGMP then reports the group and {@code ip maddr} shows its
 * 01:00:5e address, which rxe needs to receive the group's frames. From user space a membership is an
 * {@code IP_ADD_MEMBERSHIP} on a datagram socket, opened on the conductor's thread and so in the
 * {@link RdmaCm}'s network namespace; joins of one group on one netdev share it, counted as the
 * kernel counts the group's users, and the last leave drops it. Conductor thread only.
 */
final class IgmpMemberships implements AutoCloseable
{
    /** {@code IPPROTO_IP} and the options of {@code <netinet/in.h>}. */
    static final int IPPROTO_IP = 0;
    static final int IP_ADD_MEMBERSHIP = 35;
    static final int IP_DROP_MEMBERSHIP = 36;
    /** {@code struct ip_mreqn}: imr_multiaddr @0, imr_address @4, imr_ifindex @8. */
    static final int IP_MREQN_SIZE = 12;
    private static final int IMR_IFINDEX_OFFSET = 8;

    private record Key(int ifindex, Inet4Address group)
    {
    }

    private static final class Membership
    {
        final int fd;
        int users;

        Membership(final int fd)
        {
            this.fd = fd;
        }
    }

    private final Arena arena = Arena.ofShared();
    private final Libc.CallState callState = new Libc.CallState(arena);
    private final Map<Key, Membership> memberships = new HashMap<>();

    /**
     * Joins {@code group} on {@code ifindex}, or counts one more user of the membership there is.
     *
     * @throws NativeCallException with the kernel's errno (ENODEV for a netdev without IPv4).
     */
    void join(final int ifindex, final Inet4Address group) throws NativeCallException
    {
        final Key key = new Key(ifindex, group);
        final Membership held = memberships.get(key);
        if (held != null)
        {
            held.users++;
            return;
        }
        final int fd = Libc.socket(callState, Libc.AF_INET, Libc.SOCK_DGRAM | Libc.SOCK_CLOEXEC, 0);
        try
        {
            membership(fd, IP_ADD_MEMBERSHIP, "IP_ADD_MEMBERSHIP " + group.getHostAddress() + " ifindex " + ifindex,
                ifindex, group);
        }
        catch (final NativeCallException ex)
        {
            Libc.close(callState, fd);
            throw ex;
        }
        final Membership joined = new Membership(fd);
        joined.users = 1;
        memberships.put(key, joined);
    }

    /** One user fewer; the last one's leave drops the membership (IGMP reports the leave). */
    void leave(final int ifindex, final Inet4Address group)
    {
        final Key key = new Key(ifindex, group);
        final Membership held = memberships.get(key);
        if (held == null || --held.users > 0)
        {
            return;
        }
        memberships.remove(key);
        try
        {
            membership(held.fd, IP_DROP_MEMBERSHIP, "IP_DROP_MEMBERSHIP " + group.getHostAddress(), ifindex, group);
        }
        catch (final NativeCallException ignored)
        {
            // closing the socket below drops it anyway
        }
        finally
        {
            closeQuietly(held.fd);
        }
    }

    private void membership(final int fd, final int option, final String name, final int ifindex, final Inet4Address group)
        throws NativeCallException
    {
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment mreqn = call.allocate(IP_MREQN_SIZE);
            mreqn.asSlice(0, 4).copyFrom(MemorySegment.ofArray(group.getAddress()));
            mreqn.set(JAVA_INT, IMR_IFINDEX_OFFSET, ifindex);
            Libc.setsockopt(callState, fd, IPPROTO_IP, option, name, mreqn, IP_MREQN_SIZE);
        }
    }

    private void closeQuietly(final int fd)
    {
        try
        {
            Libc.close(callState, fd);
        }
        catch (final NativeCallException ignored)
        {
            // nothing to do about a close that fails
        }
    }

    /** Drops every membership (closing a socket leaves its groups). */
    @Override
    public void close()
    {
        memberships.values().forEach(held -> closeQuietly(held.fd));
        memberships.clear();
        arena.close();
    }
}
