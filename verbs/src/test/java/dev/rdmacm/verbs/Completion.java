package dev.rdmacm.verbs;

import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * One work completion copied out of a {@link WorkCompletions} array, and the bounded waits the
 * soft-RoCE tests use to get one: a test must fail on a lost datagram, not hang in
 * {@code ibv_get_cq_event}, which no JUnit timeout can interrupt.
 */
record Completion(long wrId, int status, int opcode, long byteLength, int qpNumber, int sourceQp, int flags, int pkeyIndex,
    int immediate)
{
    private static final long LIMIT_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final long POLL_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    static Completion of(final WorkCompletions completions, final int i)
    {
        return new Completion(completions.wrId(i), completions.status(i), completions.opcode(i), completions.byteLength(i),
            completions.qpNumber(i), completions.sourceQp(i), completions.flags(i), completions.pkeyIndex(i),
            completions.immediateData(i));
    }

    /** Polls {@code cq} until it yields exactly one completion, for at most 10 s. */
    static Completion awaitOne(final CompletionQueue cq)
    {
        return awaitAll(cq, 1).getFirst();
    }

    /** Polls {@code cq} until it has yielded exactly {@code count} completions, for at most 10 s. */
    static List<Completion> awaitAll(final CompletionQueue cq, final int count)
    {
        final List<Completion> seen = new ArrayList<>();
        try (WorkCompletions completions = new WorkCompletions(count + 1))
        {
            final long deadline = System.nanoTime() + LIMIT_NANOS;
            while (seen.size() < count && System.nanoTime() - deadline < 0)
            {
                final int polled = cq.poll(completions);
                for (int i = 0; i < polled; i++)
                {
                    seen.add(of(completions, i));
                }
                // rxe does its work in the guest's kernel threads: leave them the CPU
                LockSupport.parkNanos(POLL_PAUSE_NANOS);
            }
            if (seen.size() != count || cq.poll(completions) != 0)
            {
                throw new AssertionError(cq + " yielded " + seen + " within 10 s, expected " + count + " completion(s)");
            }
            return seen;
        }
    }

    /** Waits up to 10 s for {@code channel}'s fd to become readable, then takes the event. */
    static CompletionQueue awaitEvent(final CompletionChannel channel)
    {
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pollfd = arena.allocate(Libc.POLLFD_SIZE);
            pollfd.set(JAVA_INT, Libc.POLLFD_FD_OFFSET, channel.fd());
            pollfd.set(JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
            final int ready = Libc.poll(new Libc.CallState(arena), pollfd, 1, (int)TimeUnit.NANOSECONDS.toMillis(LIMIT_NANOS));
            if (ready != 1)
            {
                throw new AssertionError(channel + " raised no completion event within 10 s");
            }
            return channel.awaitEvent();
        }
        catch (final NativeCallException ex)
        {
            throw new AssertionError("poll on " + channel + ": " + ex.getMessage(), ex);
        }
    }
}
