package dev.rdmacm.cm;

import dev.rdmacm.loop.NanoClock;

/**
 * The system clock as one duty cycle of the conductor reads it: read on the cycle's first use, then the
 * same value for everything else in that cycle (the ports' CM engines' entry points and timers), as
 * Aeron's {@code CachedNanoClock} serves a duty cycle, but read lazily, so that a cycle that asks no
 * time reads none. In a TCG guest {@code clock_gettime} is a system call, and the CM engine read the
 * clock at each MAD and each call. {@link #next} starts a cycle: at the top of each, and before the loop
 * waits, whose handlers run when it wakes. A thread other than the loop's reads the clock itself.
 */
final class CycleClock implements NanoClock
{
    /** The loop thread; only it sees the cached value. Written once, before the first cycle, by that thread. */
    private Thread owner;
    private long now;
    private boolean read;

    /** The loop thread, before its first cycle: the thread whose reads this caches. */
    void own(final Thread loop)
    {
        owner = loop;
    }

    /** A new duty cycle (or a wait) begins: the next read reads the clock. */
    void next()
    {
        read = false;
    }

    @Override
    public long nanoTime()
    {
        if (Thread.currentThread() != owner)
        {
            return System.nanoTime();
        }
        if (!read)
        {
            now = System.nanoTime();
            read = true;
        }
        return now;
    }
}
