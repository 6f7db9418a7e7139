package dev.rdmacm.resolver.engine;

import dev.rdmacm.testing.HostCommand;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The one CPU that both the kernel's lookups ({@code taskset -c CPU ip ...}) and ours (a pinned thread)
 * are asked from. The kernel's IPv6 answer can depend on the CPU that asks: IPv6 routes that share a
 * nexthop object share its per-CPU route copies, and deleting one of those routes leaves the copies
 * without their origin, so a later lookup of another route, on a CPU that still holds such a copy,
 * chooses its source without the outgoing device or fails with ENETUNREACH (seen on 6.18, seed
 * 29142300282279). Asked from one CPU, the kernel's answer and ours see the same copies, in order.
 */
final class AskingCpu
{
    /** The first CPU this process may run on (a container's cpuset need not include CPU 0). */
    static final int CPU = firstAllowedCpu();
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private AskingCpu()
    {
    }

    /** {@code command} run on {@link #CPU}. */
    static List<String> on(final List<String> command)
    {
        final List<String> pinned = new ArrayList<>(List.of("taskset", "-c", Integer.toString(CPU)));
        pinned.addAll(command);
        return pinned;
    }

    /** Pins the calling thread to {@link #CPU}, with {@code taskset -p} on its thread id. */
    static void pinCallingThread()
    {
        final String tid;
        try
        {
            tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read /proc/thread-self", ex);
        }
        final HostCommand.Outcome outcome = HostCommand.run(LIMIT, "taskset", "-p", "-c", Integer.toString(CPU), tid);
        if (!outcome.succeeded())
        {
            throw new AssertionError("taskset -p -c " + CPU + " " + tid + " failed: " + outcome.output());
        }
    }

    private static int firstAllowedCpu()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status")))
            {
                if (line.startsWith("Cpus_allowed_list:"))
                {
                    final String list = line.substring(line.indexOf(':') + 1).strip();
                    return Integer.parseInt(list.split("[-,]")[0]);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read /proc/self/status", ex);
        }
        throw new AssertionError("/proc/self/status has no Cpus_allowed_list");
    }
}
