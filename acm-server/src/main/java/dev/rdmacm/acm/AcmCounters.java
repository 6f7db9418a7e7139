package dev.rdmacm.acm;

import dev.rdmacm.protocol.acm.AcmCounter;

/**
 * The seven PERF_QUERY counters, once for the service and once per endpoint. Only the server thread
 * writes them; readers on other threads (tests, benchmarks) may see a slightly stale value.
 */
public final class AcmCounters
{
    private final long[] values = new long[AcmCounter.COUNT];

    void increment(final AcmCounter counter)
    {
        values[counter.ordinal()]++;
    }

    public long get(final AcmCounter counter)
    {
        return values[counter.ordinal()];
    }
}
