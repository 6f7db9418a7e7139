package dev.rdmacm.cm;

import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code struct rdma_event_channel}: the queue that events of its ids arrive on, in order, filled by
 * the resolver's event loop and read by any number of application threads.
 * <p>
 * Like librdmacm's {@code channel->fd}, {@link #fd()} can be polled: it is an eventfd in semaphore mode
 * whose count is the number of queued events, so it is readable (POLLIN) while an event waits and an
 * application can watch it beside its other descriptors. Only this class reads and writes it.
 */
public final class EventChannel implements AutoCloseable
{
    private static final Duration LONGEST_WAIT = Duration.ofNanos(Long.MAX_VALUE);

    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();
    private final Arena arena = Arena.ofShared();
    /** Guards the native state below: posts come from the loop, takes from any thread. */
    private final Object counterLock = new Object();
    private final Libc.CallState callState = new Libc.CallState(arena);
    private final MemorySegment counter = arena.allocate(JAVA_LONG);
    private final int fd;
    private boolean closed;

    /** @throws NativeCallException when eventfd(2) fails. */
    EventChannel()
    {
        int created = -1;
        try
        {
            created = Libc.eventfd(callState, 0, Libc.EFD_SEMAPHORE | Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
        }
        finally
        {
            if (created < 0)
            {
                arena.close();
            }
        }
        fd = created;
    }

    /** {@code channel->fd}: readable while an event is queued. Do not read it: the channel does. */
    public int fd()
    {
        return fd;
    }

    /** {@code rdma_get_cm_event}: waits for the next event. */
    public CmEvent getEvent() throws InterruptedException
    {
        return taken(events.take());
    }

    /**
     * Waits at most {@code timeout} (to the nanosecond; zero or negative does not wait, one beyond
     * {@code Long.MAX_VALUE} ns waits as long as that); null when none arrived.
     */
    public CmEvent getEvent(final Duration timeout) throws InterruptedException
    {
        final long nanos = timeout.compareTo(LONGEST_WAIT) >= 0 ? Long.MAX_VALUE : timeout.toNanos();
        return taken(events.poll(nanos, TimeUnit.NANOSECONDS));
    }

    /** The next event if one is queued (a non-blocking channel), else null. */
    public CmEvent pollEvent()
    {
        return taken(events.poll());
    }

    public int pendingEvents()
    {
        return events.size();
    }

    void post(final CmEvent event)
    {
        synchronized (counterLock)
        {
            if (closed)
            {
                return;
            }
            events.add(event);
            counter.set(JAVA_LONG, 0, 1L);
            Libc.write(callState, fd, counter, Long.BYTES, "event channel eventfd");
        }
    }

    /**
     * Drops the queued events of {@code id}, which {@code rdma_destroy_id} frees in the kernel before
     * the application sees them.
     */
    void discard(final RdmaCmId id)
    {
        synchronized (counterLock)
        {
            for (final Iterator<CmEvent> queued = events.iterator(); queued.hasNext(); )
            {
                if (queued.next().id() == id)
                {
                    queued.remove();
                    decrement();
                }
            }
        }
    }

    /** An event handed to the application: the count goes down and its id waits for its ack. */
    private CmEvent taken(final CmEvent event)
    {
        if (event != null)
        {
            synchronized (counterLock)
            {
                if (!closed)
                {
                    decrement();
                }
            }
            event.id().retrieved();
        }
        return event;
    }

    private void decrement()
    {
        Libc.read(callState, fd, counter, Long.BYTES, "event channel eventfd");
    }

    @Override
    public void close()
    {
        synchronized (counterLock)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            events.clear();
            try
            {
                Libc.close(callState, fd);
            }
            finally
            {
                arena.close();
            }
        }
    }
}
