package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Issue 29's guest measurement: the kernel's cmtime server in the kernel guest, and against it, from the
 * userspace-CM guest, our {@code rdmacm cmtime} and rdma-core's cmtime over the kernel's CM, alternating
 * (ours, kernel, ours, kernel, ...) for {@code rounds} rounds of each size, all in one boot:
 * <ul>
 *   <li>ours runs in one JVM for the whole run ({@link CmtimeDriver}), warmed by an untimed round of 100
 *       first, as the kernel's side is (its modules, the server's first connections);</li>
 *   <li>around each run: both guests' CPU ({@code /proc/stat}, every kernel thread by name) and the
 *       server's {@code cm_tx_retries} and {@code cm_rx_duplicates} (ib_cm's counters, under
 *       {@code /sys/class/infiniband/DEV/ports/PORT/}); the client's threads (ours: read by
 *       the driver itself; the kernel's cmtime: sampled every 0.25 s); for the kernel's runs also the
 *       client guest's ib_cm counters, loaded fresh for each run;</li>
 *   <li>after the timed rounds, one round of 100 a side under {@code strace -c -f}, for the system calls
 *       per connection, which the timed rounds do not pay for.</li>
 * </ul>
 * The report goes to the build log and to {@code target/ISSUE-guests.txt}; the issue's target rows also to
 * {@code target/ISSUE-guests.rows}, one {@code measure TAB figure TAB target TAB met|missed} a line, for
 * {@code benchmarks/run-issue29}. Issue 32's run ({@link Back#KERNEL}) is the same measurement with our
 * cmtime on the kernel's CM ({@code --cm kernel}), client and server in the kernel guest; after its rounds it
 * also measures what no exact resolver can save of resolve addr ({@link ResolveFloor}).
 */
final class CmtimeRounds
{
    private static final int SERVER_PORT = 7183;
    private static final String SCRIPT = "cmtime-rounds.sh";
    private static final String COMMANDS = "/run/cmtime-rounds.cmd";
    private static final String REPLIES = "/run/cmtime-rounds.reply";
    private static final String DRIVER = "cmtime-driver";
    /** A round's thread dump of the driver, beside its .out and .err, when the round ran too long ({@link #dumpAfter}). */
    private static final String THREADS = ".threads";
    /** How long before a round's job limit the driver's threads are dumped: jcmd is a JVM of its own, seconds to start under TCG. */
    private static final Duration DUMP_LEAD = Duration.ofSeconds(40);
    /** The untimed first round's connections; {@code -Drdmacm.cmtime.warmup=N} for a JVM that needs more (C1 under TCG). */
    private static final int WARM_UP = Integer.getInteger("rdmacm.cmtime.warmup", 100);
    private static final int STRACED = 100;
    /** The connections of each round that splits our connect step ({@link Back#KERNEL} only). */
    private static final int HALVES = 100;
    private static final Duration JOB = Duration.ofSeconds(60);
    /** The driver JVM's start: no AOT cache is trained in this boot, and a JVM starts in 90 s or more under TCG. */
    private static final Duration JVM_START = Duration.ofSeconds(240);
    /** Issue 29's run measures no floor of resolve addr: its resolution is not issue 32's question. */
    private static final ResolveFloor NO_FLOOR = new ResolveFloor(List.of(), List.of());
    private static final List<String> STEPS = List.of("create id", "resolve addr", "resolve route", "create qp", "connect",
        "disconnect", "destroy");

    private CmtimeRounds()
    {
    }

    /** Which CM our cmtime runs on, and so what the run measures and whose targets its rows hold. */
    enum Back
    {
        /**
         * Issue 29: our userspace CM in the userspace-CM guest against the kernel guest's server; the
         * kernel's cmtime in the same client guest with {@code rdma_ucm} loaded for each of its runs only.
         */
        USERSPACE("issue29", "", false),
        /**
         * Issue 32: our cmtime through the kernel's CM ({@code --cm kernel}) and librdmacm's, both in the
         * kernel guest beside the server ({@code ib_cm} loaded throughout: the client guest is the server's).
         */
        KERNEL("issue32", " --cm kernel", true);

        final String issue;
        final String oursOptions;
        final boolean kernelCmThroughout;

        Back(final String issue, final String oursOptions, final boolean kernelCmThroughout)
        {
            this.issue = issue;
            this.oursOptions = oursOptions;
            this.kernelCmThroughout = kernelCmThroughout;
        }

        String report()
        {
            return "target/" + issue + "-guests.txt";
        }

        String rows()
        {
            return "target/" + issue + "-guests.rows";
        }
    }

