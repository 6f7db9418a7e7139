package dev.rdmacm.netlink;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A few {@link Rtnetlink} clients that any thread may borrow for a request or two, so that callers
 * ask the kernel on their own threads instead of handing the question to the thread that owns the
 * namespace. The sockets are opened by the thread that creates the pool, in its network namespace,
 * and stay there whichever thread uses them. Borrowing never blocks: with every client lent out,
 * {@link #borrow} returns null and the caller takes its other way.
 */
public final class RtnetlinkPool implements AutoCloseable
{
    private final AtomicReferenceArray<Rtnetlink> idle;
    private volatile boolean closed;

    private RtnetlinkPool(final int size)
    {
        this.idle = new AtomicReferenceArray<>(size);
    }

    /** Opens {@code size} sockets in the calling thread's network namespace. */
    public static RtnetlinkPool open(final int size) throws IOException
    {
        if (size < 1)
        {
            throw new IllegalArgumentException("pool size " + size + " is not positive");
        }
        final RtnetlinkPool pool = new RtnetlinkPool(size);
        try
        {
            for (int i = 0; i < size; i++)
            {
                pool.idle.set(i, Rtnetlink.open());
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            pool.close();
            throw ex;
        }
        return pool;
    }

    /** A client for this thread alone until {@link #release}, or null when all are lent out or the pool closed. */
    public Rtnetlink borrow()
    {
        for (int i = 0, n = idle.length(); i < n; i++)
        {
            final Rtnetlink client = idle.get(i);
            if (client != null && idle.compareAndSet(i, client, null))
            {
                return client;
            }
        }
        return null;
    }

    /**
     * Gives {@code client} back. After {@link #close} it is closed instead. A client whose request
     * failed half-way is fine to give back: a late answer to it carries an old sequence number, which
     * the next request skips.
     */
    public void release(final Rtnetlink client)
    {
        for (int i = 0, n = idle.length(); i < n; i++)
        {
            if (idle.compareAndSet(i, null, client))
            {
                if (closed)
                {
                    closeIdle();
                }
                return;
            }
        }
        client.close(); // not ours: cannot happen with balanced borrow and release
    }

    /** Closes the idle clients now, and those lent out when they come back. */
    @Override
    public void close()
    {
        closed = true;
        closeIdle();
    }

    private void closeIdle()
    {
        for (int i = 0, n = idle.length(); i < n; i++)
        {
            final Rtnetlink client = idle.getAndSet(i, null);
            if (client != null)
            {
                client.close();
            }
        }
    }
}
