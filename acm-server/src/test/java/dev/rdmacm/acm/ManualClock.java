package dev.rdmacm.acm;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A clock for the server that moves only when a test moves it: SA deadlines and cache lifetimes then
 * expire when the test says so, however slowly a loaded machine runs the test or the server.
 */
final class ManualClock implements LongSupplier
{
    private final AtomicLong nanos = new AtomicLong();

    @Override
    public long getAsLong()
    {
        return nanos.get();
    }

    void advance(final Duration by)
    {
        nanos.addAndGet(by.toNanos());
    }
}
