package dev.rdmacm.acm;

import java.util.function.Supplier;

/**
 * One kind of log line (a full queue, a failing accept) written at most once per interval, on the
 * service's clock: the first occurrence at once, later ones with the number held back since the
 * last line. A flood of the same event then costs a counter, not a disk.
 */
final class AcmLogThrottle
{
    private final AcmLog log;
    private final int level;
    private final long intervalNs;
    private boolean logged;
    private long lastNs;
    private long heldBack;

    AcmLogThrottle(final AcmLog log, final int level, final long intervalNs)
    {
        this.log = log;
        this.level = level;
        this.intervalNs = intervalNs;
    }

    void log(final long nowNs, final String message)
    {
        log(nowNs, () -> message);
    }

    /** Writes {@code message} unless a line was written less than the interval before {@code nowNs}. */
    void log(final long nowNs, final Supplier<String> message)
    {
        if (logged && nowNs - lastNs < intervalNs)
        {
            heldBack++;
            return;
        }
        log.log(level, heldBack == 0 ? message.get() : message.get() + " (" + heldBack + " more since the last)");
        logged = true;
        lastNs = nowNs;
        heldBack = 0;
    }
}
