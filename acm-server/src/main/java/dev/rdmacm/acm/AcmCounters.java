package dev.rdmacm.acm;

import dev.rdmacm.protocol.acm.AcmCounter;

/**
 * The seven PERF_QUERY counters, once for the service and once per endpoint, and the lookups refused
 * because the endpoint's queue was full ({@link #overflowed()}; not on the wire, whose seven counters
 * are fixed: a refused non-NODELAY request also counts as an ERROR there, as ibacm counts its ENOMEM).
 * Only the server thread writes them; readers on other threads (tests, benchmarks) may see a
 * slightly stale value.
 */
public final class AcmCounters
{
    private final long[] values = new long[AcmCounter.COUNT];
    private long overflowed;

    void increment(final AcmCounter counter)
    {
        values[counter.ordinal()]++;
    }

    void overflowed()
    {
        overflowed++;
    }

    /** Lookups not started because the endpoint's SA queue or address queries were at {@code sa_queue_depth}. */
    public long overflows()
    {
        return overflowed;
    }

    public long get(final AcmCounter counter)
    {
        return values[counter.ordinal()];
    }
}
