package dev.rdmacm.cm;

/**
 * The commands one thread has sent to the conductor and the conductor has run: a caller may finish a
 * call on its own thread ({@link CallerResolution}) only once every command it sent before has run, so
 * that its calls take effect in the order it made them, as each {@code rdma_cm} call takes effect
 * inside its write in the kernel. {@code rdma_destroy_id} does not wait for the conductor; the port it
 * frees must be free for the thread's next call. Commands of other threads are not waited for: no
 * order between two threads' calls is promised but the one they make themselves.
 * <p>
 * One per thread; {@link #sending} is written by that thread only, {@link #ran} by whichever thread runs
 * its commands (the conductor, or the sender once the conductor has ended), one command at a time.
 */
final class ThreadCommands
{
    private static final ThreadLocal<ThreadCommands> OF_THREAD = ThreadLocal.withInitial(ThreadCommands::new);

    /** The owning thread's only. */
    private long sent;
    private volatile long ran;

    private ThreadCommands()
    {
    }

    /** {@return the calling thread's} */
    static ThreadCommands ofThisThread()
    {
        return OF_THREAD.get();
    }

    /** The owning thread, before it queues a command. */
    void sending()
    {
        sent++;
    }

    /** Whoever ran one of the owner's commands, after it ran (whether it threw or not). */
    void ran()
    {
        ran = ran + 1;
    }

    /** The owning thread: whether every command it sent has run. */
    boolean allRan()
    {
        return ran == sent;
    }

    /**
     * The owning thread: whether every command it sent has run, spinning up to {@code spinNanos} for
     * them (a destroy just queued, say), as a synchronous call spins for its reply before it parks,
     * after {@code wakeUp} (the conductor may sleep on a hand-over it was not woken for).
     * Once true it stays true until the thread sends again.
     */
    boolean awaitAllRan(final long spinNanos, final Runnable wakeUp)
    {
        if (ran == sent)
        {
            return true;
        }
        // a hand-over queued without a wake-up (rdma_create_qp's QP) would otherwise wait for the next one
        wakeUp.run();
        final long until = System.nanoTime() + spinNanos;
        while (ran != sent)
        {
            if (System.nanoTime() - until >= 0)
            {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }
}
