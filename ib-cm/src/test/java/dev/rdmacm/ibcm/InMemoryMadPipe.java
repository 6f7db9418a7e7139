package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A test double for the MAD transport: engines wired back to back in memory, so that two of our own
 * CMs can talk with no fabric. It stands in for what umad and a real peer cannot do in a unit test:
 * lose exactly the MAD a test names, and deliver in a step the test controls. The real-peer tests
 * (the kernel CM over Soft-RoCE) swap it for the umad transport; the engines see only
 * {@link IbCmMadSender} and {@link IbCmEngine#onMadReceived} either way.
 * <p>
 * Every MAD sent is recorded, with the clock's time and whether it was lost; MADs are queued and
 * delivered by {@link #deliverAll}, never from inside a send, as a real transport delivers later.
 * A MAD to a GID with no engine attached is lost (a silent peer).
 */
final class InMemoryMadPipe
{
    /** One MAD as it was sent. */
    record Sent(Gid from, IbCmPeerAddress to, CmAttribute attribute, byte[] mad, long atNanos, boolean lost)
    {
    }

    private record InFlight(IbCmPeerAddress from, IbCmPeerAddress to, byte[] mad)
    {
    }

    private final dev.rdmacm.loop.NanoClock clock;
    private final Map<Gid, IbCmEngine> engines = new HashMap<>();
    private final ArrayDeque<InFlight> queue = new ArrayDeque<>();
    private final List<Sent> sent = new ArrayList<>();
    private Predicate<Sent> lose = sent -> false;

    InMemoryMadPipe(final dev.rdmacm.loop.NanoClock clock)
    {
        this.clock = clock;
    }

    /** The sender for the engine on the port with {@code gid}; MADs it sends come from that GID's CM. */
    IbCmMadSender senderFor(final Gid gid)
    {
        return (to, mad, offset, length) ->
        {
            final byte[] copy = new byte[length];
            mad.getBytes(offset, copy);
            final CmAttribute attribute = CmAttribute.fromId(new MadHeader().wrap(new UnsafeBuffer(copy), 0, length)
                .attributeId());
            final boolean silentPeer = !engines.containsKey(to.gid());
            final Sent record = new Sent(gid, to, attribute, copy, clock.nanoTime(), false);
            final boolean lost = silentPeer || lose.test(record);
            sent.add(lost ? new Sent(gid, to, attribute, copy, record.atNanos(), true) : record);
            if (!lost)
            {
                queue.add(new InFlight(IbCmPeerAddress.cmAt(gid, to.pkeyIndex()), to, copy));
            }
        };
    }

    void attach(final Gid gid, final IbCmEngine engine)
    {
        engines.put(gid, engine);
    }

    /** From now on, every MAD {@code rule} matches is lost on the way. */
    void lose(final Predicate<Sent> rule)
    {
        this.lose = rule;
    }

    void loseAll(final CmAttribute attribute)
    {
        lose(sent -> sent.attribute() == attribute);
    }

    /** Delivers until nothing is in flight (answers to answers included); returns how many were delivered. */
    int deliverAll()
    {
        int delivered = 0;
        while (!queue.isEmpty())
        {
            final InFlight next = queue.poll();
            final IbCmEngine engine = engines.get(next.to().gid());
            engine.onMadReceived(next.from(), new UnsafeBuffer(next.mad()), 0, next.mad().length);
            delivered++;
        }
        return delivered;
    }

    /** Delivers {@code mad} again, as if {@code from} had sent it once more (a duplicate on the wire). */
    void replay(final Sent mad)
    {
        queue.add(new InFlight(IbCmPeerAddress.cmAt(mad.from(), mad.to().pkeyIndex()), mad.to(), mad.mad()));
    }

    List<Sent> sent()
    {
        return List.copyOf(sent);
    }

    List<Sent> sent(final CmAttribute attribute)
    {
        return sent.stream().filter(s -> s.attribute() == attribute).toList();
    }
}
