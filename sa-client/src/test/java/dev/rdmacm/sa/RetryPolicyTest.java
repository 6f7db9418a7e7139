package dev.rdmacm.sa;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

class RetryPolicyTest
{
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void shouldSplitALongDeadlineIntoTenthsAsTheKernelDoes()
    {
        assertEquals(2_000 * MS, RetryPolicy.KERNEL.firstIntervalNanos(20_000 * MS, 0));
    }

    @Test
    void shouldNeverRetryFasterThanTheKernelMinimumOf500Ms()
    {
        assertEquals(500 * MS, RetryPolicy.KERNEL.firstIntervalNanos(1_000 * MS, 0));
    }

    @Test
    void shouldWaitAtLeastTheSaResponseTime()
    {
        final long rtv16 = 4096L << 16;
        assertEquals(rtv16, RetryPolicy.KERNEL.withMinInterval(Duration.ZERO).firstIntervalNanos(1_000 * MS, rtv16));
    }

    @Test
    void shouldKeepFourLinearIntervalsThenDoubleUpTo60Seconds()
    {
        final List<Long> intervals = new ArrayList<>();
        long interval = 10_000 * MS;
        for (int retry = 1; retry <= 8; retry++)
        {
            interval = RetryPolicy.KERNEL.nextIntervalNanos(retry, interval);
            intervals.add(interval / MS);
        }
        assertEquals(List.of(10_000L, 10_000L, 10_000L, 20_000L, 40_000L, 60_000L, 60_000L, 60_000L), intervals);
    }
}
