package dev.rdmacm.testing.guest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link GuestCpuTime} against this host's own {@code /proc/stat}, which the same kernel code writes as a guest's:
 * the CPU time this thread burns, as the kernel's scheduler counts it ({@code CLOCK_THREAD_CPUTIME_ID}), must show in
 * the machine's busy time. Counted by CPU time, not by a wall-clock window, so a loaded host only makes it slower.
 */
final class GuestCpuTimeTest
{
    private static final long BURN_NS = TimeUnit.MILLISECONDS.toNanos(300);
    /** Two ticks of {@code USER_HZ} at each end, as the kernel charges whole ticks. */
    private static final long TICK_SLACK_MS = 40;

    @Test
    @Timeout(30)
    void shouldCountTheBusyTimeOfThisThreadInTheMachinesBusyTime()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final long before = GuestCpuTime.busyMillis();
        final long cpuStart = threads.getCurrentThreadCpuTime();
        long spins = 0;
        while (threads.getCurrentThreadCpuTime() - cpuStart < BURN_NS)
        {
            spins++;
        }
        final long burnt = TimeUnit.NANOSECONDS.toMillis(threads.getCurrentThreadCpuTime() - cpuStart);
        final long after = GuestCpuTime.busyMillis();
        assertTrue(before >= 0, "/proc/stat's cpu line read: " + before);
        assertTrue(after - before >= burnt - TICK_SLACK_MS,
            "busy " + (after - before) + " ms while this thread burnt " + burnt + " ms of CPU in " + spins + " spins");
    }
}
