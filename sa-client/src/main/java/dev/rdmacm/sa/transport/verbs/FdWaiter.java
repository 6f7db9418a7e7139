package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.sa.transport.MadTransportException;
import dev.rdmacm.verbs.Errno;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
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
 * The libc handles are looked up once, here; every call is checked and its errno captured right after
 * it, so a failure names the call, the errno number and its name.
 */
public final class FdWaiter implements AutoCloseable
{
    private static final int EFD_NONBLOCK = 0x800;
    private static final int EFD_CLOEXEC = 0x80000;
    private static final short POLLIN = 0x1;
    private static final int EINTR = 4;
    /** {@code struct pollfd}: int fd, short events, short revents. */
    private static final int POLLFD_SIZE = 8;
    private static final int POLLFD_FD_OFFSET = 0;
    private static final int POLLFD_EVENTS_OFFSET = 4;
    private static final int POLLFD_REVENTS_OFFSET = 6;

    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
        CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final String DENIED;
    private static final MethodHandle EVENTFD;
    private static final MethodHandle POLL;
    private static final MethodHandle READ;
    private static final MethodHandle WRITE;
    private static final MethodHandle CLOSE;

    static
    {
        final Linker linker = Linker.nativeLinker();
        final Linker.Option errno = Linker.Option.captureCallState("errno");
        String denied = null;
        MethodHandle eventfd = null;
        MethodHandle poll = null;
        MethodHandle read = null;
        MethodHandle write = null;
        MethodHandle close = null;
        try
        {
            final var libc = linker.defaultLookup();
            eventfd = linker.downcallHandle(libc.findOrThrow("eventfd"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), errno);
            poll = linker.downcallHandle(libc.findOrThrow("poll"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), errno);
            read = linker.downcallHandle(libc.findOrThrow("read"), FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
            write = linker.downcallHandle(libc.findOrThrow("write"), FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
            close = linker.downcallHandle(libc.findOrThrow("close"), FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno);
        }
        catch (final IllegalCallerException ex)
        {
            denied = "native access to libc (eventfd, poll) is denied: start the JVM with " +
                "--enable-native-access=ALL-UNNAMED (" + ex.getMessage() + ")";
        }
        DENIED = denied;
        EVENTFD = eventfd;
        POLL = poll;
        READ = read;
        WRITE = write;
        CLOSE = close;
    }

    private final String name;
    /** Freed only by close(), after the waiting thread has stopped and no one calls wakeUp any more. */
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollFds = arena.allocate(2L * POLLFD_SIZE, 8);
    private final MemorySegment counter = arena.allocate(JAVA_LONG);
    private final MemorySegment one = arena.allocate(JAVA_LONG);
    private final MemorySegment waitErrno = arena.allocate(CAPTURE_LAYOUT);
    /** wakeUp may run on many threads at once: each needs its own errno capture. */
    private final ThreadLocal<MemorySegment> wakeErrno = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));
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
        if (DENIED != null)
        {
            arena.close();
            throw new MadTransportException(name + ": " + DENIED);
        }
        final int fd;
        try
        {
            fd = (int)EVENTFD.invokeExact(waitErrno, 0, EFD_NONBLOCK | EFD_CLOEXEC);
        }
        catch (final Throwable ex)
        {
            arena.close();
            throw unexpected("eventfd", ex);
        }
        if (fd < 0)
        {
            final MadTransportException failure = failure("eventfd", errno(waitErrno));
            arena.close();
            throw failure;
        }
        wakeFd = fd;
        one.set(JAVA_LONG, 0, 1L);
        pollFds.set(JAVA_INT, POLLFD_FD_OFFSET, watchedFd);
        pollFds.set(JAVA_SHORT, POLLFD_EVENTS_OFFSET, POLLIN);
        pollFds.set(JAVA_INT, POLLFD_SIZE + POLLFD_FD_OFFSET, wakeFd);
        pollFds.set(JAVA_SHORT, POLLFD_SIZE + POLLFD_EVENTS_OFFSET, POLLIN);
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
        final int ready;
        try
        {
            ready = (int)POLL.invokeExact(waitErrno, pollFds, 2L, timeoutMs);
        }
        catch (final Throwable ex)
        {
            throw unexpected("poll", ex);
        }
        if (ready < 0)
        {
            final int errno = errno(waitErrno);
            if (errno == EINTR)
            {
                return false;
            }
            throw failure("poll", errno);
        }
        if ((pollFds.get(JAVA_SHORT, POLLFD_SIZE + POLLFD_REVENTS_OFFSET) & POLLIN) != 0)
        {
            final long read;
            try
            {
                read = (long)READ.invokeExact(waitErrno, wakeFd, counter, 8L);
            }
            catch (final Throwable ex)
            {
                throw unexpected("read(eventfd)", ex);
            }
            if (read < 0)
            {
                throw failure("read(eventfd)", errno(waitErrno));
            }
        }
        return (pollFds.get(JAVA_SHORT, POLLFD_REVENTS_OFFSET) & POLLIN) != 0;
    }

    /** Any thread: ends the current wait, or the next one before it starts. */
    public void wakeUp()
    {
        if (closed)
        {
            return;
        }
        final MemorySegment errnoState = wakeErrno.get();
        final long written;
        try
        {
            written = (long)WRITE.invokeExact(errnoState, wakeFd, one, 8L);
        }
        catch (final Throwable ex)
        {
            throw unexpected("write(eventfd)", ex);
        }
        // EAGAIN: the counter is saturated, so the waiter wakes anyway.
        if (written < 0 && errno(errnoState) != Errno.EAGAIN)
        {
            throw failure("write(eventfd)", errno(errnoState));
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
            final int rc = (int)CLOSE.invokeExact(waitErrno, wakeFd);
            if (rc < 0)
            {
                throw failure("close(eventfd)", errno(waitErrno));
            }
        }
        catch (final MadTransportException ex)
        {
            throw ex;
        }
        catch (final Throwable ex)
        {
            throw unexpected("close(eventfd)", ex);
        }
        finally
        {
            arena.close();
        }
    }

    private static int errno(final MemorySegment state)
    {
        return (int)ERRNO.get(state, 0L);
    }

    private MadTransportException failure(final String call, final int errno)
    {
        return new MadTransportException(name + ": " + call + " failed: " + Errno.describe(errno));
    }

    private MadTransportException unexpected(final String call, final Throwable ex)
    {
        return new MadTransportException(name + ": " + call + ": unexpected " + ex, ex);
    }
}
