package dev.rdmacm.loop;

import dev.rdmacm.loop.testing.ManualNanoClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
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
    void shouldWaitForTheNextDeadlineOnceTheEarliestIsCancelled()
    {
        final long now = clock.nanoTime();
        final long early = timers.schedule("early", now + 100 * MS);
        timers.schedule("late", now + 300 * MS);
        timers.cancel(early);
        assertEquals(300 * MS, timers.nanosToEarliest(now));
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

    @Test
    void shouldFireDueTimersEarliestFirst()
    {
        final long now = clock.nanoTime();
        timers.schedule("c", now + 30 * MS);
        timers.schedule("a", now + 10 * MS);
        timers.schedule("d", now + 40 * MS);
        timers.schedule("b", now + 20 * MS);
        clock.advance(Duration.ofMillis(30));
        assertEquals(3, timers.expire(clock.nanoTime(), this::onDeadline, 1024));
        assertEquals(List.of("a", "b", "c"), fired);
        assertEquals(now + 40 * MS, timers.earliestDeadline());
    }

    @Test
    void shouldFireNoMoreThanTheLimitInOneCall()
    {
        final long now = clock.nanoTime();
        for (int i = 0; i < 5; i++)
        {
            timers.schedule("t" + i, now + i * MS);
        }
        clock.advance(Duration.ofSeconds(1));
        assertEquals(2, timers.expire(clock.nanoTime(), this::onDeadline, 2));
        assertEquals(List.of("t0", "t1"), fired);
        assertEquals(3, timers.count());
    }

    @Test
    void shouldNotCancelTheTimerThatReusedAFiredTimersSlot()
    {
        final long now = clock.nanoTime();
        final long first = timers.schedule("first", now + 10 * MS);
        timers.cancel(first);
        final long second = timers.schedule("second", now + 20 * MS);
        timers.cancel(first);
        assertEquals(1, timers.count());
        assertEquals(now + 20 * MS, timers.earliestDeadline());
        assertTrue(first != second, "a reused slot gets a new id");
    }

    @Test
    void shouldHoldTenThousandTimersOfOneDeadlineInSlotsForTenThousand()
    {
        final long deadline = clock.nanoTime() + 600_000 * MS;
        for (int i = 0; i < 10_000; i++)
        {
            timers.schedule("t" + i, deadline);
        }
        // Agrona's wheel needed 2^24 longs (128 MB) for these: every tick as deep as the fullest one
        assertEquals(16_384, timers.capacity());
        assertEquals(10_000, timers.count());
    }

    @Test
    void shouldFireWhatASortedListWouldUnderRandomScheduleAndCancel()
    {
        final Random random = new Random(15);
        final TreeMap<Long, String> model = new TreeMap<>();
        final Map<String, Long> ids = new HashMap<>();
        final long start = clock.nanoTime();
        for (int round = 0; round < 20_000; round++)
        {
            if (!ids.isEmpty() && random.nextInt(3) == 0)
            {
                final String victim = ids.keySet().iterator().next();
                timers.cancel(ids.remove(victim));
                model.values().remove(victim);
            }
            else
            {
                // distinct deadlines, so the model's order is the only right one
                final long deadline = start + random.nextLong(1_000_000) * 1_000 + round;
                final String name = "t" + round;
                ids.put(name, timers.schedule(name, deadline));
                model.put(deadline, name);
            }
        }
        assertEquals(model.size(), timers.count());
        clock.advance(Duration.ofSeconds(2_000));
        timers.expire(clock.nanoTime(), this::onDeadline, Integer.MAX_VALUE);
        assertEquals(new ArrayList<>(model.values()), fired);
    }

    private void onDeadline(final String subject, final long timerId, final long nowNanos)
    {
        fired.add(subject);
    }
}
