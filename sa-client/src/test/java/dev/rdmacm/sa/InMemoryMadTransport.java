package dev.rdmacm.sa;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.sa.transport.MadReceiver;
import dev.rdmacm.sa.transport.MadSource;
import dev.rdmacm.sa.transport.MadTransport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Test double for the wire under the fuzz targets of the SA engine's receive path: keeps what the engine
 * sends and hands it the MADs a target injects, from the SA's address or from another port. No SA can be
 * made to send arbitrary bytes, so this is what stands in for one.
 */
final class InMemoryMadTransport implements MadTransport
{
    static final int LOCAL_LID = 4;
    static final int SA_LID = 1;
    static final int STRANGER_LID = 9;

    private record Injected(int lid, int qp, byte[] mad)
    {
    }

    private final LocalPort localPort = new LocalPort(
        "InMemoryHca", LOCAL_LID, 0x100004L, new Gid(Gid.LINK_LOCAL_PREFIX, 0x100004L), SA_LID, 0);
    private final List<byte[]> sent = new ArrayList<>();
    private final ArrayDeque<Injected> inbox = new ArrayDeque<>();
    private final MadSource source = new MadSource();

    /** The MADs the engine sent, in order. */
    List<byte[]> sent()
    {
        return sent;
    }

    /** How many of the MADs sent were queries (not RMPP ACKs). */
    int requests()
    {
        int requests = 0;
        for (final byte[] mad : sent)
        {
            requests += (mad[25] & 0xff) != 2 ? 1 : 0;
        }
        return requests;
    }

    /** The TransactionID of query {@code index} modulo {@link #requests()} (the engine's first few), or 0. */
    long requestTid(final int index)
    {
        final int count = requests();
        int requests = 0;
        for (final byte[] mad : sent)
        {
            if ((mad[25] & 0xff) != 2 && requests++ == Math.floorMod(index, Math.max(1, count)))
            {
                return new MadHeader().wrap(new UnsafeBuffer(mad), 0, mad.length).transactionId();
            }
        }
        return 0;
    }

    void inject(final boolean fromSa, final byte[] mad)
    {
        inbox.add(new Injected(fromSa ? SA_LID : STRANGER_LID, 1, mad));
    }

    @Override
    public LocalPort localPort()
    {
        return localPort;
    }

    @Override
    public boolean send(final MadAddress destination, final DirectBuffer mad, final int offset, final int length)
    {
        final byte[] copy = new byte[length];
        mad.getBytes(offset, copy);
        sent.add(copy);
        return true;
    }

    @Override
    public int poll(final MadReceiver receiver, final int limit)
    {
        int count = 0;
        Injected next;
        while (count < limit && (next = inbox.poll()) != null)
        {
            receiver.onMad(source.set(next.lid(), next.qp()), new UnsafeBuffer(next.mad()), 0, next.mad().length);
            count++;
        }
        return count;
    }

    @Override
    public void awaitReadable(final long deadlineNanos)
    {
    }

    @Override
    public void wakeUp()
    {
    }

    @Override
    public void close()
    {
    }
}
