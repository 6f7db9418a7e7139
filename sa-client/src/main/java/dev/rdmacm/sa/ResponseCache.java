package dev.rdmacm.sa;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Successful answers kept for a time-to-live, keyed by the query ({@link SaRequest#cacheKey()}).
 * Engine thread only. Failures are never cached: an SA that said NO_RECORDS a moment ago may know
 * the port now.
 */
final class ResponseCache
{
    private record Entry(SaResponse response, long expiresAtNanos)
    {
    }

    private final long ttlNanos;
    private final Map<Object, Entry> entries = new HashMap<>();

    ResponseCache(final long ttlNanos)
    {
        this.ttlNanos = ttlNanos;
    }

    boolean enabled()
    {
        return ttlNanos > 0;
    }

    SaResponse get(final Object key, final long nowNanos)
    {
        final Entry entry = entries.get(key);
        if (entry == null)
        {
            return null;
        }
        if (nowNanos - entry.expiresAtNanos >= 0)
        {
            entries.remove(key);
            return null;
        }
        return entry.response;
    }

    void put(final Object key, final SaResponse response, final long nowNanos)
    {
        if (enabled())
        {
            entries.put(key, new Entry(response, nowNanos + ttlNanos));
        }
    }

    void invalidate(final Object key)
    {
        entries.remove(key);
    }

    void invalidateAll()
    {
        entries.clear();
    }

    /** Drops expired entries so the map does not grow with destinations nobody asks for any more. */
    int expire(final long nowNanos)
    {
        int removed = 0;
        for (final Iterator<Entry> it = entries.values().iterator(); it.hasNext(); )
        {
            if (nowNanos - it.next().expiresAtNanos >= 0)
            {
                it.remove();
                removed++;
            }
        }
        return removed;
    }

    int size()
    {
        return entries.size();
    }
}
