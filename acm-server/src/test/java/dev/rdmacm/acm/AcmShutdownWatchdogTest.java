package dev.rdmacm.acm;

import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.testing.ManualNanoClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30: SIGTERM is always honoured, also when the close it starts hangs. The watchdog's bound is
 * measured on an injected clock the test moves; its halt is recorded instead of ending the test JVM
 * (both test doubles, for time and for the end of a process). {@link AcmServerLifecycleTest} shows
 * the real halt of a real process.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AcmShutdownWatchdogTest
{
    private static final long WAIT_MS = 30_000;

    /**
     * The manual clock, keeping the latest time it answered: an answer of the moved time shows that the watchdog
     * looked after the move. A count of readings could not: a reading taken between the test's count and its move
     * passed for one after it. (A clean-clone CI run on 6 December waited 30 s at the second move for a reading that
     * never came; how that count was met at the first one without the watchdog seeing the move was not found.)
     */
    private static final class SeenClock implements NanoClock
    {
        final ManualNanoClock clock = new ManualNanoClock();
        final AtomicLong seen = new AtomicLong(Long.MIN_VALUE);

        @Override
        public long nanoTime()
        {
            final long now = clock.nanoTime();
            seen.accumulateAndGet(now, Math::max);
            return now;
        }
    }

    private final SeenClock clock = new SeenClock();
    private final List<Integer> halts = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private AcmShutdownWatchdog watchdog;

    private AcmShutdownWatchdog arm()
    {
        watchdog = AcmShutdownWatchdog.arm("rdmacm acm-server", AcmShutdownWatchdog.BOUND, clock,
            new PrintStream(err, true, StandardCharsets.UTF_8), halts::add);
        return watchdog;
    }

    /** Moves the clock and waits until the watchdog has read the moved time. */
    private void advanceAndLook(final Duration by) throws InterruptedException
    {
        final long moved = clock.clock.advance(by);
        watchdog.wakeUp();
        await(() -> clock.seen.get() >= moved, "the watchdog looked at its clock");
    }

    private static void await(final BooleanSupplier condition, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean())
        {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(1);
        }
    }

    @AfterEach
    void disarm()
    {
        if (watchdog != null)
        {
            watchdog.close();
        }
    }

    @Test
    void shouldHaltWithStatusOneAndOneLineOnceTwentySecondsPassWithoutTheClose() throws Exception
    {
        arm();
        advanceAndLook(AcmShutdownWatchdog.BOUND.minusNanos(1));
        assertEquals(List.of(), halts, "1 ns before the bound");
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        advanceAndLook(Duration.ofNanos(1));
        await(() -> !halts.isEmpty(), "halted at the bound");
        assertEquals(List.of(AcmShutdownWatchdog.EXIT_HUNG), halts);
        assertEquals("rdmacm acm-server: not closed within 20000 ms of the signal; halting" + System.lineSeparator(),
            err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldNeverHaltOnceTheShutdownHasFinished() throws Exception
    {
        arm();
        advanceAndLook(AcmShutdownWatchdog.BOUND.minusNanos(1));
        watchdog.close();
        clock.clock.advance(Duration.ofHours(1));
        watchdog.wakeUp();
        assertEquals(List.of(), halts);
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldRefuseABoundThatIsNotPositive()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> AcmShutdownWatchdog.arm("x", Duration.ZERO, clock, System.err, halts::add));
        assertEquals("shutdown bound must be positive: PT0S", ex.getMessage());
    }
}
