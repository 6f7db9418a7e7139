package dev.rdmacm.loop;

import dev.rdmacm.libc.Libc;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The loops' poll set against the kernel's poll(2), with real eventfds and pipes as the watched
 * descriptors and real threads as producers.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PollSetTest
{
    private static final Duration HANG = Duration.ofSeconds(10);
    private static final long FIFTY_MS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long NO_TIMEOUT = Long.MAX_VALUE;

    private final Arena arena = Arena.ofShared();
    private final Libc.CallState call = new Libc.CallState(arena);
    private final List<Integer> opened = new ArrayList<>();

    @AfterEach
    void closeDescriptors()
    {
        for (final int fd : opened)
        {
            Libc.close(call, fd);
        }
        arena.close();
    }

    @Test
    void shouldDispatchOnlyTheReadyDescriptor()
    {
        final int quiet = eventfd();
        final int ready = eventfd();
        final List<Integer> dispatched = new ArrayList<>();
        try (PollSet set = new PollSet())
        {
            set.add(quiet, (fd, revents) -> record(dispatched, fd));
            set.add(ready, (fd, revents) -> record(dispatched, fd));
            signal(ready);

            assertEquals(1, set.poll());
            assertEquals(List.of(ready), dispatched);
        }
    }

    @Test
    void shouldDispatchWhatTheWaitFoundWithoutPollingAgain()
    {
        final int ready = eventfd();
        final List<Integer> dispatched = new ArrayList<>();
        try (PollSet set = new PollSet())
        {
            set.add(ready, (fd, revents) -> record(dispatched, fd));
            signal(ready);

            assertEquals(1, set.await(NO_TIMEOUT, () -> false));
            assertEquals(0, set.poll(), "the duty cycle after a wait polls nothing new");
            assertEquals(List.of(ready), dispatched);
        }
    }

    @Test
    void shouldReportHangUpWhenThePipesWriterCloses()
    {
        final MemorySegment ends = arena.allocate(JAVA_INT, 2);
        Libc.pipe2(call, ends, Libc.O_NONBLOCK | Libc.O_CLOEXEC);
        final int readEnd = ends.getAtIndex(JAVA_INT, 0);
        opened.add(readEnd);
        Libc.close(call, ends.getAtIndex(JAVA_INT, 1));
        final int[] seen = {0};
        try (PollSet set = new PollSet())
        {
            set.add(readEnd, (fd, revents) ->
            {
                seen[0] = revents;
                return 1;
            });

            assertEquals(1, set.poll());
            assertEquals(Libc.POLLHUP, seen[0] & Libc.POLLHUP);
        }
    }

    @Test
    void shouldDispatchAWritableDescriptorWatchedForPolloutUntilItIsWatchedForPollinAgain()
    {
        // an empty eventfd is writable and not readable: a connected socket before its reply, so to speak
        final int writable = eventfd();
        final List<Integer> seen = new ArrayList<>();
        try (PollSet set = new PollSet())
        {
            set.add(writable, Libc.POLLOUT, (fd, revents) -> record(seen, revents));

            assertEquals(1, set.poll());
            set.watch(writable, Libc.POLLIN);
            assertEquals(0, set.poll(), "not readable");
            signal(writable);
            assertEquals(1, set.poll());
            assertEquals(List.of((int)Libc.POLLOUT, (int)Libc.POLLIN), seen);
        }
    }

    @Test
    void shouldNameADescriptorClosedWhileStillPolled()
    {
        final int fd = Libc.eventfd(call, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
        try (PollSet set = new PollSet())
        {
            set.add(fd, (ready, revents) -> 1);
            Libc.close(call, fd);

            final IllegalStateException ex = assertThrows(IllegalStateException.class, set::poll);
            assertEquals("fd " + fd + " was closed while still in the poll set (POLLNVAL)", ex.getMessage());
        }
    }

    @Test
    void shouldStopDispatchingARemovedDescriptorAndKeepTheOthers()
    {
        final int first = eventfd();
        final int second = eventfd();
        final int third = eventfd();
        final List<Integer> dispatched = new ArrayList<>();
        try (PollSet set = new PollSet())
        {
            set.add(first, (fd, revents) -> record(dispatched, fd));
            set.add(second, (fd, revents) -> record(dispatched, fd));
            set.add(third, (fd, revents) -> record(dispatched, fd));
            assertTrue(set.remove(first));
            assertFalse(set.remove(first));
            signal(first);
            signal(third);

            set.poll();
            assertEquals(List.of(third), dispatched);
            assertEquals(2, set.size());
        }
    }

    @Test
    void shouldLetAHandlerRemoveItsOwnDescriptorDuringDispatch()
    {
        final int first = eventfd();
        final int second = eventfd();
        final List<Integer> dispatched = new ArrayList<>();
        try (PollSet set = new PollSet())
        {
            set.add(first, (fd, revents) ->
            {
                set.remove(fd);
                return record(dispatched, fd);
            });
            set.add(second, (fd, revents) -> record(dispatched, fd));
            signal(first);
            signal(second);

            assertEquals(2, set.poll());
            assertEquals(1, set.size());
            dispatched.clear();
            assertEquals(1, set.poll(), "the level-triggered eventfd is still readable, only the second is watched");
            assertEquals(List.of(second), dispatched);
        }
    }

    @Test
    void shouldGrowBeyondItsInitialCapacity()
    {
        final List<Integer> dispatched = new ArrayList<>();
        try (PollSet set = new PollSet())
        {
            for (int i = 0; i < 20; i++)
            {
                set.add(eventfd(), (fd, revents) -> record(dispatched, fd));
            }
            final int last = opened.getLast();
            signal(last);

            assertEquals(1, set.poll());
            assertEquals(List.of(last), dispatched);
        }
    }

    @Test
    void shouldRejectADescriptorTwice()
    {
        final int fd = eventfd();
        try (PollSet set = new PollSet())
        {
            set.add(fd, (ready, revents) -> 1);

            final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> set.add(fd, (ready, revents) -> 1));
            assertEquals("fd " + fd + " is already in the poll set", ex.getMessage());
        }
    }

    @Test
    void shouldReturnNoEarlierThanTheTimeout()
    {
        try (PollSet set = new PollSet())
        {
            final long deadline = System.nanoTime() + FIFTY_MS;
            assertEquals(0, set.await(FIFTY_MS, () -> false));
            assertTrue(System.nanoTime() - deadline >= 0, "returned before the deadline");
        }
    }

    @Test
    void shouldNotWaitWhenWorkIsPending()
    {
        try (PollSet set = new PollSet())
        {
            // No timeout: only the pending work can end this at once.
            assertTimeoutPreemptively(HANG, () -> assertEquals(0, set.await(NO_TIMEOUT, () -> true)));
            assertFalse(set.isWaiting());
        }
    }

    @Test
    void shouldNotWriteTheEventfdForALoopThatRuns()
    {
        try (PollSet set = new PollSet())
        {
            set.wakeUp();
            set.wakeUp();

            assertEquals(0, set.wakeUpWrites());
        }
    }

    @Test
    void shouldWakeAWaitWithoutTimeoutFromAnotherThreadWithOneWrite() throws Exception
    {
        try (PollSet set = new PollSet())
        {
            final CompletableFuture<Integer> waited = CompletableFuture.supplyAsync(() -> set.await(NO_TIMEOUT, () -> false));
            while (!set.isWaiting())
            {
                Thread.onSpinWait();
            }
            set.wakeUp();
            set.wakeUp();

            assertEquals(0, waited.get(HANG.toSeconds(), TimeUnit.SECONDS));
            assertEquals(1, set.wakeUpWrites());
        }
    }

    @Test
    void shouldConsumeTheWakeUpSoTheNextWaitBlocksUntilItsTimeout() throws Exception
    {
        try (PollSet set = new PollSet())
        {
            final CompletableFuture<Integer> waited = CompletableFuture.supplyAsync(() -> set.await(NO_TIMEOUT, () -> false));
            while (!set.isWaiting())
            {
                Thread.onSpinWait();
            }
            set.wakeUp();
            waited.get(HANG.toSeconds(), TimeUnit.SECONDS);

            final long deadline = System.nanoTime() + FIFTY_MS;
            set.await(FIFTY_MS, () -> false);
            assertTrue(System.nanoTime() - deadline >= 0, "a consumed wake-up ended the next wait");
        }
    }

    @Test
    void shouldLoseNoWakeUpBetweenProducersAndAWaitingLoop() throws Exception
    {
        final int producers = 3;
        final int perProducer = 20_000;
        final ManyToOneConcurrentLinkedQueue<Integer> queue = new ManyToOneConcurrentLinkedQueue<>();
        try (PollSet set = new PollSet())
        {
            final List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++)
            {
                final int producer = p;
                threads.add(Thread.ofPlatform().start(() ->
                {
                    for (int i = 0; i < perProducer; i++)
                    {
                        queue.offer(producer);
                        set.wakeUp();
                    }
                }));
            }
            // The loop waits without a timeout: a lost wake-up hangs it, and the test fails on HANG.
            assertTimeoutPreemptively(HANG, () ->
            {
                int taken = 0;
                while (taken < producers * perProducer)
                {
                    while (queue.poll() != null)
                    {
                        taken++;
                    }
                    if (taken < producers * perProducer)
                    {
                        set.await(NO_TIMEOUT, () -> !queue.isEmpty());
                    }
                }
            });
            for (final Thread thread : threads)
            {
                thread.join();
            }
            assertTrue(set.wakeUpWrites() <= producers * perProducer);
        }
    }

    @Test
    void shouldShutProducersOutWhileClosing() throws Exception
    {
        final PollSet set = new PollSet();
        final AtomicBoolean stop = new AtomicBoolean();
        final CompletableFuture<Void> producer = CompletableFuture.runAsync(() ->
        {
            while (!stop.get())
            {
                set.wakeUp();
            }
        });
        for (int i = 0; i < 100; i++)
        {
            set.await(TimeUnit.MILLISECONDS.toNanos(1), () -> false);
        }
        set.close();
        set.wakeUp();
        stop.set(true);
        producer.get(HANG.toSeconds(), TimeUnit.SECONDS);
        set.close();
    }

    @Test
    void shouldRoundATimeoutUpToWholeMilliseconds()
    {
        assertEquals(-1, PollSet.timeoutMillis(-1));
        assertEquals(-1, PollSet.timeoutMillis(Long.MAX_VALUE));
        assertEquals(0, PollSet.timeoutMillis(0));
        assertEquals(1, PollSet.timeoutMillis(1));
        assertEquals(2, PollSet.timeoutMillis(1_000_001));
        assertEquals(Integer.MAX_VALUE, PollSet.timeoutMillis(Long.MAX_VALUE - 1));
    }

    private int eventfd()
    {
        final int fd = Libc.eventfd(call, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
        opened.add(fd);
        return fd;
    }

    private void signal(final int fd)
    {
        final MemorySegment one = arena.allocate(JAVA_LONG);
        one.set(JAVA_LONG, 0, 1L);
        Libc.write(call, fd, one, 8L, "test eventfd");
    }

    private static int record(final List<Integer> dispatched, final int fd)
    {
        dispatched.add(fd);
        return 1;
    }
}
