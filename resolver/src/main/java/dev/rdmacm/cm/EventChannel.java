package dev.rdmacm.cm;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code struct rdma_event_channel}: the queue that events of its ids arrive on, in order, filled by
 * the resolver's event loop and read by any number of application threads.
 */
public final class EventChannel implements AutoCloseable
{
    private static final Duration LONGEST_WAIT = Duration.ofNanos(Long.MAX_VALUE);

    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    EventChannel()
    {
    }

    /** {@code rdma_get_cm_event}: waits for the next event. */
    public CmEvent getEvent() throws InterruptedException
    {
        return events.take();
    }

    /**
     * Waits at most {@code timeout} (to the nanosecond; zero or negative does not wait, one beyond
     * {@code Long.MAX_VALUE} ns waits as long as that); null when none arrived.
     */
    public CmEvent getEvent(final Duration timeout) throws InterruptedException
    {
        final long nanos = timeout.compareTo(LONGEST_WAIT) >= 0 ? Long.MAX_VALUE : timeout.toNanos();
        return events.poll(nanos, TimeUnit.NANOSECONDS);
    }

    /** The next event if one is queued (a non-blocking channel), else null. */
    public CmEvent pollEvent()
    {
        return events.poll();
    }

    public int pendingEvents()
    {
        return events.size();
    }

    void post(final CmEvent event)
    {
        if (!closed)
        {
            events.add(event);
        }
    }

    @Override
    public void close()
    {
        closed = true;
        events.clear();
    }
}
