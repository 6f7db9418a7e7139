package dev.rdmacm.cm;

import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code struct rdma_event_channel}: the queue that events of its ids arrive on, in order, filled by
 * the resolver's event loop and read by any number of application threads.
 * <p>
 * Like librdmacm's {@code channel->fd}, {@link #fd()} can be polled: it is an eventfd whose count is 1
 * while an event is queued and 0 when none is, so it is readable (POLLIN) while an event waits and an
 * application can watch it beside its other descriptors. Only this class reads and writes it, and only
 * when the queue turns non-empty or empty: a burst of events costs one write and one read, not one of
 * each per event (in a TCG guest each is a system call of some microseconds, and the caller's thread
 * posts the events of the resolutions it finishes itself). And only once someone has asked for the
 * descriptor: before that no one can poll it, so its count is not kept, and {@link #fd()} sets it from
 * the queue when it first hands it out. A taker that keeps up with the poster (cmtime's event thread)
 * emptied the queue at every event, so each event still cost a write and a read, both under the lock
 * the poster and the taker share (issue 32: the post was a third of resolve route's samples). While
 * nobody watches the descriptor, a post takes no lock of the channel's at all, only the queue's
 * ({@link #post}).
 */
public final class EventChannel implements AutoCloseable
{
    private static final Duration LONGEST_WAIT = Duration.ofNanos(Long.MAX_VALUE);

    private final LinkedBlockingQueue<CmEvent> events;
    private final Arena arena = Arena.ofShared();
    /** Guards the native state below: posts come from the loop, takes from any thread. */
    private final Object counterLock = new Object();
    private final Libc.CallState callState = new Libc.CallState(arena);
    private final MemorySegment counter = arena.allocate(JAVA_LONG);
    private final int fd;
    /** Whether the eventfd's count is 1 (readable); under {@link #counterLock}. */
    private boolean readable;
    /**
     * Whether {@link #fd()} handed the descriptor out, from when on its count follows the queue: set under
     * {@link #counterLock}, read by {@link #post} without it (volatile: a post that does not see it set
     * queued its event before {@link #fd()} looked at the queue, which then marks it).
     */
    private volatile boolean watched;
    /** Set under {@link #counterLock}; read by {@link #post} without it. */
    private volatile boolean closed;

    /** @throws NativeCallException when eventfd(2) fails. */
    EventChannel()
    {
        this(new LinkedBlockingQueue<>());
    }

    /**
     * On {@code events}, a queue of the test's: one that runs a destroy inside {@link #post}'s add puts that destroy
     * in the window between the post's two reads of the destroyed flag, which no race of two threads hits every time.
     *
     * @throws NativeCallException when eventfd(2) fails.
     */
    EventChannel(final LinkedBlockingQueue<CmEvent> events)
    {
        this.events = events;
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

    /** {@return {@code channel->fd}: readable while an event is queued} Do not read it: the channel does. */
    public int fd()
    {
        synchronized (counterLock)
        {
            if (!watched)
            {
                watched = true;
                if (!closed && !readable && !events.isEmpty())
                {
                    markReadable();
                }
            }
        }
        return fd;
    }

    /**
     * {@code rdma_get_cm_event}: waits for the next event. As librdmacm's, the taking thread does the work an event
     * asks of the application's side ({@link RdmaCmId#taken}): a CONNECT_RESPONSE of an id with an RC QP becomes
     * ESTABLISHED once this thread has moved the QP to RTR and RTS and the RTU is out (or CONNECT_ERROR), and a
     * REJECTED moves the QP to ERR.
     *
     * @return the event.
     * @throws InterruptedException when interrupted while waiting.
     */
    public CmEvent getEvent() throws InterruptedException
    {
        CmEvent event;
        do
        {
            event = taken(events.take());
        }
        while (event == null);
        return event.id().taken(event);
    }

    /**
     * Waits at most {@code timeout} (to the nanosecond; zero or negative does not wait, one beyond
     * {@code Long.MAX_VALUE} ns waits as long as that).
     *
     * @param timeout the longest wait.
     * @return the event, or null when none arrived.
     * @throws InterruptedException when interrupted while waiting.
     */
    public CmEvent getEvent(final Duration timeout) throws InterruptedException
    {
        // an event already queued is taken without reading the clock (a system call in a TCG guest); an
        // interrupted caller gets InterruptedException all the same, as from the queue's timed poll
        if (Thread.interrupted())
        {
            throw new InterruptedException();
        }
        final CmEvent ready = pollEvent();
        if (ready != null)
        {
            return ready;
        }
        final long nanos = timeout.compareTo(LONGEST_WAIT) >= 0 ? Long.MAX_VALUE : timeout.toNanos();
        final long start = System.nanoTime();
        long left = nanos;
        while (true)
        {
            final CmEvent queued = events.poll(left, TimeUnit.NANOSECONDS);
            if (queued == null)
            {
                return null;
            }
            final CmEvent event = taken(queued);
            if (event != null)
            {
                return event.id().taken(event);
            }
            // the event of an id destroyed meanwhile: wait on for the time that is left
            left = Math.max(0, nanos - (System.nanoTime() - start));
        }
    }

    /** {@return the next event if one is queued (a non-blocking channel), else null} */
    public CmEvent pollEvent()
    {
        CmEvent queued;
        while ((queued = events.poll()) != null)
        {
            final CmEvent event = taken(queued);
            if (event != null)
            {
                return event.id().taken(event);
            }
        }
        return null;
    }

    /** {@return the events posted to this channel and not taken yet} */
    public int pendingEvents()
    {
        return events.size();
    }

    /**
     * Queues an event; none of an id whose {@link RdmaCmId#destroy} has started, which the conductor may
     * still make before it runs the destroy. Without {@link #counterLock} unless the descriptor is watched:
     * the taking thread holds that lock for each event it takes, and a poster that waited for it there was
     * 18% of a caller's resolve addr in the guest's cmtime (issue 32). The destroyed flag is read again
     * after the event is queued, and {@link #discard} walks the queue after the flag was set (both
     * volatile or locked, so one of them sees the other): an event either is queued before the discard
     * (which drops it), or is taken back here, or, taken off the queue meanwhile, is dropped by
     * {@link #taken}, which reads the flag under the lock. The application never sees it.
     */
    void post(final CmEvent event)
    {
        final RdmaCmId id = event.id();
        if (closed || id.isDestroyed())
        {
            return;
        }
        events.add(event);
        if ((id.isDestroyed() || closed) && events.remove(event))
        {
            returnBacklogPlace(event);
            return;
        }
        if (watched)
        {
            synchronized (counterLock)
            {
                // a taker may have emptied the queue since the add: the count follows the queue as it is now
                if (!closed && !readable && !events.isEmpty())
                {
                    markReadable();
                }
            }
        }
    }

    /** Under the lock: the count to 1. */
    private void markReadable()
    {
        counter.set(JAVA_LONG, 0, 1L);
        Libc.write(callState, fd, counter, Long.BYTES, "event channel eventfd");
        readable = true;
    }

    /**
     * Drops the queued events of {@code id}, which {@code rdma_destroy_id} frees in the kernel before
     * the application sees them; called after the id's destroyed flag was set, so none is queued after.
     */
    void discard(final RdmaCmId id)
    {
        synchronized (counterLock)
        {
            for (final Iterator<CmEvent> queued = events.iterator(); queued.hasNext(); )
            {
                final CmEvent event = queued.next();
                if (event.id() == id)
                {
                    queued.remove();
                    returnBacklogPlace(event);
                }
            }
            clearIfEmpty();
        }
    }

    /**
     * Drops the queued events of {@code id} that {@code which} picks: {@code LEAVE_MCAST} frees the events
     * of the group it leaves ({@code ucma_cleanup_mc_events}) before the application sees them.
     */
    void discard(final RdmaCmId id, final Predicate<CmEvent> which)
    {
        synchronized (counterLock)
        {
            for (final Iterator<CmEvent> queued = events.iterator(); queued.hasNext(); )
            {
                final CmEvent event = queued.next();
                if (event.id() == id && which.test(event))
                {
                    queued.remove();
                }
            }
            clearIfEmpty();
        }
    }

    /**
     * An event taken off the queue: the descriptor stops being readable if it was the last and, unless
     * its id's destroy has started, it is handed to the application and its id waits for its ack; else null. Both under the lock that
     * {@link #discard} takes: an event counted before the discard is one destroy waits for, one taken off
     * the queue but not yet counted when the discard ran is dropped, as the discard would have dropped it.
     */
    private CmEvent taken(final CmEvent event)
    {
        synchronized (counterLock)
        {
            clearIfEmpty();
            returnBacklogPlace(event);
            if (event.id().isDestroyed())
            {
                return null;
            }
            event.id().retrieved();
        }
        return event;
    }

    /**
     * {@code ucma_get_event}: a CONNECT_REQUEST off the queue gives its listener's backlog place back (a
     * listener's own queue is bounded so, the kernel's; docs/decisions.md, rdma-cm: "a listener's backlog").
     */
    private static void returnBacklogPlace(final CmEvent event)
    {
        if (event instanceof CmEvent.ConnectRequest request && request.listenId() != null)
        {
            request.listenId().backlog.giveBack();
        }
    }

    /**
     * Under the lock: the count back to 0 once nothing is queued. An event taken off the queue and not yet
     * through {@link #taken} leaves it readable a moment longer, as the per-event count did.
     */
    private void clearIfEmpty()
    {
        if (readable && !closed && events.isEmpty())
        {
            Libc.read(callState, fd, counter, Long.BYTES, "event channel eventfd");
            readable = false;
        }
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
