package dev.rdmacm.acm;

import dev.rdmacm.loop.NanoClock;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Halts the process when a shutdown has not finished within its bound, so that SIGTERM is always
 * honoured: a close that hangs (a dead SA thread, a back-end that never returns) must not leave a
 * process that neither serves nor ends. Armed by a shutdown hook before it closes the server, closed
 * once the close returned; if the bound passes first it prints one line and halts with
 * {@link #EXIT_HUNG}, the status {@code rdmacm acm-server} has always given then.
 * <p>
 * The bound is measured on a {@link NanoClock}, so that tests move time themselves and call
 * {@link #wakeUp()}, as with {@link AcmServer}; the halt is a parameter for the same reason.
 */
public final class AcmShutdownWatchdog implements AutoCloseable
{
    /**
     * How long a shutdown may take (the server's thread, the SA client, the CM): far more than a close
     * needs, and well inside systemd's default stop timeout of 90 s, after which it would SIGKILL us.
     */
    public static final Duration BOUND = Duration.ofSeconds(20);
    /** The process status after a halt. */
    public static final int EXIT_HUNG = 1;

    /** Ends the process; {@code Runtime::halt} outside tests, since the shutdown hooks are what hangs. */
    @FunctionalInterface
    interface Halt
    {
        void halt(int status);
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final NanoClock clock;
    private final long deadlineNs;
    private final Duration bound;
    private final PrintStream err;
    private final String name;
    private final Halt halt;
    private final Thread thread;
    private boolean disarmed;

    private AcmShutdownWatchdog(final String name, final Duration bound, final NanoClock clock, final PrintStream err,
        final Halt halt)
    {
        this.name = name;
        this.bound = bound;
        this.clock = clock;
        this.err = err;
        this.halt = halt;
        this.deadlineNs = clock.nanoTime() + bound.toNanos();
        this.thread = Thread.ofPlatform().daemon().name("acm-server-watchdog").unstarted(this::watch);
    }

    /**
     * Arms a watchdog of {@link #BOUND} on the system clock that halts with {@link #EXIT_HUNG}, and says
     * why on {@code err} as {@code name: not closed within 20000 ms of the signal; halting}.
     */
    public static AcmShutdownWatchdog arm(final String name, final PrintStream err)
    {
        return arm(name, BOUND, NanoClock.SYSTEM, err, status -> Runtime.getRuntime().halt(status));
    }

    static AcmShutdownWatchdog arm(final String name, final Duration bound, final NanoClock clock,
        final PrintStream err, final Halt halt)
    {
        if (bound.isNegative() || bound.isZero())
        {
            throw new IllegalArgumentException("shutdown bound must be positive: " + bound);
        }
        final AcmShutdownWatchdog watchdog = new AcmShutdownWatchdog(name, bound, clock, err, halt);
        watchdog.thread.start();
        return watchdog;
    }

    /** Has the watchdog look at its clock again, as after a change of the clock it was given. */
    void wakeUp()
    {
        lock.lock();
        try
        {
            changed.signalAll();
        }
        finally
        {
            lock.unlock();
        }
    }

    private void watch()
    {
        lock.lock();
        try
        {
            while (!disarmed)
            {
                final long left = deadlineNs - clock.nanoTime();
                if (left <= 0)
                {
                    err.println(name + ": not closed within " + bound.toMillis() + " ms of the signal; halting");
                    err.flush();
                    halt.halt(EXIT_HUNG);
                    return;
                }
                changed.awaitNanos(left);
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        finally
        {
            lock.unlock();
        }
    }

    /** The shutdown finished: the watchdog stops without halting; returns once its thread has ended. */
    @Override
    public void close()
    {
        lock.lock();
        try
        {
            disarmed = true;
            changed.signalAll();
        }
        finally
        {
            lock.unlock();
        }
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
