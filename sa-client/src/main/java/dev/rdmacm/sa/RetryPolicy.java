package dev.rdmacm.sa;

import java.time.Duration;

/**
 * How an SA query's deadline is split into retries, as Linux does since the 2024 MAD-layer changes
 * (drivers/infiniband/core/sa_query.c send_mad, mad.c set_next_timeout):
 * <ul>
 *   <li>up to {@code retries} (10) retries, each after an interval of {@code timeout / retries} but never
 *   less than {@code minInterval} (the kernel's sa-min-timeout, 500 ms by default) nor less than the
 *   SA's response time from ClassPortInfo;</li>
 *   <li>the first {@code linearRetries} (4) intervals are equal, then each interval doubles, capped at
 *   {@code maxInterval} (60 s);</li>
 *   <li>whatever is left, the query ends at its deadline.</li>
 * </ul>
 */
public record RetryPolicy(int retries, Duration minInterval, int linearRetries, Duration maxInterval)
{
    /** The kernel's defaults. */
    public static final RetryPolicy KERNEL = new RetryPolicy(10, Duration.ofMillis(500), 4, Duration.ofSeconds(60));

    public RetryPolicy
    {
        if (retries < 0 || linearRetries < 0)
        {
            throw new IllegalArgumentException("retries " + retries + " and linearRetries " + linearRetries + " must be >= 0");
        }
        if (minInterval.isNegative() || maxInterval.compareTo(minInterval) < 0)
        {
            throw new IllegalArgumentException(
                "retry intervals: minInterval " + minInterval + " must be >= 0 and <= maxInterval " + maxInterval);
        }
    }

    /** The same policy with another minimum interval (the kernel's sa-min-timeout knob). */
    public RetryPolicy withMinInterval(final Duration interval)
    {
        return new RetryPolicy(retries, interval, linearRetries, maxInterval);
    }

    /** The interval before the first retry of a query whose whole deadline is {@code timeoutNanos}. */
    public long firstIntervalNanos(final long timeoutNanos, final long responseTimeNanos)
    {
        final long share = retries == 0 ? timeoutNanos : timeoutNanos / retries;
        return Math.max(Math.max(minInterval.toNanos(), share), Math.max(responseTimeNanos, 1));
    }

    /**
     * The interval after retry number {@code retriesSent} (1-based) given the interval used so far: it
     * stays linear for {@code linearRetries} retries, then doubles up to {@code maxInterval}.
     */
    public long nextIntervalNanos(final int retriesSent, final long currentNanos)
    {
        if (retriesSent < linearRetries)
        {
            return currentNanos;
        }
        return Math.min(currentNanos << 1, maxInterval.toNanos());
    }
}
