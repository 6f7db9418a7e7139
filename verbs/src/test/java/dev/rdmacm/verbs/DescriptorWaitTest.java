package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The wait a {@link CompletionChannel} makes before {@code ibv_get_cq_event}, against the real kernel's
 * {@code poll(2)} on an eventfd standing in for the channel's descriptor (an eventfd is readable once
 * written, as a channel is once an armed CQ completes): no device is needed for that part. Taking,
 * re-arming and acknowledging events are exercised on rxe by {@code rdmacm rping} in the guests.
 */
@Timeout(10)
class DescriptorWaitTest
{
    @Test
    void shouldWaitTheWholeTimeoutWhileTheDescriptorIsQuiet() throws NativeCallException
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Libc.CallState state = new Libc.CallState(arena);
            final int fd = Libc.eventfd(state, 0, Libc.EFD_CLOEXEC);
            try (DescriptorWait wait = new DescriptorWait(fd, "eventfd"))
            {
                final long start = System.nanoTime();
                assertFalse(wait.awaitReadable(Duration.ofMillis(120).toNanos()));
                assertTrue(System.nanoTime() - start >= Duration.ofMillis(120).toNanos(), "poll returned early");
            }
            finally
            {
                Libc.close(state, fd);
            }
        }
    }

    @Test
    void shouldReturnAtOnceWhenTheDescriptorIsReadable() throws NativeCallException
    {
        try (Arena arena = Arena.ofConfined())
        {
            final Libc.CallState state = new Libc.CallState(arena);
            final int fd = Libc.eventfd(state, 0, Libc.EFD_CLOEXEC);
            try (DescriptorWait wait = new DescriptorWait(fd, "eventfd"))
            {
                final MemorySegment one = arena.allocate(JAVA_LONG);
                one.set(JAVA_LONG, 0, 1L);
                Libc.write(state, fd, one, 8L, "eventfd");
                final long start = System.nanoTime();
                assertTrue(wait.awaitReadable(Duration.ofSeconds(5).toNanos()));
                assertTrue(System.nanoTime() - start < Duration.ofSeconds(1).toNanos(), "poll waited although readable");
            }
            finally
            {
                Libc.close(state, fd);
            }
        }
    }

    @Test
    void shouldReportADescriptorThatIsNotOpenAsEbadf() throws NativeCallException
    {
        final int fd;
        try (Arena arena = Arena.ofConfined())
        {
            final Libc.CallState state = new Libc.CallState(arena);
            fd = Libc.eventfd(state, 0, Libc.EFD_CLOEXEC);
            Libc.close(state, fd);
        }
        try (DescriptorWait wait = new DescriptorWait(fd, "completion channel on test"))
        {
            final VerbsException refused = assertThrows(VerbsException.class, () -> wait.awaitReadable(0));
            assertEquals(Errno.EBADF, refused.errno(), refused.getMessage());
            assertTrue(refused.getMessage().contains("completion channel on test"), refused.getMessage());
        }
    }
}
