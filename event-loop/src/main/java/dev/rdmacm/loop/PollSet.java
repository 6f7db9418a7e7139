package dev.rdmacm.loop;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The descriptors one loop thread waits on: N watched descriptors (netlink and uevent sockets, umad
 * ports, completion channels) plus a wake-up eventfd, in one {@code poll(2)}.
 * <pre>
 *   struct pollfd[count]   fd         events   revents
 *   [0] wake-up            eventfd    POLLIN   (read and reset by the loop)
 *   [1..count-1] watched   socket...  POLLIN   (dispatched to the descriptor's handler; POLLOUT
 *                                             while a nonblocking connect is under way)
 * </pre>
 * <b>Owner.</b> Adding, removing, {@link #poll} and {@link #await} are for the loop thread only (other
 * threads send the loop a command that does it). A handler may add or remove descriptors, its own
 * included: a removed slot is set to -1 (which poll(2) ignores) and filled from the end after the pass.
 * <p>
 * <b>Wake-up: one protocol for every loop.</b> A state word is {@code RUNNING}, {@code WAITING} or
 * {@code CLOSED}. Before it waits, the loop sets {@code WAITING} and only then looks at its queue one
 * last time ({@code workPending}); a producer first puts its command in the queue and only then reads
 * the state, and writes the eventfd only when it wins the {@code WAITING → RUNNING} exchange. All four
 * accesses are volatile, so one side sees the other (Dekker): no wake-up is lost, a busy loop costs
 * producers no syscall, and many producers make at most one write per wait. A spurious write (the loop
 * saw the command anyway) leaves the level-triggered eventfd readable, which costs one extra cycle.
 * <p>
 * <b>Close.</b> {@link #close} sets {@code CLOSED}, so no producer wins the exchange any more, and closes
 * the eventfd under the lock a winning producer writes under: no write reaches a closed (or reused)
 * descriptor. Close only after the loop thread has stopped using the set.
 * <p>
 * The wait's timeout is relative and in real time: the loop computes it from its {@link NanoClock}'s
 * earliest deadline, so a loop on a test's clock waits until the test moves the clock and wakes it.
 */
public final class PollSet implements AutoCloseable
{
    /** Handles a ready descriptor on the loop thread; returns the work done (for the duty cycle's count). */
    @FunctionalInterface
    public interface ReadyHandler
    {
        /**
         * @param fd      the ready descriptor.
         * @param revents poll(2)'s {@code revents}: {@link Libc#POLLIN}, {@link Libc#POLLOUT} (when watched
         *                for), {@link Libc#POLLERR} or {@link Libc#POLLHUP} (a {@link Libc#POLLNVAL} never
         *                reaches a handler).
         */
        int onReady(int fd, int revents);
    }

    private static final int RUNNING = 0;
    private static final int WAITING = 1;
    private static final int CLOSED = 2;
    private static final VarHandle STATE;
    private static final int WAKE_SLOT = 0;
    private static final int INITIAL_CAPACITY = 8;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    static
    {
        try
        {
            STATE = MethodHandles.lookup().findVarHandle(PollSet.class, "state", int.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Freed only by close(), under wakeLock, so a producer never writes from freed memory. */
    private final Arena arena = Arena.ofShared();
    private final MemorySegment counter = arena.allocate(JAVA_LONG);
    private final MemorySegment one = arena.allocate(JAVA_LONG);
    private final Libc.CallState loopState = new Libc.CallState(arena);
    /** Producers write the eventfd only under this lock, and only a producer that won the exchange. */
    private final Object wakeLock = new Object();
    private final Libc.CallState wakeState = new Libc.CallState(arena);
    private final int wakeFd;
    private MemorySegment pollFds;
    private ReadyHandler[] handlers;
    /** Slots in use, the wake-up's included. */
    private int count;
    private int removedSlots;
    private boolean dispatching;
    /** The last wait looked at every descriptor: the next duty cycle need not poll again. */
    private boolean freshFromWait;
    /** Guarded by wakeLock. */
    private boolean eventfdClosed;
    /** Guarded by wakeLock; what the tests read to see that a busy loop costs no write. */
    private long wakeUpWrites;
    @SuppressWarnings("unused") // through STATE
    private volatile int state = RUNNING;

    /**
     * @throws NativeCallException   when eventfd(2) fails.
     * @throws IllegalStateException when native access is denied (the message says how to grant it).
     */
    public PollSet() throws NativeCallException
    {
        try
        {
            wakeFd = Libc.eventfd(loopState, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
        one.set(JAVA_LONG, 0, 1L);
        pollFds = arena.allocate((long)INITIAL_CAPACITY * Libc.POLLFD_SIZE, 8);
        handlers = new ReadyHandler[INITIAL_CAPACITY];
        setSlot(WAKE_SLOT, wakeFd, Libc.POLLIN);
        count = 1;
    }

    /**
     * The loop thread: watches {@code fd} for POLLIN from the next poll on; {@code handler} runs when it
     * is ready (or reports POLLERR or POLLHUP).
     *
     * @throws IllegalArgumentException when {@code fd} is negative or already in the set.
     */
    public void add(final int fd, final ReadyHandler handler)
    {
        add(fd, Libc.POLLIN, handler);
    }

    /**
     * As {@link #add(int, ReadyHandler)}, watching for {@code events} ({@link Libc#POLLIN},
     * {@link Libc#POLLOUT} or both): a nonblocking connect is complete when its socket is writable.
     */
    public void add(final int fd, final short events, final ReadyHandler handler)
    {
        if (fd < 0)
        {
            throw new IllegalArgumentException("fd " + fd + ": a descriptor to poll must not be negative");
        }
        if (indexOf(fd) >= 0)
        {
            throw new IllegalArgumentException("fd " + fd + " is already in the poll set");
        }
        if (handler == null)
        {
            throw new IllegalArgumentException("fd " + fd + ": the handler must not be null");
        }
        if (count == handlers.length)
        {
            grow();
        }
        setSlot(count, fd, events);
        handlers[count] = handler;
        count++;
    }

    /** The loop thread: watches {@code fd}, which is in the set, for {@code events} from the next poll on. */
    public void watch(final int fd, final short events)
    {
        final int index = indexOf(fd);
        if (index < 0)
        {
            throw new IllegalArgumentException("fd " + fd + " is not in the poll set");
        }
        pollFds.set(JAVA_SHORT, offset(index) + Libc.POLLFD_EVENTS_OFFSET, events);
    }

    /** The loop thread: stops watching {@code fd}; the caller still owns and closes it. False when absent. */
    public boolean remove(final int fd)
    {
        final int index = indexOf(fd);
        if (index < 0)
        {
            return false;
        }
        pollFds.set(JAVA_INT, offset(index) + Libc.POLLFD_FD_OFFSET, -1);
        pollFds.set(JAVA_SHORT, offset(index) + Libc.POLLFD_REVENTS_OFFSET, (short)0);
        handlers[index] = null;
        removedSlots++;
        if (!dispatching)
        {
            compact();
        }
        return true;
    }

    /** The number of watched descriptors (the wake-up's not counted). */
    public int size()
    {
        return count - 1 - removedSlots;
    }

    /**
     * The loop thread, once per duty cycle: dispatches the descriptors the last {@link #await} found
     * ready or, when the loop has not waited since, polls without blocking (one syscall, however many
     * descriptors) and dispatches the ready ones.
     *
     * @return the handlers' work.
     * @throws IllegalStateException when a watched descriptor was closed while still in the set (POLLNVAL).
     */
    public int poll() throws NativeCallException
    {
        if (freshFromWait)
        {
            freshFromWait = false;
            return 0;
        }
        if (count == 1 || Libc.poll(loopState, pollFds, count, 0) == 0)
        {
            return 0;
        }
        return dispatch();
    }

    /**
     * The loop thread, when a duty cycle found nothing to do: publishes that it waits, returns at once
     * when {@code workPending} (the loop's queue, its closing flag) says there is work, else blocks in
     * poll(2) until a descriptor is ready, {@link #wakeUp} or {@code timeoutNanos} passes (negative or
     * {@link Long#MAX_VALUE}: no timeout); then dispatches the ready descriptors and consumes the wake-up.
     *
     * @return the handlers' work.
     */
    public int await(final long timeoutNanos, final BooleanSupplier workPending) throws NativeCallException
    {
        if (!STATE.compareAndSet(this, RUNNING, WAITING))
        {
            return 0;
        }
        final int ready;
        try
        {
            if (workPending.getAsBoolean())
            {
                return 0;
            }
            ready = Libc.poll(loopState, pollFds, count, timeoutMillis(timeoutNanos));
        }
        finally
        {
            // Fails when a producer already set RUNNING (its write is pending or read) or close set CLOSED.
            STATE.compareAndSet(this, WAITING, RUNNING);
        }
        freshFromWait = true;
        // 0 ready: the timeout passed or a signal interrupted the wait (revents are not to be read)
        return ready == 0 ? 0 : dispatch();
    }

    /**
     * Any thread, after it has queued work for the loop: wakes the loop only if it waits (or is about to);
     * a running loop sees the work itself. Does nothing after {@link #close}. Only what the loop's
     * {@code workPending} reads counts as queued: a wake-up for anything else (a moved clock) must set
     * a volatile flag that {@code workPending} reads, before it calls this.
     */
    public void wakeUp()
    {
        if ((int)STATE.getVolatile(this) != WAITING || !STATE.compareAndSet(this, WAITING, RUNNING))
        {
            return;
        }
        synchronized (wakeLock)
        {
            if (eventfdClosed)
            {
                return;
            }
            wakeUpWrites++;
            try
            {
                Libc.write(wakeState, wakeFd, one, 8L, "eventfd wake-up");
            }
            catch (final NativeCallException ex)
            {
                // EAGAIN: the counter is saturated, so the loop wakes anyway; nothing else is possible
                // on an open eventfd of ours.
                if (ex.errno() != Errno.EAGAIN)
                {
                    throw ex;
                }
            }
        }
    }

    /** How many times a producer wrote the eventfd. */
    long wakeUpWrites()
    {
        synchronized (wakeLock)
        {
            return wakeUpWrites;
        }
    }

    /** Whether the loop has published that it waits (for tests that must wake a loop that waits). */
    boolean isWaiting()
    {
        return (int)STATE.getVolatile(this) == WAITING;
    }

    /**
     * Shuts producers out, then closes the eventfd; only after the loop thread has stopped using the set.
     * The watched descriptors stay open: their owners close them. Idempotent.
     */
    @Override
    public void close() throws NativeCallException
    {
        if ((int)STATE.getAndSet(this, CLOSED) == CLOSED)
        {
            return;
        }
        synchronized (wakeLock)
        {
            eventfdClosed = true;
            try
            {
                Libc.close(loopState, wakeFd);
            }
            finally
            {
                arena.close();
            }
        }
    }

    /** poll(2)'s timeout: rounded up, because waking before the deadline only makes the loop wait again. */
    static int timeoutMillis(final long timeoutNanos)
    {
        if (timeoutNanos < 0 || timeoutNanos == Long.MAX_VALUE)
        {
            return -1;
        }
        final long millis = timeoutNanos / NANOS_PER_MILLI + (timeoutNanos % NANOS_PER_MILLI == 0 ? 0 : 1);
        return (int)Math.min(Integer.MAX_VALUE, millis);
    }

    private int dispatch() throws NativeCallException
    {
        int work = 0;
        dispatching = true;
        try
        {
            // Descriptors a handler adds are not ready in this pass: they are after `slots`.
            final int slots = count;
            for (int i = 0; i < slots; i++)
            {
                final int revents = pollFds.get(JAVA_SHORT, offset(i) + Libc.POLLFD_REVENTS_OFFSET) & 0xffff;
                if (revents == 0)
                {
                    continue;
                }
                final int fd = pollFds.get(JAVA_INT, offset(i) + Libc.POLLFD_FD_OFFSET);
                if ((revents & Libc.POLLNVAL) != 0)
                {
                    throw new IllegalStateException("fd " + fd + " was closed while still in the poll set (POLLNVAL)");
                }
                if (i == WAKE_SLOT)
                {
                    // -1 (EAGAIN): the counter was already read, nothing to consume
                    Libc.read(loopState, wakeFd, counter, 8L, "eventfd");
                }
                else if (fd >= 0)
                {
                    work += handlers[i].onReady(fd, revents);
                }
            }
        }
        finally
        {
            dispatching = false;
            if (removedSlots > 0)
            {
                compact();
            }
        }
        return work;
    }

    /** Fills each removed slot with the last one in use. */
    private void compact()
    {
        for (int i = count - 1; i > WAKE_SLOT && removedSlots > 0; i--)
        {
            if (handlers[i] == null)
            {
                final int last = count - 1;
                if (i != last)
                {
                    setSlot(i, pollFds.get(JAVA_INT, offset(last) + Libc.POLLFD_FD_OFFSET),
                        pollFds.get(JAVA_SHORT, offset(last) + Libc.POLLFD_EVENTS_OFFSET));
                    handlers[i] = handlers[last];
                }
                handlers[last] = null;
                count--;
                removedSlots--;
            }
        }
    }

    private int indexOf(final int fd)
    {
        for (int i = 1; i < count; i++)
        {
            if (handlers[i] != null && pollFds.get(JAVA_INT, offset(i) + Libc.POLLFD_FD_OFFSET) == fd)
            {
                return i;
            }
        }
        return -1;
    }

    private void grow()
    {
        final int capacity = handlers.length * 2;
        final MemorySegment bigger = arena.allocate((long)capacity * Libc.POLLFD_SIZE, 8);
        bigger.copyFrom(pollFds);
        pollFds = bigger;
        handlers = Arrays.copyOf(handlers, capacity);
    }

    private void setSlot(final int index, final int fd, final short events)
    {
        pollFds.set(JAVA_INT, offset(index) + Libc.POLLFD_FD_OFFSET, fd);
        pollFds.set(JAVA_SHORT, offset(index) + Libc.POLLFD_EVENTS_OFFSET, events);
        pollFds.set(JAVA_SHORT, offset(index) + Libc.POLLFD_REVENTS_OFFSET, (short)0);
    }

    private static long offset(final int index)
    {
        return (long)index * Libc.POLLFD_SIZE;
    }
}