    /** One run of one side: its table, its client's CPU, both guests' CPU and the CM counters around it. */
    record Run(String side, int connections, int round, GuestResult client, Map<String, Double> steps, Map<String, Long> threadsMs,
               long processMs, Map<String, Long> clientGuestMs, Map<String, Long> serverGuestMs, Map<String, Long> serverCounters,
               Map<String, Long> clientCounters, Map<String, Long> syscalls)
    {
        boolean complete()
        {
            return client.exitStatus() == 0 && List.copyOf(steps.keySet()).equals(STEPS);
        }

        double perSecond()
        {
            return connections * 1000.0 / (steps.getOrDefault("connect", Double.NaN) + steps.getOrDefault("disconnect", Double.NaN));
        }
    }

    /** Everything one measurement gave. */
    record Measured(Back back, int rounds, List<Integer> sizes, List<Run> runs, String driver, String accelerator,
                    List<GuestResult> failures, List<String> halves, ResolveFloor floor)
    {
        List<DynamicTest> checks()
        {
            final String report = report();
            System.out.print(report);
            write(Path.of(back.report()), report);
            write(Path.of(back.rows()), rows());
            final List<DynamicTest> tests = new ArrayList<>();
            tests.add(dynamicTest("shouldStartTheServerAndOurDriverAndStopThem()", () ->
                assertEquals(List.of(), failures.stream().map(GuestResult::describe).toList())));
            if (back == Back.KERNEL)
            {
                tests.add(dynamicTest("shouldRunResolveAddrsFloorInEveryRun()", () ->
                    assertEquals(List.of(), floor.failures().stream().map(GuestResult::describe).toList())));
            }
            for (final String side : List.of("ours", "kernel"))
            {
                tests.add(dynamicTest("shouldCompleteEveryRoundOf" + (side.equals("ours") ? "Ours" : "TheKernels") + "()", () ->
                {
                    final List<Run> of = runs.stream().filter(run -> run.side.equals(side)).toList();
                    // the warm-up (round 0), the timed rounds, the round under strace (round -1)
                    assertEquals(rounds * sizes.size() + 2, of.size(), side + " runs");
                    for (final Run run : of)
                    {
                        assertEquals(true, run.complete(), run.client.describe());
                    }
                }));
            }
            return tests;
        }

        List<Run> timed(final String side, final int connections)
        {
            return runs.stream().filter(run -> run.side.equals(side) && run.connections == connections && run.round > 0
                && run.complete()).toList();
        }

        double median(final String side, final int connections, final ToDoubleFunction<Run> value)
        {
            return CmtimeRounds.median(timed(side, connections).stream().mapToDouble(value).toArray());
        }

        String report()
        {
            final StringBuilder text = new StringBuilder();
            text.append(String.format("cmtime rounds (%s): %d rounds a side per size, alternating ours%s and the kernel's "
                + "(librdmacm's cmtime), against the kernel's cmtime server; medians (min-max) in ms%n", back.issue.replace("issue",
                "issue "), rounds, back.oursOptions));
            text.append("guests: ").append(accelerator).append("; ours: ").append(driver.strip().replace("\n", "; ")).append('\n');
            for (final int size : sizes)
            {
                text.append(String.format("%n%,d connections%n%-14s %26s %26s %8s%n", size, "step", "kernel", "ours", "ratio"));
                for (final String step : STEPS)
                {
                    text.append(String.format("%-14s %26s %26s %8s%n", step, spread("kernel", size, run -> run.steps.get(step)),
                        spread("ours", size, run -> run.steps.get(step)), ratio(median("ours", size, run -> run.steps.get(step)),
                            median("kernel", size, run -> run.steps.get(step)))));
                }
                text.append(String.format("%-14s %26s %26s %8s%n", "conn/s", spread("kernel", size, Run::perSecond),
                    spread("ours", size, Run::perSecond), ratio(median("ours", size, Run::perSecond), median("kernel", size, Run::perSecond))));
                cpu(text, size);
                counters(text, size);
            }
            syscalls(text);
            if (!halves.isEmpty())
            {
                text.append(String.format("%nour connect step split (issue 32): rounds of %d after the rest, the kernel's "
                    + "resolution inside rdma_connect%n", HALVES));
                halves.forEach(text::append);
            }
            if (back == Back.KERNEL)
            {
                text.append(floor.report(sizes, size -> median("kernel", size, run -> run.steps.get("resolve addr"))));
            }
            text.append("\ntarget rows\n");
            rows().lines().forEach(row -> text.append(row.replace('\t', '|')).append('\n'));
            return text.toString();
        }

        private String spread(final String side, final int connections, final ToDoubleFunction<Run> value)
        {
            final double[] values = timed(side, connections).stream().mapToDouble(value).toArray();
            if (values.length == 0)
            {
                return "-";
            }
            final double min = java.util.Arrays.stream(values).min().orElseThrow();
            final double max = java.util.Arrays.stream(values).max().orElseThrow();
            return String.format("%.1f (%.1f-%.1f)", CmtimeRounds.median(values), min, max);
        }

        /** CPU in ms, medians over the timed rounds: the client's threads, then both guests' kernel threads and /proc/stat. */
        private void cpu(final StringBuilder text, final int size)
        {
            text.append(String.format("CPU ms per run of %,d, medians: the client process (threads by name; ours read at the table, "
                + "the kernel's cmtime's last 0.25 s sample), then each guest's /proc/stat and kernel threads by name%n", size));
            for (final String side : List.of("ours", "kernel"))
            {
                final List<Run> of = timed(side, size);
                if (of.isEmpty())
                {
                    continue;
                }
                text.append(String.format("  %s client process %.0f:%s%n", side, median(side, size, run -> run.processMs),
                    top(of, Run::threadsMs, 8)));
                text.append(String.format("  %s client guest:%s%n", side, top(of, Run::clientGuestMs, 10)));
                text.append(String.format("  %s server guest:%s%n", side, top(of, Run::serverGuestMs, 10)));
            }
        }

        private void counters(final StringBuilder text, final int size)
        {
            for (final String side : List.of("ours", "kernel"))
            {
                final List<String> server = new ArrayList<>();
                final List<String> client = new ArrayList<>();
                for (final Run run : timed(side, size))
                {
                    server.add(counterText(run.serverCounters));
                    client.add(counterText(run.clientCounters));
                }
                text.append(String.format("  %s: server's cm_tx_retries / cm_rx_duplicates per run: %s%n", side, String.join(", ", server)));
                if (side.equals("kernel"))
                {
                    text.append(String.format("  kernel: client's own ib_cm (loaded per run): %s%n", String.join(", ", client)));
                }
            }
        }

        private void syscalls(final StringBuilder text)
        {
            text.append(String.format("%nsystem calls per connection, one round of %d a side under strace -c -f (the client "
                + "process, every thread)%n", STRACED));
            final Map<String, Map<String, Long>> traced = new LinkedHashMap<>();
            for (final Run run : runs)
            {
                if (run.round < 0)
                {
                    traced.put(run.side, run.syscalls);
                }
            }
            final Map<String, Long> ours = traced.getOrDefault("ours", Map.of());
            final Map<String, Long> kernel = traced.getOrDefault("kernel", Map.of());
            text.append(String.format("%-20s %10s %10s%n", "syscall", "kernel", "ours"));
            final TreeMap<String, Long> all = new TreeMap<>(kernel);
            ours.forEach((name, calls) -> all.merge(name, calls, Long::sum));
            all.entrySet().stream().filter(entry -> !entry.getKey().equals("total")).sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(15).forEach(entry -> text.append(String.format("%-20s %10.1f %10.1f%n", entry.getKey(),
                    kernel.getOrDefault(entry.getKey(), 0L) / (double) STRACED, ours.getOrDefault(entry.getKey(), 0L) / (double) STRACED)));
            text.append(String.format("%-20s %10.1f %10.1f%n", "total", kernel.getOrDefault("total", 0L) / (double) STRACED,
                ours.getOrDefault("total", 0L) / (double) STRACED));
        }

        /** The issue's guest rows: measure, figure, target, verdict, tab-separated. */
        String rows()
        {
            if (back == Back.KERNEL)
            {
                return kernelRows();
            }
            final StringBuilder rows = new StringBuilder();
            final int large = sizes.getLast();
            row(rows, String.format("guest, %,d ids: resolve addr, ours / kernel", large), large, "resolve addr", 2.0);
            row(rows, String.format("guest, %,d ids: resolve route, ours / kernel", large), large, "resolve route", 2.0);
            for (final int size : sizes)
            {
                row(rows, String.format("guest, %,d: create qp", size), size, "create qp", 1.5);
                row(rows, String.format("guest, %,d: connect", size), size, "connect", 1.2);
                row(rows, String.format("guest, %,d: disconnect", size), size, "disconnect", 1.3);
                final double ours = median("ours", size, Run::perSecond);
                final double kernel = median("kernel", size, Run::perSecond);
                final double ratio = ours / kernel;
                rows.append(String.format("guest, %,d: connections per second, ours / kernel\t%.2fx (%.0f / %.0f per s)\t>= 0.90x\t%s%n",
                    size, ratio, ours, kernel, Double.isNaN(ratio) ? "no figure" : ratio >= 0.9 ? "met" : "missed"));
            }
            return rows.toString();
        }

        /** Issue 32's rows: every step within 1.2x of librdmacm's, at every size, and the connections per second. */
        private String kernelRows()
        {
            final StringBuilder rows = new StringBuilder();
            for (final int size : sizes)
            {
                for (final String step : STEPS)
                {
                    row(rows, String.format("guest, %,d, --cm kernel: %s, ours / librdmacm", size, step), size, step, 1.2);
                }
                final double ours = median("ours", size, Run::perSecond);
                final double kernel = median("kernel", size, Run::perSecond);
                final double ratio = ours / kernel;
                rows.append(String.format("guest, %,d, --cm kernel: connections per second, ours / librdmacm\t%.2fx (%.0f / %.0f per s)"
                    + "\t>= 0.83x\t%s%n", size, ratio, ours, kernel, Double.isNaN(ratio) ? "no figure" : ratio >= 1 / 1.2 ? "met" : "missed"));
            }
            return rows.toString();
        }

        private void row(final StringBuilder rows, final String measure, final int size, final String step, final double target)
        {
            final double ours = median("ours", size, run -> run.steps.get(step));
            final double kernel = median("kernel", size, run -> run.steps.get(step));
            final double ratio = ours / kernel;
            rows.append(String.format("%s\t%.2fx (%.1f / %.1f ms)\t<= %.2fx\t%s%n", measure, ratio, ours, kernel, target,
                Double.isNaN(ratio) ? "no figure" : ratio <= target ? "met" : "missed"));
        }
    }

