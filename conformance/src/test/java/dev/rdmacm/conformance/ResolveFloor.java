package dev.rdmacm.conformance;

import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;

/**
 * Issue 32's floor of resolve addr, measured in the guest where our cmtime runs, in the same boot as its rounds:
 * the system calls that any exact userspace {@code rdma_resolve_addr} must make per call ({@code resolve_floor.c}:
 * one RTM_GETROUTE round trip and one {@code pread} of {@code ip_default_ttl}), in C, with nothing else. The
 * kernel returns a route error from the caller's write, so the lookup is the call's own and cannot be shared
 * with the next call (docs/decisions.md, "No shared route answers"). Compared with librdmacm's whole resolve
 * addr step of the same invocation, it says how close to librdmacm any implementation of ours could come.
 *
 * @param runs what each run printed, one line per measure: {@code floor route+ttl CALLS MS}, {@code floor route CALLS MS}.
 */
record ResolveFloor(List<String> runs, List<GuestResult> failures)
{
    /** Runs of the floor per size: its medians. */
    private static final int RUNS = 3;
    private static final Duration JOB = Duration.ofSeconds(60);

    /** Compiles the floor into {@code guest}'s share and runs it {@link #RUNS} times per size against {@code destination}. */
    static ResolveFloor measure(final KernelGuest guest, final String destination, final List<Integer> sizes)
    {
        final Path binary = CProgram.compile(ResolveFloor.class, "resolve_floor.c", guest.sharedDirectory(), "resolve_floor",
            "-O2", "-Wall");
        final List<String> runs = new ArrayList<>();
        final List<GuestResult> failures = new ArrayList<>();
        for (int run = 0; run < RUNS; run++)
        {
            for (final int size : sizes)
            {
                final GuestResult floor = guest.run(JOB, guest.guestPathOf(binary) + " " + destination + " " + size);
                if (floor.succeeded())
                {
                    floor.stdout().lines().filter(line -> line.startsWith("floor ")).forEach(runs::add);
                }
                else
                {
                    failures.add(floor);
                }
            }
        }
        return new ResolveFloor(List.copyOf(runs), List.copyOf(failures));
    }

    /**
     * The report's lines: per size, the medians of both floors, each as a ratio to librdmacm's median resolve addr
     * step of that size ({@code librdmacmResolveAddr}, in ms).
     */
    String report(final List<Integer> sizes, final IntToDoubleFunction librdmacmResolveAddr)
    {
        final StringBuilder text = new StringBuilder(String.format("%nresolve addr's floor (issue 32): an exact resolver's own "
            + "system calls per call, in C in the same guest after the rounds (resolve_floor.c), medians of %d runs, ms%n", RUNS));
        for (final int size : sizes)
        {
            final double librdmacm = librdmacmResolveAddr.applyAsDouble(size);
            final double both = median("route+ttl", size);
            final double route = median("route", size);
            text.append(String.format("  %,d calls: RTM_GETROUTE + pread(ip_default_ttl) %.1f (%.2fx librdmacm's resolve addr, "
                + "%.1f); RTM_GETROUTE alone %.1f (%.2fx)%n", size, both, both / librdmacm, librdmacm, route, route / librdmacm));
        }
        failures.forEach(failure -> text.append("  failed: ").append(failure.describe()).append('\n'));
        return text.toString();
    }

    private double median(final String measure, final int size)
    {
        final String prefix = "floor " + measure + " " + size + " ";
        return CmtimeRounds.median(runs.stream().filter(line -> line.startsWith(prefix))
            .mapToDouble(line -> Double.parseDouble(line.substring(prefix.length()).strip())).toArray());
    }
}
