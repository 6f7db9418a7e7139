package dev.rdmacm.netlink;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import org.agrona.DirectBuffer;

import java.io.IOException;
import java.net.InetAddress;

import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.NLM_F_DUMP_INTR;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_DELADDR;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_DELLINK;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_DELNEIGH;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_GETADDR;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_GETLINK;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_GETNEIGH;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_NEWADDR;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_NEWLINK;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.RTM_NEWNEIGH;

/**
 * The links, addresses and neighbours of one network namespace, mirrored from rtnetlink: filled by a
 * dump of each table on the socket that receives the RTNLGRP_LINK, RTNLGRP_NEIGH and IFADDR groups'
 * notifications, then kept by those notifications. The dump and the notifications share the socket,
 * so the kernel queues them in the order they happened: each answer is applied before the
 * notifications queued behind it, and a notification read in the middle of a dump is applied where it
 * came. A dump the kernel marks inconsistent ({@code NLM_F_DUMP_INTR}) is done again; lost
 * notifications (ENOBUFS) make the owner {@link #synchronise} again.
 * <p>
 * One thread owns it (the one reading the socket); any thread reads it without a lock: the tables are
 * concurrent maps of immutable records, and {@link #generation()} tells a reader whether the tables
 * were whole while it read them (even: live; odd: empty or being filled).
 * <p>
 * Whole is not current: a change the kernel made before a reader started ({@code ip link set mtu}
 * returned) can still wait in the socket, or in the owner's hands between reading it and applying
 * it. A reader that must see what the kernel would see reads under {@link #readStamp}, which is stale
 * while the socket holds a notification, and the owner keeps the generation odd while it reads them
 * ({@link #notificationsReading}). One stamp serves every read of one lookup (the resolver's attempt
 * takes it once, before its first read): what the kernel changed before the stamp is in the tables or
 * makes the stamp stale, and a change applied since fails {@link #stillCurrent}, so each read holds the
 * tables as they were at the stamp. Readers outside this package read only through {@link #link(int, long)},
 * {@link #validNeighbour} and {@link #address}, which make that check with the read: no reader can leave
 * it out (the tables themselves are this package's).
 */
public final class NetlinkMirror
{
    /** The owner's view of the mirror's life. */
    public enum State
    {
        /** Never filled, or emptied after lost notifications: readers ask the kernel. */
        EMPTY,
        /** Its dumps are running. */
        SYNCHRONISING,
        /** Filled and kept by the notifications. */
        LIVE
    }

    /** A {@link #readStamp} under which nothing read is current. */
    public static final long STALE = -1;

    private static final int AF_UNSPEC = 0;
    /** Dumps the kernel interrupted this many times in a row leave the mirror EMPTY; the owner asks the kernel. */
    private static final int DUMP_ATTEMPTS = 4;

    private final LinkTable links = new LinkTable();
    private final AddressTable addresses = new AddressTable();
    private final NeighbourTable neighbours = new NeighbourTable();
    private final NetlinkSocket events;
    private final Rtnetlink decoder;
    private final NetlinkMessageHandler applyAnswer = this::applyAnswer;
    private State state = State.EMPTY;
    private boolean interrupted;
    /** Even while LIVE; bumped to odd when the tables stop being whole, and to even when they are again. */
    private volatile long generation = 1;

    /** @param events the socket in the groups; its dumps and decoding are the mirror's owner's, on its thread. */
    public NetlinkMirror(final NetlinkSocket events)
    {
        this.events = events;
        this.decoder = new Rtnetlink(events);
    }

    public State state()
    {
        return state;
    }

    /** Any thread: even while the tables are whole. Read it before and after reading them. */
    public long generation()
    {
        return generation;
    }

    /** Any thread: whether tables read between two reads of {@link #generation()} were whole throughout. */
    public static boolean wasLive(final long before, final long after)
    {
        return before == after && (before & 1) == 0;
    }

    /**
     * Any thread, before it reads the tables: the stamp to check them against with {@link #stillCurrent},
     * or {@link #STALE} when they are not whole or the socket holds a notification they lack yet, asked
     * with a poll on {@code asking}'s own memory (the reader's client, never the owner's). A poll that
     * fails is stale too: the kernel, asked instead, gives the real answer or the real error.
     */
    public long readStamp(final Rtnetlink asking)
    {
        final long stamp = generation;
        if ((stamp & 1) != 0)
        {
            return STALE;
        }
        try
        {
            return asking.socket().hasQueued(events.fd()) ? STALE : stamp;
        }
        catch (final NativeCallException ex)
        {
            return STALE;
        }
    }

    /** Any thread: whether what it read since {@link #readStamp} gave {@code stamp} is what the kernel holds. */
    public boolean stillCurrent(final long stamp)
    {
        return stamp != STALE && stamp == generation;
    }

    /**
     * Any thread: the link of {@code ifindex} as the tables held it at {@code stamp} ({@link #readStamp}), or null
     * when they lack it or the owner has applied anything since: the caller then asks the kernel.
     */
    public Link link(final int ifindex, final long stamp)
    {
        if (stamp == STALE)
        {
            return null;
        }
        final Link link = links.link(ifindex);
        return link != null && stillCurrent(stamp) ? link : null;
    }

    /**
     * Any thread: the neighbour entry of {@code address} on {@code ifindex} if it is valid and the tables held it at
     * {@code stamp}, else null, as {@link #link(int, long)}. A not-valid entry is left to the kernel, which makes
     * some entries without a notification (NOARP ones of multicast groups).
     */
    public Neighbour validNeighbour(final int ifindex, final InetAddress address, final long stamp)
    {
        if (stamp == STALE)
        {
            return null;
        }
        final Neighbour neighbour = neighbours.neighbour(ifindex, address);
        return neighbour != null && neighbour.isValid() && stillCurrent(stamp) ? neighbour : null;
    }

