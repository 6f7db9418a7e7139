package dev.rdmacm.loop;

import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The deadlines of one loop, each owned by a subject (a pending resolution, an SA transaction, an ACM
 * lookup): Agrona's {@link DeadlineTimerWheel} underneath, on the loop's {@link NanoClock}, with the
 * two things every loop needs on top of it.
 * <ul>
 *   <li><b>The earliest deadline</b>: a lower bound kept as timers are scheduled, exact until the
 *   timer that set it fires or is cancelled; only then is the wheel scanned. The loop's wait
 *   ({@link #nanosToEarliest}) does not scan while that bound is still ahead: it wakes at the bound at
 *   worst, early and harmlessly, instead of scanning all 1,024 ticks of the wheel after every answer
 *   that cancels the oldest timer (measured: the SA engine's CPU per query, issue 15).</li>
 *   <li><b>Catch-up</b>: the wheel advances one tick per poll, so after a long wait {@link #expire}
 *   polls until it reaches now; a wheel with no timers jumps to now instead of stepping through the
 *   idle ticks.</li>
 * </ul>
 * Not thread-safe: the loop thread alone uses it.
 *
 * @param <T> what a timer belongs to.
 */
public final class DeadlineTimers<T>
{
    /** The id of no timer. */
    public static final long NULL_TIMER = DeadlineTimerWheel.NULL_DEADLINE;
    /** 2^20 ns, about 1 ms: deadlines are met within a tick. */
    private static final long TICK_NANOS = 1L << 20;
    private static final int TICKS_PER_WHEEL = 1024;

    /** Called for every timer that is due. */
    @FunctionalInterface
    public interface Expiry<T>
    {
        void onDeadline(T subject, long timerId, long nowNanos);
    }

    private final NanoClock clock;
    private final DeadlineTimerWheel wheel;
    private final Long2ObjectHashMap<T> subjects = new Long2ObjectHashMap<>();
    private final DeadlineTimerWheel.TimerConsumer earliestFinder = (deadline, timerId) ->
    {
        if (deadline < this.earliest)
        {
            this.earliest = deadline;
        }
    };
    private Expiry<T> expiry;
    private final DeadlineTimerWheel.TimerHandler handler = this::onTimerExpiry;
    /** No timer is due before this; exact unless {@link #stale}. */
    private long earliest = Long.MAX_VALUE;
    private boolean stale;

    public DeadlineTimers(final NanoClock clock)
    {
        this.clock = clock;
        this.wheel = new DeadlineTimerWheel(TimeUnit.NANOSECONDS, clock.nanoTime(), TICK_NANOS, TICKS_PER_WHEEL);
    }

    public NanoClock clock()
    {
        return clock;
    }

    /** Schedules a timer for {@code subject} at {@code deadlineNanos} (on the clock); returns its id. */
    public long schedule(final T subject, final long deadlineNanos)
    {
        final long timerId = wheel.scheduleTimer(deadlineNanos);
        subjects.put(timerId, subject);
        if (deadlineNanos < earliest)
        {
            earliest = deadlineNanos;
        }
        return timerId;
    }

    /** Cancels {@code timerId} ({@link #NULL_TIMER} or one already fired: nothing); returns {@link #NULL_TIMER}. */
    public long cancel(final long timerId)
    {
        if (timerId != NULL_TIMER && subjects.remove(timerId) != null)
        {
            if (wheel.deadline(timerId) <= earliest)
            {
                stale = true;
            }
            wheel.cancelTimer(timerId);
        }
        return NULL_TIMER;
    }

    /** {@link #cancel} then {@link #schedule}: moves a subject's one timer. */
    public long reschedule(final long timerId, final T subject, final long deadlineNanos)
    {
        cancel(timerId);
        return schedule(subject, deadlineNanos);
    }

    public int count()
    {
        return subjects.size();
    }

    /** The subjects that have a timer, copied: the caller may cancel while it iterates. */
    public List<T> subjects()
    {
        return new ArrayList<>(subjects.values());
    }

    /** The earliest deadline on the clock, or {@link Long#MAX_VALUE} when no timer is set. */
    public long earliestDeadline()
    {
        if (subjects.isEmpty())
        {
            return Long.MAX_VALUE;
        }
        if (stale)
        {
            earliest = Long.MAX_VALUE;
            wheel.forEach(earliestFinder);
            stale = false;
        }
        return earliest;
    }

    /**
     * How long the loop may wait from {@code nowNanos}: 0 when a timer is due, {@link Long#MAX_VALUE}
     * when none is set. Never longer than the wait to the earliest timer, but shorter when that timer
     * was cancelled and the bound it set is still ahead: the wheel is scanned only once that bound has
     * passed.
     */
    public long nanosToEarliest(final long nowNanos)
    {
        if (subjects.isEmpty())
        {
            return Long.MAX_VALUE;
        }
        if (stale && earliest - nowNanos > 0)
        {
            return earliest - nowNanos;
        }
        final long deadline = earliestDeadline();
        return deadline == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, deadline - nowNanos);
    }

    /**
     * Hands every timer due at {@code nowNanos} (at most {@code limit}) to {@code onDeadline}; the timer
     * is gone when it is called, so the subject may schedule a new one.
     *
     * @return how many fired.
     */
    public int expire(final long nowNanos, final Expiry<T> onDeadline, final int limit)
    {
        if (subjects.isEmpty())
        {
            if (wheel.timerCount() == 0)
            {
                // Nothing to skip over: jump the wheel to now instead of stepping through the idle ticks.
                wheel.currentTickTime(nowNanos);
            }
            return 0;
        }
        expiry = onDeadline;
        int expired = 0;
        try
        {
            // The wheel advances at most one tick per poll: catch up after a long sleep in the loop's
            // wait, until a poll no longer advances it (the tick holding now has been polled too).
            long tickTime;
            do
            {
                tickTime = wheel.currentTickTime();
                expired += wheel.poll(nowNanos, handler, limit - expired);
            }
            while (wheel.currentTickTime() != tickTime && expired < limit);
        }
        finally
        {
            expiry = null;
        }
        return expired;
    }

    private boolean onTimerExpiry(final TimeUnit unit, final long now, final long timerId)
    {
        final T subject = subjects.remove(timerId);
        stale = true;
        if (subject != null)
        {
            expiry.onDeadline(subject, timerId, now);
        }
        return true;
    }
}
