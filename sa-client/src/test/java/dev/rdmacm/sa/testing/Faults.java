package dev.rdmacm.sa.testing;

import java.time.Duration;

/**
 * What a {@link FaultInjectingTransport} does to traffic, each as a probability per received MAD
 * (sends are only ever dropped).
 * <p>
 * {@code corrupt} damages one byte of the MAD's headers (common, RMPP and SA header, bytes 0..55):
 * damage to the attribute data would be caught by the link's ICRC/VCRC before any MAD layer saw it.
 */
public record Faults(
    double dropSent,
    double drop,
    double duplicate,
    double reorder,
    double delay,
    Duration delayBy,
    double corrupt,
    double wrongTid,
    double wrongSource)
{
    public static final Faults NONE = new Faults(0, 0, 0, 0, 0, Duration.ZERO, 0, 0, 0);

    public Faults withDropSent(final double p)
    {
        return new Faults(p, drop, duplicate, reorder, delay, delayBy, corrupt, wrongTid, wrongSource);
    }

    public Faults withDrop(final double p)
    {
        return new Faults(dropSent, p, duplicate, reorder, delay, delayBy, corrupt, wrongTid, wrongSource);
    }

    public Faults withDuplicate(final double p)
    {
        return new Faults(dropSent, drop, p, reorder, delay, delayBy, corrupt, wrongTid, wrongSource);
    }

    public Faults withReorder(final double p)
    {
        return new Faults(dropSent, drop, duplicate, p, delay, delayBy, corrupt, wrongTid, wrongSource);
    }

    public Faults withDelay(final double p, final Duration by)
    {
        return new Faults(dropSent, drop, duplicate, reorder, p, by, corrupt, wrongTid, wrongSource);
    }

    public Faults withCorrupt(final double p)
    {
        return new Faults(dropSent, drop, duplicate, reorder, delay, delayBy, p, wrongTid, wrongSource);
    }

    public Faults withWrongTid(final double p)
    {
        return new Faults(dropSent, drop, duplicate, reorder, delay, delayBy, corrupt, p, wrongSource);
    }

    public Faults withWrongSource(final double p)
    {
        return new Faults(dropSent, drop, duplicate, reorder, delay, delayBy, corrupt, wrongTid, p);
    }
}
