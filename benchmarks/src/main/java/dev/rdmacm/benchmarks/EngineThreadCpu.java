package dev.rdmacm.benchmarks;

import dev.rdmacm.sa.SaClient;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** CPU time of an {@link SaClient}'s engine thread alone (ThreadMXBean), what the SA benchmarks charge the client. */
final class EngineThreadCpu
{
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long START_WAIT_NANOS = 5_000_000_000L;

    private EngineThreadCpu()
    {
    }

    /** The engine thread's CPU nanoseconds so far; waits for a client that was just started to start its thread. */
    static long nanos(final SaClient client)
    {
        return THREADS.getThreadCpuTime(engine(client).threadId());
    }

    /** The user-mode part of {@link #nanos}: the rest is the kernel's, in the engine's system calls. */
    static long userNanos(final SaClient client)
    {
        return THREADS.getThreadUserTime(engine(client).threadId());
    }

    private static Thread engine(final SaClient client)
    {
        final long deadline = System.nanoTime() + START_WAIT_NANOS;
        Thread engine;
        while ((engine = client.engineThread()) == null)
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("the SA client's engine thread did not start within 5 s");
            }
            Thread.onSpinWait();
        }
        return engine;
    }
}
