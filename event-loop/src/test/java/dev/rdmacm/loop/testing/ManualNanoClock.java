package dev.rdmacm.loop.testing;

import dev.rdmacm.loop.NanoClock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link NanoClock} that stands still until the test moves it: a loop's timeouts, retries and
 * neighbour deadlines then fire exactly when the test says, however loaded the machine is.
 * <p>
 * In the test jar, not in main, because no user wants it: a loop on a clock nobody moves never fires a
 * timer, and every production loop runs on {@link NanoClock#SYSTEM}. It is a test double for what no
 * real peer can do (move time), and is named so.
 * <p>
 * A loop blocked in its wait does not see the clock move by itself: {@link #advance} calls the wake-ups
 * registered with {@link #onAdvance} (a loop's wake-up), so the loop looks at its deadlines again.
 */
public final class ManualNanoClock implements NanoClock
{
    private final AtomicLong now;
    private final List<Runnable> wakeUps = new CopyOnWriteArrayList<>();

    /** Starts at an arbitrary point far from 0 and from overflow, as System.nanoTime may. */
    public ManualNanoClock()
    {
        this(1_000_000_000_000L);
    }

    public ManualNanoClock(final long startNanos)
    {
        this.now = new AtomicLong(startNanos);
    }

    @Override
    public long nanoTime()
    {
        return now.get();
    }

    /** Registers what wakes a loop that runs on this clock; returns this clock. */
    public ManualNanoClock onAdvance(final Runnable wakeUp)
    {
        wakeUps.add(wakeUp);
        return this;
    }

    /** Moves the clock forward by {@code step} and wakes the loops on it; returns the new time. */
    public long advance(final Duration step)
    {
        return advanceNanos(step.toNanos());
    }

    public long advanceNanos(final long nanos)
    {
        if (nanos < 0)
        {
            throw new IllegalArgumentException("a monotonic clock does not go back: " + nanos + " ns");
        }
        final long moved = now.addAndGet(nanos);
        wakeUps.forEach(Runnable::run);
        return moved;
    }
}
