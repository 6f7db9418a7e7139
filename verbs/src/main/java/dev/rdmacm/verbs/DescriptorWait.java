package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@code poll(2)} on one descriptor for readability with a timeout: how a {@link CompletionChannel}
 * waits for its next event without blocking in {@code ibv_get_cq_event} for ever, as librdmacm's
 * examples do when they poll the channel's fd. The {@code struct pollfd} and errno capture are
 * allocated once, in an automatic arena that frees them with this object. One waiting thread at a time.
 * <pre>
 *   struct pollfd   fd (int) | events (short) = POLLIN | revents (short)
 * </pre>
 */
final class DescriptorWait implements AutoCloseable
{
    private static final long NANOS_PER_MILLI = 1_000_000L;

    /** Automatic: one per completion channel that is waited on, and closing a shared arena is a handshake with every thread. */
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment pollFd = arena.allocate(Libc.POLLFD_SIZE, 8);
    private final Libc.CallState state = new Libc.CallState(arena);
    private final String what;

    DescriptorWait(final int fd, final String what)
    {
        this.what = what;
        pollFd.set(JAVA_INT, Libc.POLLFD_FD_OFFSET, fd);
        pollFd.set(JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
    }

    /**
     * @param timeoutNanos how long at most (rounded up to whole milliseconds; negative: no limit).
     * @return true when the descriptor is readable, false when the time passed (or a signal came).
     * @throws VerbsException with poll's errno when poll fails, or EBADF when the descriptor is not open.
     */
    boolean awaitReadable(final long timeoutNanos)
    {
        final int timeoutMs = timeoutNanos < 0 ? -1
            : (int)Math.min(Integer.MAX_VALUE, (timeoutNanos + NANOS_PER_MILLI - 1) / NANOS_PER_MILLI);
        final int ready;
        try
        {
            ready = Libc.poll(state, pollFd, 1, timeoutMs);
        }
        catch (final NativeCallException ex)
        {
            throw new VerbsException("poll", ex.errno(), what);
        }
        if (ready == 0)
        {
            return false;
        }
        final short revents = pollFd.get(JAVA_SHORT, Libc.POLLFD_REVENTS_OFFSET);
        if ((revents & Libc.POLLNVAL) != 0)
        {
            throw new VerbsException("poll", Errno.EBADF, what + ": the descriptor is not open (POLLNVAL)");
        }
        return (revents & (Libc.POLLIN | Libc.POLLERR)) != 0;
    }

    /** The pollfd's memory goes with this object (an automatic arena): nothing to free now. */
    @Override
    public void close()
    {
    }
}