    /** Issue 29's run. Boots nothing: measures in {@code guests}, which the caller booted and closes. */
    static Measured measure(final GuestPair guests, final int rounds, final List<Integer> sizes)
    {
        return measure(guests.userspace(), guests.kernel(), Back.USERSPACE, rounds, sizes);
    }

    /**
     * The clients in {@code ours} (our cmtime on {@code back}'s CM, the kernel's cmtime), the server in
     * {@code kernel}, which may be the same guest. Boots nothing: the caller booted both and closes them.
     */
    static Measured measure(final KernelGuest ours, final KernelGuest kernel, final Back back, final int rounds, final List<Integer> sizes)
    {
        final String server = GuestWire.KERNEL_CM.address();
        final String oursScript = install(ours);
        final String kernelScript = install(kernel);
        final List<GuestResult> failures = new ArrayList<>();
        final List<Run> runs = new ArrayList<>();
        final Path outputs = ours.sharedDirectory().resolve(DRIVER);
        mkdirs(outputs);

        final GuestResult serverStarted = kernel.run(JOB, CmtimeAcrossTheWire.started("cmtime -b " + server + " -p " + SERVER_PORT,
            "rounds-cmtime-s") + "\n" + RpingAcrossTheWire.untilListening(server, SERVER_PORT));
        final GuestResult driverStarted = ours.run(JOB, "rm -f " + COMMANDS + " " + REPLIES + "\nmkfifo " + COMMANDS + " " + REPLIES
            + "\n" + CmtimeAcrossTheWire.started(GuestJavaMain.command(ours, DRIVER, driverOptions(ours.guestPathOf(outputs)), CmtimeDriver.class.getName(), COMMANDS, REPLIES,
            ours.guestPathOf(outputs)), DRIVER));
        String driver = "";
        if (!serverStarted.succeeded() || !driverStarted.succeeded())
        {
            failures.addAll(List.of(serverStarted, driverStarted));
            return new Measured(back, rounds, sizes, runs, driver, ours.accelerator(), failures, List.of(), NO_FLOOR);
        }
        final Sides sides = new Sides(ours, kernel, back, oursScript, kernelScript, server, outputs);
        // untimed: the JVM's start and first compilations, the kernel's modules and the server's first connections
        runs.add(sides.ours(WARM_UP, 0, JVM_START.plus(limit(WARM_UP))));
        driver = readIfThere(outputs.resolve("driver.txt"));
        runs.add(sides.kernel(WARM_UP, 0));
        boolean oursAlive = runs.getFirst().client.succeeded();
        for (int round = 1; round <= rounds; round++)
        {
            for (final int size : sizes)
            {
                if (oursAlive)
                {
                    final Run run = sides.ours(size, round, limit(size));
                    runs.add(run);
                    oursAlive = run.client.succeeded();
                }
                runs.add(sides.kernel(size, round));
            }
        }
        if (oursAlive)
        {
            runs.add(sides.oursTraced(STRACED, pid(driver)));
        }
        runs.add(sides.kernelTraced(STRACED));
        final List<String> halves = new ArrayList<>();
        for (int round = 1; oursAlive && back == Back.KERNEL && round <= 3; round++)
        {
            halves.add(sides.halves(HALVES, round));
        }
        final ResolveFloor floor = back == Back.KERNEL ? ResolveFloor.measure(ours, server, sizes) : NO_FLOOR;
        final GuestResult quit = ours.run(JOB, "pid=$(cat /run/" + DRIVER + ".pid)\n"
            + "kill -0 $pid 2>/dev/null && timeout 10 sh -c 'echo quit > " + COMMANDS + "'\n"
            + "i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 150 ]; do sleep 0.2; i=$((i+1)); done\n"
            + "kill -0 $pid 2>/dev/null && { kill -9 $pid; cat /run/" + DRIVER + ".err >&2; exit 2; }; exit 0");
        final GuestResult serverStopped = kernel.run(JOB, CmtimeAcrossTheWire.stopped("rounds-cmtime-s"));
        for (final GuestResult result : List.of(quit, serverStopped))
        {
            if (!result.succeeded())
            {
                failures.add(result);
            }
        }
        keep(outputs);
        return new Measured(back, rounds, sizes, runs, driver, ours == kernel ? ours.accelerator() + ", one guest"
            : ours.accelerator() + ", " + kernel.accelerator(), failures, halves, floor);
    }

