package dev.rdmacm.sa;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The engine's counters: written by its one thread, readable from any thread at any time.
 */
public final class SaCounters
{
    private static final SaCounter[] ALL = SaCounter.values();
    private final AtomicLongArray values = new AtomicLongArray(ALL.length);

    void increment(final SaCounter counter)
    {
        values.lazySet(counter.ordinal(), values.get(counter.ordinal()) + 1);
    }

    public long get(final SaCounter counter)
    {
        return values.get(counter.ordinal());
    }

    /** Every counter, in declaration order, for printing. */
    public Map<SaCounter, Long> snapshot()
    {
        final Map<SaCounter, Long> snapshot = new EnumMap<>(SaCounter.class);
        for (final SaCounter counter : ALL)
        {
            snapshot.put(counter, get(counter));
        }
        return snapshot;
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder("SaCounters{");
        for (final SaCounter counter : ALL)
        {
            final long value = get(counter);
            if (value != 0)
            {
                text.append(counter.name().toLowerCase(java.util.Locale.ROOT)).append('=').append(value).append(' ');
            }
        }
        return text.append('}').toString();
    }
}
