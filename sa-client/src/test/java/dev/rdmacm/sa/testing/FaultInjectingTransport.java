package dev.rdmacm.sa.testing;

import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.sa.transport.MadReceiver;
import dev.rdmacm.sa.transport.MadSource;
import dev.rdmacm.sa.transport.MadTransport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;

/**
 * A test double for what a real peer will not do on demand: it wraps a real transport (ibsim) or a
 * {@link ScriptedSa} and, with a seeded {@link Random}, drops, duplicates, reorders, delays and damages
 * the MADs passing through, or sends them with a wrong TID or from a wrong source LID. Everything it
 * did is counted, so a test can show the faults really happened.
 */
public final class FaultInjectingTransport implements MadTransport
{
    private static final int HEADERS_LENGTH = 56;

    /** The source is a copy: the delegate reuses its own. */
    private record Packet(MadSource source, byte[] mad, long dueNanos)
    {
    }

    private final MadTransport delegate;
    private final Faults faults;
    private final Random random;
    private final List<Packet> held = new ArrayList<>();
    private final List<Packet> arrived = new ArrayList<>();
    private final MadReceiver collector = this::collect;
    private long sentDropped;
    private long dropped;
    private long duplicated;
    private long reordered;
    private long delayed;
    private long corrupted;
    private long wrongTids;
    private long wrongSources;

    public FaultInjectingTransport(final MadTransport delegate, final Faults faults, final long seed)
    {
        this.delegate = delegate;
        this.faults = faults;
        this.random = new Random(seed);
    }

    @Override
    public LocalPort localPort()
    {
        return delegate.localPort();
    }

    @Override
    public boolean send(final MadAddress destination, final DirectBuffer mad, final int offset, final int length)
    {
        if (chance(faults.dropSent()))
        {
            sentDropped++;
            return true;
        }
        return delegate.send(destination, mad, offset, length);
    }

    @Override
    public int poll(final MadReceiver receiver, final int limit)
    {
        arrived.clear();
        delegate.poll(collector, limit);
        final long now = System.nanoTime();
        for (final Packet packet : arrived)
        {
            inject(packet, now);
        }
        int delivered = 0;
        for (final Iterator<Packet> it = held.iterator(); it.hasNext() && delivered < limit; )
        {
            final Packet packet = it.next();
            if (now - packet.dueNanos >= 0)
            {
                it.remove();
                delivered++;
                final UnsafeBuffer buffer = new UnsafeBuffer(packet.mad);
                receiver.onMad(packet.source, buffer, 0, packet.mad.length);
            }
        }
        return delivered;
    }

    @Override
    public void awaitReadable(final long deadlineNanos)
    {
        // A delayed packet falls due without anything arriving from the delegate: wake for it too.
        long wakeAt = deadlineNanos;
        for (final Packet packet : held)
        {
            if (packet.dueNanos < wakeAt)
            {
                wakeAt = packet.dueNanos;
            }
        }
        if (wakeAt - System.nanoTime() > 0)
        {
            delegate.awaitReadable(wakeAt);
        }
    }

    @Override
    public void wakeUp()
    {
        delegate.wakeUp();
    }

    private void collect(final MadSource source, final DirectBuffer buffer, final int offset, final int length)
    {
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        arrived.add(new Packet(new MadSource().set(source), copy, 0));
    }

    private void inject(final Packet packet, final long now)
    {
        if (chance(faults.drop()))
        {
            dropped++;
            return;
        }
        MadSource source = packet.source;
        final byte[] mad = packet.mad;
        if (chance(faults.corrupt()))
        {
            corrupted++;
            final int at = random.nextInt(Math.min(HEADERS_LENGTH, mad.length));
            mad[at] ^= (byte)(1 + random.nextInt(255));
        }
        if (chance(faults.wrongTid()) && mad.length >= MadHeader.LENGTH)
        {
            wrongTids++;
            mad[MadHeader.TRANSACTION_ID_OFFSET + 7] ^= (byte)(1 + random.nextInt(255));
        }
        if (chance(faults.wrongSource()))
        {
            wrongSources++;
            final int otherLid = (source.lid() + 1 + random.nextInt(100)) & 0xffff;
            source = source.hasGid() ? new MadSource().set(otherLid, source.qp(), source.gidPrefix(), source.gidInterfaceId()) :
                new MadSource().set(otherLid, source.qp());
        }
        long due = now;
        if (chance(faults.delay()))
        {
            delayed++;
            due = now + faults.delayBy().toNanos();
        }
        final Packet damaged = new Packet(source, mad, due);
        if (chance(faults.reorder()) && !held.isEmpty())
        {
            reordered++;
            held.add(held.size() - 1, damaged);
        }
        else
        {
            held.add(damaged);
        }
        if (chance(faults.duplicate()))
        {
            duplicated++;
            held.add(new Packet(source, mad.clone(), due));
        }
    }

    private boolean chance(final double p)
    {
        return p > 0 && random.nextDouble() < p;
    }

    /** How many faults of each kind were injected, for the test's report and its assertions. */
    public String injected()
    {
        return "sentDropped=" + sentDropped + " dropped=" + dropped + " duplicated=" + duplicated + " reordered=" + reordered +
            " delayed=" + delayed + " corrupted=" + corrupted + " wrongTid=" + wrongTids + " wrongSource=" + wrongSources;
    }

    public long totalInjected()
    {
        return sentDropped + dropped + duplicated + reordered + delayed + corrupted + wrongTids + wrongSources;
    }

    @Override
    public void close()
    {
        delegate.close();
    }
}
