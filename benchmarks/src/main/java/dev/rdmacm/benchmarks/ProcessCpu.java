package dev.rdmacm.benchmarks;

import dev.rdmacm.libc.ProcFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * CPU time of a process from {@code /proc/<pid>/stat} (proc(5)): user + system time of the process
 * itself, and of its children that have been waited for (a {@code saquery} run, once it has ended).
 * Clock ticks are USER_HZ, 100 per second on Linux x86_64.
 */
record ProcessCpu(long ownNanos, long waitedChildrenNanos)
{
    private static final long NANOS_PER_TICK = 10_000_000L;
    /** Field numbers of proc(5), 1-based: utime, stime, cutime, cstime. */
    private static final int UTIME = 14;

    static ProcessCpu of(final long pid)
    {
        return read(Path.of("/proc", Long.toString(pid), "stat"));
    }

    static ProcessCpu self()
    {
        return read(Path.of("/proc/self/stat"));
    }

    private static ProcessCpu read(final Path stat)
    {
        try
        {
            return parse(ProcFile.read(stat));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + stat, ex);
        }
    }

    /** A {@code stat} line of proc(5): a process's, or a thread's from {@code /proc/<pid>/task/<tid>/stat}. */
    static ProcessCpu parse(final String text)
    {
        // The command name (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
        final String[] fields = text.substring(text.lastIndexOf(')') + 2).trim().split(" ");
        final int first = 3;
        final long utime = Long.parseLong(fields[UTIME - first]);
        final long stime = Long.parseLong(fields[UTIME + 1 - first]);
        final long cutime = Long.parseLong(fields[UTIME + 2 - first]);
        final long cstime = Long.parseLong(fields[UTIME + 3 - first]);
        return new ProcessCpu((utime + stime) * NANOS_PER_TICK, (cutime + cstime) * NANOS_PER_TICK);
    }

    ProcessCpu minus(final ProcessCpu before)
    {
        return new ProcessCpu(ownNanos - before.ownNanos, waitedChildrenNanos - before.waitedChildrenNanos);
    }

    ProcessCpu plus(final ProcessCpu other)
    {
        return new ProcessCpu(ownNanos + other.ownNanos, waitedChildrenNanos + other.waitedChildrenNanos);
    }
}
