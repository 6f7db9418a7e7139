package dev.rdmacm.testing.guest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How long the guest's CPUs have been busy, from the {@code cpu} line of {@code /proc/stat}: user, nice,
 * system, irq, softirq and steal, every process's and the kernel's together. Under TCG a busy vCPU is a
 * host thread at work, and both guests share the host's two cores, so this, not a class's wall time,
 * is what a class costs the guest part: a class that waits on a peer's timeout is long and cheap, one
 * that starts JVMs and oracles is dear however short.
 */
final class GuestCpuTime
{
    private static final Path STAT = Path.of("/proc/stat");
    /** USER_HZ, which the kernel fixes at 100 for {@code /proc/stat} on every architecture this runs on. */
    private static final long MILLIS_PER_TICK = 10;
    /** The fields of the {@code cpu} line after its name that count busy time: user nice system [idle iowait] irq softirq steal. */
    private static final int[] BUSY_FIELDS = {0, 1, 2, 5, 6, 7};

    private GuestCpuTime()
    {
    }

    /** The busy time so far in ms, or -1 where there is no {@code /proc/stat} to read (a host that is not Linux). */
    static long busyMillis()
    {
        final String line;
        try (var lines = Files.lines(STAT))
        {
            line = lines.findFirst().orElse("");
        }
        catch (final IOException ex)
        {
            return -1;
        }
        final String[] fields = line.strip().split("\\s+");
        if (fields.length < 9 || !fields[0].equals("cpu"))
        {
            return -1;
        }
        long ticks = 0;
        for (final int field : BUSY_FIELDS)
        {
            ticks += Long.parseLong(fields[1 + field]);
        }
        return ticks * MILLIS_PER_TICK;
    }
}
