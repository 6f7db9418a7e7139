package dev.rdmacm.resolver;

/**
 * One step of an address resolution, timed on the monotonic clock relative to the call.
 *
 * @param name        route, link, local address, neighbour, neighbour trigger, neighbour wait, gid match...
 * @param startNanos  when the step began, nanoseconds after the resolution started.
 * @param tookNanos   how long it took.
 * @param detail      what it found, in the words {@code ip} would use.
 */
public record ResolutionStep(String name, long startNanos, long tookNanos, String detail)
{
    @Override
    public String toString()
    {
        return String.format(java.util.Locale.ROOT, "%10.3f ms %-18s %8.3f ms  %s",
            startNanos / 1e6, name, tookNanos / 1e6, detail);
    }
}
