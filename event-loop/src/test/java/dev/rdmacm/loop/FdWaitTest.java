package dev.rdmacm.loop;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The loops' wait primitive against the kernel's poll(2) and eventfd(2), watching no descriptor (-1,
 * which poll ignores) since this machine has no completion channel to offer.
 */
class FdWaitTest
{
    private static final Duration HANG = Duration.ofSeconds(10);
    private static final long FIFTY_MS = TimeUnit.MILLISECONDS.toNanos(50);

    @Test
    void shouldReturnNoEarlierThanTheTimeout() throws Exception
    {
        try (FdWait wait = new FdWait(-1))
        {
            final long deadline = System.nanoTime() + FIFTY_MS;
            assertFalse(wait.await(FIFTY_MS));
            assertTrue(System.nanoTime() - deadline >= 0, "returned before the deadline");
        }
    }

    @Test
    void shouldKeepAWakeUpThatCameBeforeTheWait() throws Exception
    {
        try (FdWait wait = new FdWait(-1))
        {
            wait.wakeUp();
            wait.wakeUp();
            // No timeout: only the kept wake-up can end this wait.
            assertTimeoutPreemptively(HANG, () -> assertFalse(wait.await(Long.MAX_VALUE)));
        }
    }

    @Test
    void shouldWakeAWaitWithoutTimeoutFromAnotherThread() throws Exception
    {
        try (FdWait wait = new FdWait(-1))
        {
            final CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    return wait.await(-1);
                }
                catch (final Exception ex)
                {
                    throw new CompletionException(ex);
                }
            });
            Thread.sleep(100);
            assertFalse(waited.isDone());
            wait.wakeUp();
            assertFalse(waited.get(HANG.toSeconds(), TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldConsumeTheWakeUpSoTheNextWaitBlocksUntilItsTimeout() throws Exception
    {
        try (FdWait wait = new FdWait(-1))
        {
            wait.wakeUp();
            wait.await(Long.MAX_VALUE);
            final long deadline = System.nanoTime() + FIFTY_MS;
            wait.await(FIFTY_MS);
            assertTrue(System.nanoTime() - deadline >= 0, "a consumed wake-up ended the next wait");
        }
    }

    @Test
    void shouldRoundATimeoutUpToWholeMilliseconds()
    {
        assertEquals(-1, FdWait.timeoutMillis(-1));
        assertEquals(-1, FdWait.timeoutMillis(Long.MAX_VALUE));
        assertEquals(0, FdWait.timeoutMillis(0));
        assertEquals(1, FdWait.timeoutMillis(1));
        assertEquals(2, FdWait.timeoutMillis(1_000_001));
        assertEquals(Integer.MAX_VALUE, FdWait.timeoutMillis(Long.MAX_VALUE - 1));
    }
}
