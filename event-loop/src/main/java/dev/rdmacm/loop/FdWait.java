package dev.rdmacm.loop;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Blocks a loop thread in {@code poll(2)} until a watched descriptor (a netlink socket, a verbs
 * completion channel) is readable, another thread calls {@link #wakeUp}, or a timeout passes. The
 * wake-up is an {@code eventfd(2)}: a write from any thread makes it readable until the waiter reads
 * it, so a wake-up that comes before the wait is kept and none is lost between a loop's last look at
 * its queue and its wait.
 * <pre>
 *   struct pollfd[2]        fd        events   revents
 *   [0] watched             watchedFd POLLIN   (ready: the loop has I/O)
 *   [1] wake-up             eventfd   POLLIN   (ready: read and reset by await)
 * </pre>
 * A negative watched descriptor is ignored by poll(2): the wait then ends only by wake-up or timeout,
 * which is how it is tested on a machine without an RDMA device, and how a loop waits before it has
 * opened its socket.
 * <p>
 * The timeout is relative and in real time: the loop computes it from its {@link NanoClock}'s earliest
 * deadline, so a loop on a test's clock waits until the test moves the clock and wakes it.
 */
public final class FdWait implements AutoCloseable
{
    private static final int WATCHED = 0;
    private static final int WAKE = Libc.POLLFD_SIZE;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    /** Freed only by close(), after the waiting thread has stopped and no one calls wakeUp any more. */
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollFds = arena.allocate(2L * Libc.POLLFD_SIZE, 8);
    private final MemorySegment counter = arena.allocate(JAVA_LONG);
    private final MemorySegment one = arena.allocate(JAVA_LONG);
    private final Libc.CallState waitState = new Libc.CallState(arena);
    /** wakeUp may run on many threads at once: each needs its own errno capture. */
    private final ThreadLocal<Libc.CallState> wakeState = ThreadLocal.withInitial(() -> new Libc.CallState(Arena.ofAuto()));
    private final int wakeFd;
    private volatile boolean closed;

    /**
     * @param watchedFd the descriptor to wait for (negative: none yet, see {@link #watch}).
     * @throws NativeCallException   when eventfd(2) fails.
     * @throws IllegalStateException when native access is denied (the message says how to grant it).
     */
    public FdWait(final int watchedFd) throws NativeCallException
    {
        try
        {
            wakeFd = Libc.eventfd(waitState, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
        }
        catch (final RuntimeException ex)
        {
            arena.close();
            throw ex;
        }
        one.set(JAVA_LONG, 0, 1L);
        watch(watchedFd);
        pollFds.set(JAVA_INT, WAKE + Libc.POLLFD_FD_OFFSET, wakeFd);
        pollFds.set(JAVA_SHORT, WAKE + Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
    }

    /** The waiting thread: watches {@code fd} (negative: nothing) from the next wait on. */
    public void watch(final int fd)
    {
        pollFds.set(JAVA_INT, WATCHED + Libc.POLLFD_FD_OFFSET, fd);
        pollFds.set(JAVA_SHORT, WATCHED + Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
    }

    /**
     * The waiting thread: blocks until the watched descriptor is readable, {@link #wakeUp}, or
     * {@code timeoutNanos} passes (negative or {@link Long#MAX_VALUE}: no timeout); consumes the wake-up.
     *
     * @return true when the watched descriptor is readable.
     */
    public boolean await(final long timeoutNanos) throws NativeCallException
    {
        // 0 ready: the timeout passed or a signal interrupted the wait (revents are not to be read)
        if (Libc.poll(waitState, pollFds, 2, timeoutMillis(timeoutNanos)) == 0)
        {
            return false;
        }
        if ((pollFds.get(JAVA_SHORT, WAKE + Libc.POLLFD_REVENTS_OFFSET) & Libc.POLLIN) != 0)
        {
            // -1 (EAGAIN): the counter was already read, nothing to consume
            Libc.read(waitState, wakeFd, counter, 8L, "eventfd");
        }
        return (pollFds.get(JAVA_SHORT, WATCHED + Libc.POLLFD_REVENTS_OFFSET) & Libc.POLLIN) != 0;
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

    /** Any thread: ends the current wait, or the next one before it starts; nothing after close. */
    public void wakeUp() throws NativeCallException
    {
        if (closed)
        {
            return;
        }
        try
        {
            Libc.write(wakeState.get(), wakeFd, one, 8L, "eventfd wake-up");
        }
        catch (final NativeCallException ex)
        {
            // EAGAIN: the counter is saturated, so the waiter wakes anyway.
            if (ex.errno() != Errno.EAGAIN)
            {
                throw ex;
            }
        }
    }

    /** Closes the eventfd; only after the waiting thread has stopped. Idempotent. */
    @Override
    public void close() throws NativeCallException
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            Libc.close(waitState, wakeFd);
        }
        finally
        {
            arena.close();
        }
    }
}