    /**
     * {@code -Drdmacm.cmtime.driver.options="..."}: JVM options for the driver after the guest mains' own, split at
     * white space, {@code @OUT@} standing for the driver's output directory in the guest (a flight recording's file,
     * say); none by default.
     */
    private static List<String> driverOptions(final String outputs)
    {
        final String options = System.getProperty("rdmacm.cmtime.driver.options", "").strip();
        return options.isEmpty() ? List.of() : List.of(options.replace("@OUT@", outputs).split("\\s+"));
    }

    /** {@code -Drdmacm.cmtime.keep=DIRECTORY}: the driver's outputs copied there on the host, since the share goes with the guest. */
    private static void keep(final Path outputs)
    {
        final String keep = System.getProperty("rdmacm.cmtime.keep", "");
        if (keep.isEmpty())
        {
            return;
        }
        try (var files = Files.list(outputs))
        {
            final Path target = Path.of(keep);
            Files.createDirectories(target);
            for (final Path file : files.toList())
            {
                Files.copy(file, target.resolve(file.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot keep " + outputs + " in " + keep, ex);
        }
    }

    private static Duration limit(final int connections)
    {
        return Duration.ofSeconds(60 + connections / 4);
    }

    /** When a round of ours still running has the driver's threads dumped: before its job's limit, with time for jcmd's JVM under TCG. */
    private static Duration dumpAfter(final Duration limit)
    {
        return limit.minus(DUMP_LEAD);
    }

    /** The two clients' runs, each between two snapshots of both guests. */
    private record Sides(KernelGuest ours, KernelGuest kernel, Back back, String oursScript, String kernelScript, String server,
                         Path outputs)
    {
        Run ours(final int connections, final int round, final Duration limit)
        {
            final String tag = "ours-" + connections + "-" + round;
            final String line = tag + " cmtime -s " + server + " -p " + SERVER_PORT + " -c " + connections + back.oursOptions;
            final String before = kernel.run(JOB, "bash " + kernelScript + " snapshot").stdout();
            final GuestResult client = ours.run(limit, "bash " + oursScript + " ours " + COMMANDS + " " + REPLIES + " '" + line + "' "
                + dumpAfter(limit).toSeconds() + " " + ours.guestPathOf(outputs.resolve(tag + THREADS)));
            final String after = kernel.run(JOB, "bash " + kernelScript + " snapshot").stdout();
            return oursRun(tag, connections, round, client, before, after, Map.of());
        }

        /** One round of {@link dev.rdmacm.cli.CmtimeKernelHalves} in the driver: its table and its split, as text. */
        String halves(final int connections, final int round)
        {
            final String tag = "halves-" + connections + "-" + round;
            final GuestResult job = ours.run(limit(connections), "bash " + oursScript + " ours " + COMMANDS + " " + REPLIES + " '" + tag
                + " " + CmtimeDriver.KERNEL_HALVES + " " + server + " " + SERVER_PORT + " " + connections + "'");
            final String output = readIfThere(outputs.resolve(tag + ".out"));
            return "round " + round + " (" + section(job.stdout(), "reply").strip() + "):\n" + output.lines()
                .filter(line -> line.startsWith("halves") || line.startsWith("connect ") || line.startsWith("resolve "))
                .map(line -> "  " + line + "\n").reduce("", String::concat) + readIfThere(outputs.resolve(tag + ".err"));
        }

        Run oursTraced(final int connections, final long pid)
        {
            final String tag = "ours-strace-" + connections;
            final String line = tag + " cmtime -s " + server + " -p " + SERVER_PORT + " -c " + connections + back.oursOptions;
            final GuestResult client = ours.run(limit(connections * 10), "bash " + oursScript + " strace-ours " + pid + " " + COMMANDS
                + " " + REPLIES + " '" + line + "'");
            printDescriptors(tag, client.stdout());
            return oursRun(tag, connections, -1, client, "", "", strace(section(client.stdout(), "strace")));
        }

        /** The driver's threads as a round that ran past {@link #dumpAfter} left them, for its failure's text; empty otherwise. */
        private String threadDump(final String tag)
        {
            final String dump = readIfThere(outputs.resolve(tag + THREADS));
            return dump.isEmpty() ? "" : "\nthe driver's threads, dumped as the round ran past its time:\n" + dump;
        }

        private Run oursRun(final String tag, final int connections, final int round, final GuestResult job, final String serverBefore,
            final String serverAfter, final Map<String, Long> syscalls)
        {
            final String reply = section(job.stdout(), "reply").strip();
            final String output = readIfThere(outputs.resolve(tag + ".out"));
            final GuestResult client = new GuestResult(job.command(), job.exitStatus() != 0 ? job.exitStatus()
                : reply.isEmpty() ? 1 : Integer.parseInt(reply.substring(reply.indexOf(' ') + 1).strip()),
                output + job.stdout(), readIfThere(outputs.resolve(tag + ".err")) + job.stderr() + threadDump(tag), job.elapsed());
            final Map<String, Long> threads = new TreeMap<>();
            long process = 0;
            for (final String line : readIfThere(outputs.resolve(tag + ".cpu")).lines().toList())
            {
                final String[] words = line.split(" ", 3);
                switch (words[0])
                {
                    case "thread" -> threads.merge(words[2], Long.parseLong(words[1]) * 10, Long::sum);
                    case "ended" -> threads.put("(ended threads)", Long.parseLong(words[1]) * 10);
                    case "process" -> process = Long.parseLong(words[1]) * 10;
                    default -> { }
                }
            }
            return new Run("ours", connections, round, client, table(output), threads, process,
                Snapshot.delta(section(job.stdout(), "before"), section(job.stdout(), "after")).kernelMs(),
                Snapshot.delta(serverBefore, serverAfter).kernelMs(), Snapshot.delta(serverBefore, serverAfter).counters(), Map.of(),
                syscalls);
        }

        Run kernel(final int connections, final int round)
        {
            final String before = kernel.run(JOB, "bash " + kernelScript + " snapshot").stdout();
            final GuestResult client = ours.run(limit(connections), kernelCm() + "bash " + oursScript + " kernel " + server + " " + SERVER_PORT + " "
                + connections);
            final String after = kernel.run(JOB, "bash " + kernelScript + " snapshot").stdout();
            return kernelRun(connections, round, client, before, after, Map.of());
        }

        Run kernelTraced(final int connections)
        {
            final GuestResult client = ours.run(limit(connections * 10), kernelCm() + "bash " + oursScript + " strace-kernel " + server + " "
                + SERVER_PORT + " " + connections);
            printDescriptors("kernel-strace-" + connections, client.stdout());
            return kernelRun(connections, -1, client, "", "", strace(section(client.stdout(), "strace")));
        }

        /** The script's environment: {@code KEEP_CM=1} leaves rdma_ucm loaded (and does not unload it) around a kernel run. */
        private String kernelCm()
        {
            return back.kernelCmThroughout ? "KEEP_CM=1 " : "";
        }

        private Run kernelRun(final int connections, final int round, final GuestResult job, final String serverBefore,
            final String serverAfter, final Map<String, Long> syscalls)
        {
            final String output = section(job.stdout(), "output");
            final String status = section(job.stdout(), "status").strip();
            final GuestResult client = new GuestResult(job.command(), job.exitStatus() != 0 ? job.exitStatus()
                : status.isEmpty() ? 1 : Integer.parseInt(status), job.stdout(), job.stderr(), job.elapsed());
            final Map<String, Long> threads = new TreeMap<>();
            for (final String line : section(job.stdout(), "threads").lines().toList())
            {
                final String stat = line.substring("thread ".length());
                threads.merge(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(' ', '_'),
                    CmtimeDriver.ticksOf(stat) * 10, Long::sum);
            }
            final String before = section(job.stdout(), "before");
            final String after = section(job.stdout(), "after");
            final Snapshot client0 = Snapshot.of(before);
            final Snapshot client1 = Snapshot.of(after);
            return new Run("kernel", connections, round, client, table(output), threads, client1.childrenMs - client0.childrenMs,
                Snapshot.delta(before, after).kernelMs(), Snapshot.delta(serverBefore, serverAfter).kernelMs(),
                Snapshot.delta(serverBefore, serverAfter).counters(), client1.counters(), syscalls);
        }
    }

    /**
     * What {@code cmtime-rounds.sh snapshot} printed: {@code /proc/stat}'s cpu line, the kernel threads' ticks
     * (by name, a kworker by the workqueue it last ran: {@code kworker/u4:2-ib_cm} counts as {@code kworker-ib_cm})
     * and the CM's counters; with {@code children}, the shell's children's CPU (the kernel's cmtime).
     */
    record Snapshot(long[] stat, Map<String, Long> threads, Map<String, Long> counterValues, long childrenMs)
    {
        private static final List<String> STAT = List.of("user", "nice", "system", "idle", "iowait", "irq", "softirq");

        static Snapshot of(final String text)
        {
            long[] stat = new long[STAT.size()];
            final Map<String, Long> threads = new TreeMap<>();
            final Map<String, Long> counters = new TreeMap<>();
            long children = 0;
            for (final String line : text.lines().toList())
            {
                final String[] words = line.strip().split("\\s+");
                switch (words[0])
                {
                    case "stat" ->
                    {
                        stat = new long[STAT.size()];
                        for (int i = 0; i < stat.length && i + 1 < words.length; i++)
                        {
                            stat[i] = Long.parseLong(words[i + 1]);
                        }
                    }
                    case "kt" -> threads.merge(group(words[1]), Long.parseLong(words[2]), Long::sum);
                    case "cm" -> counters.put(words[1], Long.parseLong(words[2]));
                    case "children" -> children = Math.round((Long.parseLong(words[1]) * 60 + Double.parseDouble(words[2])
                        + Long.parseLong(words[3]) * 60 + Double.parseDouble(words[4])) * 1000);
                    default -> { }
                }
            }
            return new Snapshot(stat, threads, counters, children);
        }

        static String group(final String name)
        {
            final int slash = name.indexOf('/');
            if (slash < 0)
            {
                return name;
            }
            final int dash = name.indexOf('-', slash);
            return name.substring(0, slash) + (dash < 0 ? "" : name.substring(dash));
        }

        static Delta delta(final String before, final String after)
        {
            return new Delta(of(before), of(after));
        }

        Map<String, Long> counters()
        {
            return sums(counterValues);
        }

        /** The tx retries and rx duplicates, summed over devices, ports and message types, and each non-zero type. */
        static Map<String, Long> sums(final Map<String, Long> counters)
        {
            final Map<String, Long> sums = new TreeMap<>();
            counters.forEach((path, value) ->
            {
                final String kind = path.contains("cm_tx_retries") ? "tx_retries" : "rx_duplicates";
                sums.merge(kind, value, Long::sum);
                if (value != 0)
                {
                    sums.merge(kind + "/" + path.substring(path.lastIndexOf('/') + 1), value, Long::sum);
                }
            });
            return sums;
        }
    }

    private record Delta(Snapshot before, Snapshot after)
    {
        /** ms of each /proc/stat field ({@code stat:softirq} ...), then every kernel thread group that ran. */
        Map<String, Long> kernelMs()
        {
            final Map<String, Long> ms = new LinkedHashMap<>();
            for (int i = 0; i < Snapshot.STAT.size(); i++)
            {
                if (!Snapshot.STAT.get(i).equals("idle"))
                {
                    ms.put("stat:" + Snapshot.STAT.get(i), (after.stat[i] - before.stat[i]) * 10);
                }
            }
            after.threads.forEach((name, ticks) ->
            {
                final long gained = (ticks - before.threads.getOrDefault(name, 0L)) * 10;
                if (gained > 0)
                {
                    ms.put(name, gained);
                }
            });
            return ms;
        }

        Map<String, Long> counters()
        {
            final Map<String, Long> delta = new TreeMap<>(after.counterValues);
            before.counterValues.forEach((path, value) -> delta.merge(path, -value, Long::sum));
            return Snapshot.sums(delta);
        }
    }

    /** Per name the median over the runs (a run without the name counts 0), the {@code limit} largest. */
    private static String top(final List<Run> runs, final java.util.function.Function<Run, Map<String, Long>> values, final int limit)
    {
        final TreeMap<String, Double> medians = new TreeMap<>();
        runs.forEach(run -> values.apply(run).keySet().forEach(name -> medians.put(name, 0.0)));
        medians.replaceAll((name, zero) -> median(runs.stream().mapToDouble(run -> values.apply(run).getOrDefault(name, 0L)).toArray()));
        final StringBuilder text = new StringBuilder();
        medians.entrySet().stream().filter(entry -> entry.getKey().startsWith("stat:") && entry.getValue() > 0).forEach(entry ->
            text.append(String.format(" %s %.0f", entry.getKey(), entry.getValue())));
        medians.entrySet().stream().filter(entry -> !entry.getKey().startsWith("stat:") && entry.getValue() > 0)
            .sorted(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())).limit(limit)
            .forEach(entry -> text.append(String.format(" %s %.0f", entry.getKey(), entry.getValue())));
        return text.toString();
    }

    private static String counterText(final Map<String, Long> counters)
    {
        if (counters.isEmpty())
        {
            return "-";
        }
        final StringBuilder text = new StringBuilder(counters.getOrDefault("tx_retries", 0L) + " / " + counters.getOrDefault(
            "rx_duplicates", 0L));
        counters.forEach((name, value) ->
        {
            if (name.contains("/"))
            {
                text.append(' ').append(name).append('=').append(value);
            }
        });
        return text.toString();
    }

    static double median(final double[] values)
    {
        if (values.length == 0)
        {
            return Double.NaN;
        }
        final double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static String ratio(final double ours, final double kernel)
    {
        return Double.isNaN(ours) || Double.isNaN(kernel) ? "-" : String.format("%.2f", ours / Math.max(kernel, 0.01));
    }

    /** The one table in a cmtime output, step to total ms; empty without one. */
    private static Map<String, Double> table(final String output)
    {
        final List<Map<String, Double>> tables = CmtimeAcrossTheWire.tables(output);
        return tables.size() == 1 ? tables.getFirst() : Map.of();
    }

    /** The traced round's ioctls and calls per descriptor (the script's "ioctls" and "by descriptor"), to the build log: what strace -c cannot attribute. */
    private static void printDescriptors(final String tag, final String stdout)
    {
        System.out.println("strace of " + tag + ", ioctls by descriptor and request:\n" + section(stdout, "ioctls")
            + "calls by descriptor:\n" + section(stdout, "by descriptor"));
    }

    /** strace -c's table: syscall to calls, and "total". */
    static Map<String, Long> strace(final String table)
    {
        final Map<String, Long> calls = new TreeMap<>();
        for (final String line : table.lines().toList())
        {
            final String[] words = line.strip().split("\\s+");
            // % time, seconds, usecs/call, calls, [errors,] syscall; the total row has no usecs/call
            if (words.length >= 5 && words[0].matches("[0-9.]+") && words[3].matches("[0-9]+"))
            {
                calls.put(words[words.length - 1], Long.parseLong(words[3]));
            }
            else if (words.length >= 4 && words[0].matches("[0-9.]+") && words[words.length - 1].equals("total"))
            {
                calls.put("total", Long.parseLong(words[2]));
            }
        }
        return calls;
    }

    /** The lines after {@code == NAME} up to the next {@code == } line; a name followed by words gives those words. */
    static String section(final String output, final String name)
    {
        final StringBuilder text = new StringBuilder();
        boolean in = false;
        for (final String line : output.lines().toList())
        {
            if (line.startsWith("== "))
            {
                in = line.equals("== " + name);
                if (line.startsWith("== " + name + " "))
                {
                    text.append(line.substring(("== " + name + " ").length())).append('\n');
                }
                continue;
            }
            if (in)
            {
                text.append(line).append('\n');
            }
        }
        return text.toString();
    }

    private static long pid(final String driver)
    {
        return driver.lines().filter(line -> line.startsWith("pid ")).mapToLong(line -> Long.parseLong(line.substring(4).strip()))
            .findFirst().orElse(0);
    }

    private static String install(final KernelGuest guest)
    {
        final Path script = guest.sharedDirectory().resolve(SCRIPT);
        try (InputStream in = CmtimeRounds.class.getResourceAsStream(SCRIPT))
        {
            if (in == null)
            {
                throw new IllegalStateException(SCRIPT + " is not on the class path beside " + CmtimeRounds.class.getName());
            }
            Files.write(script, in.readAllBytes());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + script, ex);
        }
        return guest.guestPathOf(script);
    }

    private static void mkdirs(final Path directory)
    {
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create " + directory, ex);
        }
    }

    private static String readIfThere(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file) : "";
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
    }

    private static void write(final Path file, final String text)
    {
        try
        {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }
}
