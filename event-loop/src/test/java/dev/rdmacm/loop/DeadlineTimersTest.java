package dev.rdmacm.loop;

import dev.rdmacm.loop.testing.ManualNanoClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The deadline bookkeeping every loop shares, on a clock the test moves. */
class DeadlineTimersTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final ManualNanoClock clock = new ManualNanoClock();
    private final DeadlineTimers<String> timers = new DeadlineTimers<>(clock);
    private final List<String> fired = new ArrayList<>();

    @Test
    void shouldReportTheEarliestDeadline()
    {
        final long now = clock.nanoTime();
        timers.schedule("late", now + 300 * MS);
        timers.schedule("early", now + 100 * MS);
        assertEquals(now + 100 * MS, timers.earliestDeadline());
        assertEquals(100 * MS, timers.nanosToEarliest(now));
    }

    @Test
    void shouldFindTheNextDeadlineWhenTheEarliestIsCancelled()
    {
        final long now = clock.nanoTime();
        final long early = timers.schedule("early", now + 100 * MS);
        timers.schedule("late", now + 300 * MS);
        timers.cancel(early);
        assertEquals(now + 300 * MS, timers.earliestDeadline());
        assertEquals(1, timers.count());
    }

    @Test
    void shouldWaitUntilTheCancelledTimersBoundThenUntilTheNextDeadline()
    {
        final long now = clock.nanoTime();
        final long early = timers.schedule("early", now + 100 * MS);
        timers.schedule("late", now + 300 * MS);
        timers.cancel(early);
        // an early wake-up instead of a scan of the wheel
        assertEquals(100 * MS, timers.nanosToEarliest(now));
        clock.advance(Duration.ofMillis(100));
        assertEquals(200 * MS, timers.nanosToEarliest(clock.nanoTime()));
    }

    @Test
    void shouldSayNoWaitLimitOnceTheLastTimerIsCancelled()
    {
        final long now = clock.nanoTime();
        timers.cancel(timers.schedule("only", now + 100 * MS));
        assertEquals(Long.MAX_VALUE, timers.nanosToEarliest(now));
    }

    @Test
    void shouldSayNoDeadlineWhenNoTimerIsSet()
    {
        assertEquals(Long.MAX_VALUE, timers.earliestDeadline());
        assertEquals(Long.MAX_VALUE, timers.nanosToEarliest(clock.nanoTime()));
    }

    @Test
    void shouldFireNothingBeforeItsDeadline()
    {
        timers.schedule("a", clock.nanoTime() + 100 * MS);
        clock.advance(Duration.ofMillis(99));
        assertEquals(0, timers.expire(clock.nanoTime(), this::onDeadline, 1024));
        assertEquals(List.of(), fired);
    }

    @Test
    void shouldCatchUpAfterALateWakeUp()
    {
        final long now = clock.nanoTime();
        timers.schedule("a", now + 10 * MS);
        timers.schedule("b", now + 500 * MS);
        timers.schedule("c", now + 5_000 * MS);
        // one wake-up long after all three deadlines: every due timer fires in that one call
        clock.advance(Duration.ofSeconds(60));
        assertEquals(3, timers.expire(clock.nanoTime(), this::onDeadline, 1024));
        assertEquals(List.of("a", "b", "c"), fired);
        assertEquals(0, timers.count());
    }

    @Test
    void shouldLetASubjectScheduleAgainFromItsExpiry()
    {
        timers.schedule("retry", clock.nanoTime() + 100 * MS);
        clock.advance(Duration.ofMillis(100));
        timers.expire(clock.nanoTime(), (subject, id, nowNanos) ->
        {
            fired.add(subject);
            timers.schedule(subject, nowNanos + 100 * MS);
        }, 1024);
        assertEquals(List.of("retry"), fired);
        assertEquals(clock.nanoTime() + 100 * MS, timers.earliestDeadline());
    }

    @Test
    void shouldNotFireACancelledTimer()
    {
        final long id = timers.schedule("a", clock.nanoTime() + 10 * MS);
        timers.cancel(id);
        clock.advance(Duration.ofSeconds(1));
        assertEquals(0, timers.expire(clock.nanoTime(), this::onDeadline, 1024));
        assertTrue(fired.isEmpty());
    }

    @Test
    void shouldFireATimerScheduledAfterALongIdlePeriodOnTime()
    {
        clock.advance(Duration.ofHours(5));
        timers.expire(clock.nanoTime(), this::onDeadline, 1024);
        timers.schedule("a", clock.nanoTime() + 10 * MS);
        clock.advance(Duration.ofMillis(10));
        assertEquals(1, timers.expire(clock.nanoTime(), this::onDeadline, 1024));
        assertEquals(List.of("a"), fired);
    }

    private void onDeadline(final String subject, final long timerId, final long nowNanos)
    {
        fired.add(subject);
    }
}