    /** Any thread: the local address {@code address} (on {@code ifindex} if not 0) at {@code stamp}, else null, as {@link #link(int, long)}. */
    public InterfaceAddress address(final InetAddress address, final int ifindex, final long stamp)
    {
        if (stamp == STALE)
        {
            return null;
        }
        final InterfaceAddress found = addresses.find(address, ifindex);
        return found != null && stillCurrent(stamp) ? found : null;
    }

    /**
     * The owner, before it reads notifications off the socket: until {@link #notificationsRead}, a
     * notification it took is in neither the socket nor the tables, so readers ask the kernel.
     */
    public void notificationsReading()
    {
        if (state == State.LIVE)
        {
            generation++;
        }
    }

    /** The owner, once the notifications it read are applied. */
    public void notificationsRead()
    {
        if (state == State.LIVE)
        {
            generation++;
        }
    }

    LinkTable links()
    {
        return links;
    }

    AddressTable addresses()
    {
        return addresses;
    }

    NeighbourTable neighbours()
    {
        return neighbours;
    }

    /**
     * The owner: fills the tables with one dump each (links, IPv4 and IPv6 addresses, neighbours) on the
     * events socket; the notifications read meanwhile go to {@code notifications}, which must
     * {@link #apply} them, in order. Returns true when the tables are live; false when the kernel kept
     * interrupting the dumps, and the mirror stays EMPTY.
     *
     * @throws NativeCallException with ENOBUFS ({@link #lostNotifications}) when notifications were lost
     *                             meanwhile: the mirror stays EMPTY, and the owner synchronises again.
     */
    public boolean synchronise(final NetlinkMessageHandler notifications) throws IOException
    {
        if (state == State.LIVE)
        {
            generation++;
        }
        state = State.SYNCHRONISING;
        try
        {
            for (int attempt = 0; attempt < DUMP_ATTEMPTS; attempt++)
            {
                links.clear();
                addresses.clear();
                neighbours.clear();
                interrupted = false;
                decoder.dump(RTM_GETLINK, AF_UNSPEC, applyAnswer, notifications);
                decoder.dump(RTM_GETADDR, Libc.AF_INET, applyAnswer, notifications);
                decoder.dump(RTM_GETADDR, Libc.AF_INET6, applyAnswer, notifications);
                decoder.dump(RTM_GETNEIGH, AF_UNSPEC, applyAnswer, notifications);
                if (!interrupted)
                {
                    state = State.LIVE;
                    generation++;
                    return true;
                }
            }
            state = State.EMPTY;
            return false;
        }
        catch (final IOException | RuntimeException ex)
        {
            // NativeCallException ENOBUFS (lostNotifications) among them
            state = State.EMPTY;
            throw ex;
        }
    }

    /** The owner: notifications were lost (ENOBUFS); readers ask the kernel until {@link #synchronise}. */
    public void invalidate()
    {
        if (state == State.LIVE)
        {
            generation++;
        }
        state = State.EMPTY;
    }

    /**
     * The owner, for each notification its socket delivers (those a dump reads meanwhile included):
     * updates the tables with RTM_NEWLINK, RTM_DELLINK, RTM_NEWADDR, RTM_DELADDR, RTM_NEWNEIGH and
     * RTM_DELNEIGH; ignores the rest, and everything while EMPTY.
     */
    public void apply(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        if (state != State.EMPTY)
        {
            update(header, buffer, end);
        }
    }

    private void applyAnswer(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        if ((header.flags() & NLM_F_DUMP_INTR) != 0)
        {
            interrupted = true;
        }
        update(header, buffer, end);
    }

    private void update(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        switch (header.type())
        {
            case RTM_NEWLINK, RTM_DELLINK ->
            {
                // AF_BRIDGE notifications describe a bridge port, not the link: only AF_UNSPEC ones are whole
                if (buffer.getByte(header.bodyOffset() + MessageBody.FAMILY_OFFSET) != AF_UNSPEC)
                {
                    return;
                }
                final Link link = decoder.decodeLink(header, buffer, end);
                if (header.type() == RTM_NEWLINK)
                {
                    links.put(link);
                }
                else
                {
                    links.remove(link.ifindex());
                    addresses.removeLink(link.ifindex());
                    neighbours.removeLink(link.ifindex());
                }
            }
            case RTM_NEWADDR, RTM_DELADDR ->
            {
                final InterfaceAddress address = decoder.decodeAddress(header, buffer, end);
                if (address == null)
                {
                    return;
                }
                if (header.type() == RTM_NEWADDR)
                {
                    addresses.put(address);
                }
                else
                {
                    addresses.remove(address);
                }
            }
            case RTM_NEWNEIGH, RTM_DELNEIGH ->
            {
                final int family = buffer.getByte(header.bodyOffset() + MessageBody.FAMILY_OFFSET);
                if (family != Libc.AF_INET && family != Libc.AF_INET6)
                {
                    return;
                }
                final Neighbour neighbour = decoder.decodeNeighbour(header, buffer, end);
                if ((neighbour.flags() & NeighbourMessage.NTF_PROXY) != 0 || neighbour.destination() == null)
                {
                    return;
                }
                if (header.type() == RTM_NEWNEIGH)
                {
                    neighbours.put(neighbour);
                }
                else
                {
                    neighbours.remove(neighbour);
                }
            }
            default ->
            {
            }
        }
    }

    /** Whether {@code ex} says the kernel dropped notifications (ENOBUFS). */
    public static boolean lostNotifications(final Exception ex)
    {
        return ex instanceof NativeCallException call && call.errno() == Errno.ENOBUFS;
    }
}
