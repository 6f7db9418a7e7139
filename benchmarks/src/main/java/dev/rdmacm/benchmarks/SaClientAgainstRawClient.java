package dev.rdmacm.benchmarks;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.path.PathQuery;
import dev.rdmacm.sa.path.PathRecords;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Our SA client against the physical-limit baseline, {@code ibsim_path_client.c}, on one ibsim +
 * OpenSM fabric in one invocation (issue 15): the same PathRecord Get (SGID, DGID, reversible, one
 * path), the same source (Hca2), the same four destinations in the same order, the same window, the
 * same number of queries. Rounds alternate C then Java so that load drifts hit both.
 * <p>
 * Per run it reports the rate, the client's CPU per query (the C process's getrusage; for us the
 * engine thread alone from ThreadMXBean, and the whole JVM from /proc, which adds the thread
 * submitting the queries and completing their futures) and ibsim's and OpenSM's CPU per query.
 * Ours runs twice per round: submitted from the harness's main thread (every answer wakes it, a
 * cross-thread hand-off each way, as for any caller on another thread), and chained on the engine
 * thread (each answer's callback submits the next query: one loop and no hand-off, as in the C client).
 * <p>
 * usage: {@code SaClientAgainstRawClient RAW_CLIENT [ROUNDS [QUERIES_AT_1 [QUERIES_AT_64]]]};
 * run by {@code benchmarks/run-sa-bench}, which compiles the C client.
 */
public final class SaClientAgainstRawClient
{
    private static final int[] WINDOWS = {1, 64};
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final String SOURCE_NODE = "Hca2";

    private final Path rawClient;
    private final SimulatedFabric fabric;
    private final SaClient client;
    private final Gid source;
    private final List<Gid> destinations;

    private SaClientAgainstRawClient(final Path rawClient, final SimulatedFabric fabric, final SaClient client)
    {
        this.rawClient = rawClient;
        this.fabric = fabric;
        this.client = client;
        this.source = fabric.port(SOURCE_NODE).gid();
        this.destinations = fabric.hcaPorts().stream().map(FabricPort::gid).toList();
    }

    /** One measured run: queries, wall and CPU in nanoseconds. */
    record Run(long queries, long wallNanos, long clientCpuNanos, long clientUserNanos, long processCpuNanos, long ibsimCpuNanos,
        long openSmCpuNanos)
    {
        double rate()
        {
            return queries * 1e9 / wallNanos;
        }

        double perQueryMicros(final long nanos)
        {
            return nanos / 1e3 / queries;
        }
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length < 1)
        {
            System.err.println("usage: SaClientAgainstRawClient RAW_CLIENT [ROUNDS [QUERIES_AT_1 [QUERIES_AT_64]]]");
            System.exit(1);
        }
        final Path rawClient = Path.of(args[0]);
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        final long queriesAt1 = args.length > 2 ? Long.parseLong(args[2]) : 20_000;
        final long queriesAt64 = args.length > 3 ? Long.parseLong(args[3]) : 200_000;
        try (SimulatedFabric fabric = SimulatedFabric.start();
             SaClient client = SaClient.start(
                 IbsimTransport.attach(fabric.host(), fabric.ctlPort(), SOURCE_NODE, Duration.ofSeconds(2)),
                 SaClientConfig.defaults().withSaDepth(64).withCacheTtl(Duration.ZERO).withCoalesce(false)))
        {
            new SaClientAgainstRawClient(rawClient, fabric, client).compare(rounds, queriesAt1, queriesAt64);
        }
    }

    private void compare(final int rounds, final long queriesAt1, final long queriesAt64) throws Exception
    {
        System.out.printf("fabric: ibsim udp %d, OpenSM as %s (LID %d); source %s, destinations %s%n",
            fabric.ctlPort(), SimulatedFabric.SM_NODE, fabric.smLid(), source, destinations);
        for (final int window : WINDOWS)
        {
            final long queries = window == 1 ? queriesAt1 : queriesAt64;
            final long warmup = queries / 4;
            for (final Submitter submitter : Submitter.values())
            {
                ours(window, warmup, submitter);
            }
            final List<Run> raw = new ArrayList<>();
            final Map<Submitter, List<Run>> java = new EnumMap<>(Submitter.class);
            for (int round = 1; round <= rounds; round++)
            {
                raw.add(raw(window, warmup, queries));
                final Run c = raw.getLast();
                System.out.printf("window %2d round %d: raw C              %,9.0f/s client %6.2f us/query (user %5.2f)      " +
                    "| ibsim %5.2f, OpenSM %5.2f us/query%n", window, round, c.rate(), c.perQueryMicros(c.clientCpuNanos()),
                    c.perQueryMicros(c.clientUserNanos()), c.perQueryMicros(c.ibsimCpuNanos()), c.perQueryMicros(c.openSmCpuNanos()));
                for (final Submitter submitter : Submitter.values())
                {
                    final Run run = ours(window, queries, submitter);
                    java.computeIfAbsent(submitter, s -> new ArrayList<>()).add(run);
                    System.out.printf("window %2d round %d: ours %-13s %,9.0f/s engine %6.2f us/query (user %5.2f), JVM %6.2f | " +
                        "ibsim %5.2f, OpenSM %5.2f us/query%n", window, round, submitter, run.rate(),
                        run.perQueryMicros(run.clientCpuNanos()), run.perQueryMicros(run.clientUserNanos()),
                        run.perQueryMicros(run.processCpuNanos()),
                        run.perQueryMicros(run.ibsimCpuNanos()), run.perQueryMicros(run.openSmCpuNanos()));
                }
            }
            java.forEach((submitter, runs) -> summarise(window, queries, submitter, raw, runs));
        }
    }

    private static void summarise(
        final int window, final long queries, final Submitter submitter, final List<Run> raw, final List<Run> java)
    {
        final double rawRate = median(raw.stream().mapToDouble(Run::rate).toArray());
        final double ourRate = median(java.stream().mapToDouble(Run::rate).toArray());
        final double rawCpu = median(raw.stream().mapToDouble(r -> r.perQueryMicros(r.clientCpuNanos())).toArray());
        final double engineCpu = median(java.stream().mapToDouble(r -> r.perQueryMicros(r.clientCpuNanos())).toArray());
        final double jvmCpu = median(java.stream().mapToDouble(r -> r.perQueryMicros(r.processCpuNanos())).toArray());
        final double rawUser = median(raw.stream().mapToDouble(r -> r.perQueryMicros(r.clientUserNanos())).toArray());
        final double engineUser = median(java.stream().mapToDouble(r -> r.perQueryMicros(r.clientUserNanos())).toArray());
        System.out.printf("== window %d, submitter %s, %,d queries per run, medians of %d rounds: raw C %,.0f/s, ours %,.0f/s = " +
            "%.2fx the raw client's rate (%.2fx its time); client CPU per query: raw C %.2f us (user %.2f), our engine thread " +
            "%.2f us (%.2fx; user %.2f), our JVM %.2f us%n",
            window, submitter, queries, raw.size(), rawRate, ourRate, ourRate / rawRate, rawRate / ourRate, rawCpu, rawUser,
            engineCpu, engineCpu / rawCpu, engineUser, jvmCpu);
    }

    private static double median(final double[] values)
    {
        Arrays.sort(values);
        final int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    private Run raw(final int window, final long warmup, final long queries) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of(rawClient.toString(), fabric.host(),
            Integer.toString(fabric.ctlPort()), SOURCE_NODE, Integer.toString(fabric.smLid()), Integer.toString(window),
            Long.toString(warmup), Long.toString(queries), Long.toHexString(source.interfaceId())));
        destinations.forEach(d -> command.add(Long.toHexString(d.interfaceId())));
        final ProcessCpu ibsimBefore = ProcessCpu.of(fabric.ibsimPid());
        final ProcessCpu openSmBefore = ProcessCpu.of(fabric.openSmPid());
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0)
        {
            process.destroyForcibly();
            throw new IllegalStateException("the raw client failed (" + String.join(" ", command) + "): " + output);
        }
        // ibsim's and OpenSM's CPU include the warm-up here: the C client measures only itself after it
        final String[] fields = output.split(" ");
        final long wall = (long)(Double.parseDouble(fields[3]) * 1e9);
        final long cpu = (long)(Double.parseDouble(fields[7]) * 1e3 * queries);
        final long user = (long)(Double.parseDouble(fields[11]) * 1e3 * queries);
        final double share = (double)queries / (queries + warmup);
        return new Run(queries, wall, cpu, user, cpu,
            (long)(ProcessCpu.of(fabric.ibsimPid()).minus(ibsimBefore).ownNanos() * share),
            (long)(ProcessCpu.of(fabric.openSmPid()).minus(openSmBefore).ownNanos() * share));
    }

    /** Who submits each next query: the harness's own thread, or the completion of the previous one. */
    private enum Submitter
    {
        /** The main thread, blocking on a semaphore of WINDOW permits: every answer is a cross-thread hand-off. */
        OTHER_THREAD,
        /** The engine thread itself, from the answered query's callback: one loop, like the C client. */
        ENGINE_THREAD
    }

    private Run ours(final int window, final long queries, final Submitter submitter) throws InterruptedException
    {
        final ProcessCpu jvmBefore = ProcessCpu.self();
        final ProcessCpu ibsimBefore = ProcessCpu.of(fabric.ibsimPid());
        final ProcessCpu openSmBefore = ProcessCpu.of(fabric.openSmPid());
        final long engineBefore = EngineThreadCpu.nanos(client);
        final long engineUserBefore = EngineThreadCpu.userNanos(client);
        final long start = System.nanoTime();
        final Semaphore slots = new Semaphore(window);
        final AtomicLong sent = new AtomicLong();
        final AtomicLong answered = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Runnable[] next = new Runnable[1];
        next[0] = () ->
        {
            final long i = sent.getAndIncrement();
            final Gid destination = destinations.get((int)(i % destinations.size()));
            PathRecords.query(client, PathQuery.byGids(source, destination), TIMEOUT).whenComplete((paths, error) ->
            {
                if (error != null)
                {
                    failure.compareAndSet(null, error);
                }
                else if (paths.size() != 1 || !paths.getFirst().dgid().equals(destination))
                {
                    failure.compareAndSet(null, new IllegalStateException("asked for " + destination + ", got " + paths));
                }
                answered.incrementAndGet();
                if (submitter == Submitter.ENGINE_THREAD && sent.get() < queries && failure.get() == null)
                {
                    next[0].run();
                }
                else
                {
                    slots.release();
                }
            });
        };
        final long fromHere = submitter == Submitter.ENGINE_THREAD ? Math.min(window, queries) : queries;
        for (long i = 0; i < fromHere && failure.get() == null; i++)
        {
            slots.acquire();
            next[0].run();
        }
        if (!slots.tryAcquire(window, 30, TimeUnit.SECONDS))
        {
            throw new IllegalStateException("queries still outstanding after 30 s: " + client.counters());
        }
        final long wall = System.nanoTime() - start;
        final long engineCpu = EngineThreadCpu.nanos(client) - engineBefore;
        final long engineUser = EngineThreadCpu.userNanos(client) - engineUserBefore;
        if (failure.get() != null)
        {
            throw new IllegalStateException("a query failed after " + answered.get() + " answers", failure.get());
        }
        return new Run(queries, wall, engineCpu, engineUser, ProcessCpu.self().minus(jvmBefore).ownNanos(),
            ProcessCpu.of(fabric.ibsimPid()).minus(ibsimBefore).ownNanos(),
            ProcessCpu.of(fabric.openSmPid()).minus(openSmBefore).ownNanos());
    }
}
