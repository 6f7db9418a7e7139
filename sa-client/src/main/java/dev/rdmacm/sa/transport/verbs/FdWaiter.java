package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Blocks one thread in {@code poll(2)} until a file descriptor (a verbs completion channel) is
 * readable, another thread calls {@link #wakeUp}, or a deadline passes. The wake-up is an
 * {@code eventfd(2)}: a write from any thread makes it readable until the waiter reads it.
 * <p>
 * A negative watched descriptor is ignored by poll(2), so the waiter also works with nothing but its
 * wake-up, which is how it is tested on a machine without an RDMA device.
 * <p>
 * The libc calls go through {@link Libc}, the project's one libc binding, which checks each call and
 * names the errno; here a failure becomes a {@link MadTransportException} that also names the waiter.
 */
public final class FdWaiter implements AutoCloseable
{
    private final String name;
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
     * @param watchedFd the descriptor to wait for (negative: none).
     * @param name      what the waiter serves, for error messages.
     * @throws MadTransportException when native access is denied or eventfd(2) fails.
     */
    public FdWaiter(final int watchedFd, final String name)
    {
        this.name = name;
        try
        {
            wakeFd = Libc.eventfd(waitState, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
        }
        catch (final NativeCallException ex)
        {
            arena.close();
            throw failure(ex);
        }
        catch (final IllegalStateException ex)
        {
            // native access denied: Libc's message says how to grant it
            arena.close();
            throw new MadTransportException(name + ": " + ex.getMessage(), ex);
        }
        one.set(JAVA_LONG, 0, 1L);
        pollFds.set(JAVA_INT, Libc.POLLFD_FD_OFFSET, watchedFd);
        pollFds.set(JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
        pollFds.set(JAVA_INT, Libc.POLLFD_SIZE + Libc.POLLFD_FD_OFFSET, wakeFd);
        pollFds.set(JAVA_SHORT, Libc.POLLFD_SIZE + Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
    }

    /**
     * The waiting thread: blocks until the watched descriptor is readable, {@link #wakeUp} or
     * {@code deadlineNanos} ({@link Long#MAX_VALUE}: none); consumes the wake-up.
     *
     * @return true when the watched descriptor is readable.
     */
    public boolean await(final long deadlineNanos)
    {
        final int timeoutMs;
        if (deadlineNanos == Long.MAX_VALUE)
        {
            timeoutMs = -1;
        }
        else
        {
            final long remaining = deadlineNanos - System.nanoTime();
            // Rounded up: waking before the deadline would only make the caller wait again.
            timeoutMs = remaining <= 0 ? 0 : (int)Math.min(Integer.MAX_VALUE, (remaining + 999_999) / 1_000_000);
        }
        try
        {
            // 0 ready: the timeout passed or a signal interrupted the wait (revents are not to be read)
            if (Libc.poll(waitState, pollFds, 2, timeoutMs) == 0)
            {
                return false;
            }
            if ((pollFds.get(JAVA_SHORT, Libc.POLLFD_SIZE + Libc.POLLFD_REVENTS_OFFSET) & Libc.POLLIN) != 0)
            {
                // -1 (EAGAIN): the counter was already read, nothing to consume
                Libc.read(waitState, wakeFd, counter, 8L, "eventfd");
            }
        }
        catch (final NativeCallException ex)
        {
            throw failure(ex);
        }
        return (pollFds.get(JAVA_SHORT, Libc.POLLFD_REVENTS_OFFSET) & Libc.POLLIN) != 0;
    }

    /** Any thread: ends the current wait, or the next one before it starts. */
    public void wakeUp()
    {
        if (closed)
        {
            return;
        }
        try
        {
            Libc.write(wakeState.get(), wakeFd, one, 8L, "eventfd");
        }
        catch (final NativeCallException ex)
        {
            // EAGAIN: the counter is saturated, so the waiter wakes anyway.
            if (ex.errno() != Errno.EAGAIN)
            {
                throw failure(ex);
            }
        }
    }

    /** Closes the eventfd; only after the waiting thread has stopped. Idempotent. */
    @Override
    public void close()
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
        catch (final NativeCallException ex)
        {
            throw failure(ex);
        }
        finally
        {
            arena.close();
        }
    }

    private MadTransportException failure(final NativeCallException ex)
    {
        return new MadTransportException(name + ": " + ex.getMessage(), ex);
    }
}
