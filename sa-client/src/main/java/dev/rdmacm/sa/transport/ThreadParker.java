package dev.rdmacm.sa.transport;

import java.util.concurrent.locks.LockSupport;

/**
 * The wait primitive of a transport that has no file descriptor to wait on (one in memory): the
 * engine thread parks until a deadline, and {@link #wakeUp} from any thread unparks it. A wake-up
 * that comes before the wait is kept, so none is lost between the engine's last look and its park.
 */
public final class ThreadParker
{
    private volatile Thread waiter;
    private volatile boolean woken;

    /** Parks the calling thread until {@link #wakeUp}, an interrupt or {@code deadlineNanos}. */
    public void await(final long deadlineNanos)
    {
        // The waiter is published before woken is read, and wakeUp writes woken before reading the
        // waiter: one of the two always sees the other.
        waiter = Thread.currentThread();
        try
        {
            while (!woken && !Thread.currentThread().isInterrupted())
            {
                if (deadlineNanos == Long.MAX_VALUE)
                {
                    LockSupport.park(this);
                }
                else
                {
                    final long remaining = deadlineNanos - System.nanoTime();
                    if (remaining <= 0)
                    {
                        break;
                    }
                    LockSupport.parkNanos(this, remaining);
                }
            }
        }
        finally
        {
            waiter = null;
            woken = false;
        }
    }

    /** Any thread: ends the current wait, or the next one before it starts. */
    public void wakeUp()
    {
        woken = true;
        final Thread thread = waiter;
        if (thread != null)
        {
            LockSupport.unpark(thread);
        }
    }
}
