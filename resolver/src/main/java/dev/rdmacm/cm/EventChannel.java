package dev.rdmacm.cm;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code struct rdma_event_channel}: the queue that events of its ids arrive on, in order, filled by
 * the resolver's event loop and read by any number of application threads.
 */
public final class EventChannel implements AutoCloseable
{
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

    /** Waits at most {@code timeout}; null when none arrived. */
    public CmEvent getEvent(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return events.poll(timeout, unit);
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
