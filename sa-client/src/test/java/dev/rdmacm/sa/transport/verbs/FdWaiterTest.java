package dev.rdmacm.sa.transport.verbs;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verbs transport's wait primitive against the kernel's poll(2) and eventfd(2), watching no
 * descriptor (-1, which poll ignores) since this machine has no completion channel to offer.
 */
class FdWaiterTest
{
    private static final Duration HANG = Duration.ofSeconds(10);

    @Test
    void shouldReturnNoEarlierThanTheDeadline()
    {
        try (FdWaiter waiter = new FdWaiter(-1, "test"))
        {
            final long start = System.nanoTime();
            final long deadline = start + TimeUnit.MILLISECONDS.toNanos(50);
            assertFalse(waiter.await(deadline));
            assertTrue(System.nanoTime() - deadline >= 0, "returned before the deadline");
        }
    }

    @Test
    void shouldKeepAWakeUpThatCameBeforeTheWait()
    {
        try (FdWaiter waiter = new FdWaiter(-1, "test"))
        {
            waiter.wakeUp();
            waiter.wakeUp();
            // No deadline: only the kept wake-up can end this wait.
            assertTimeoutPreemptively(HANG, () -> assertFalse(waiter.await(Long.MAX_VALUE)));
        }
    }

    @Test
    void shouldWakeAWaitWithoutDeadlineFromAnotherThread() throws Exception
    {
        try (FdWaiter waiter = new FdWaiter(-1, "test"))
        {
            final CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> waiter.await(Long.MAX_VALUE));
            Thread.sleep(100);
            assertFalse(waited.isDone());
            waiter.wakeUp();
            assertFalse(waited.get(HANG.toSeconds(), TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldConsumeTheWakeUpSoTheNextWaitBlocksUntilItsDeadline()
    {
        try (FdWaiter waiter = new FdWaiter(-1, "test"))
        {
            waiter.wakeUp();
            waiter.await(Long.MAX_VALUE);
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
            waiter.await(deadline);
            assertTrue(System.nanoTime() - deadline >= 0, "a consumed wake-up ended the next wait");
        }
    }
}
