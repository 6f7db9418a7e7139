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
import java.util.List;
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
    record Run(long queries, long wallNanos, long clientCpuNanos, long processCpuNanos, long ibsimCpuNanos, long openSmCpuNanos)
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
            ours(window, warmup);
            final List<Run> raw = new ArrayList<>();
            final List<Run> java = new ArrayList<>();
            for (int round = 1; round <= rounds; round++)
            {
                raw.add(raw(window, warmup, queries));
                java.add(ours(window, queries));
                System.out.printf("window %2d round %d: raw C %,9.0f/s %6.2f us/query | ours %,9.0f/s engine %6.2f us/query, " +
                    "JVM %6.2f | ibsim %5.2f / %5.2f, OpenSM %5.2f / %5.2f us/query (C / ours)%n",
                    window, round, raw.getLast().rate(), raw.getLast().perQueryMicros(raw.getLast().clientCpuNanos()),
                    java.getLast().rate(), java.getLast().perQueryMicros(java.getLast().clientCpuNanos()),
                    java.getLast().perQueryMicros(java.getLast().processCpuNanos()),
                    raw.getLast().perQueryMicros(raw.getLast().ibsimCpuNanos()),
                    java.getLast().perQueryMicros(java.getLast().ibsimCpuNanos()),
                    raw.getLast().perQueryMicros(raw.getLast().openSmCpuNanos()),
                    java.getLast().perQueryMicros(java.getLast().openSmCpuNanos()));
            }
            summarise(window, queries, raw, java);
        }
    }

    private static void summarise(final int window, final long queries, final List<Run> raw, final List<Run> java)
    {
        final double rawRate = median(raw.stream().mapToDouble(Run::rate).toArray());
        final double ourRate = median(java.stream().mapToDouble(Run::rate).toArray());
        final double rawCpu = median(raw.stream().mapToDouble(r -> r.perQueryMicros(r.clientCpuNanos())).toArray());
        final double engineCpu = median(java.stream().mapToDouble(r -> r.perQueryMicros(r.clientCpuNanos())).toArray());
        final double jvmCpu = median(java.stream().mapToDouble(r -> r.perQueryMicros(r.processCpuNanos())).toArray());
        System.out.printf("== window %d, %,d queries per run, medians of %d rounds: raw C %,.0f/s, ours %,.0f/s = %.2fx the raw " +
            "client's rate (%.2fx its time); client CPU per query: raw C %.2f us, our engine thread %.2f us (%.2fx), our JVM %.2f us%n",
            window, queries, raw.size(), rawRate, ourRate, ourRate / rawRate, rawRate / ourRate, rawCpu, engineCpu,
            engineCpu / rawCpu, jvmCpu);
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
        final double share = (double)queries / (queries + warmup);
        return new Run(queries, wall, cpu, cpu,
            (long)(ProcessCpu.of(fabric.ibsimPid()).minus(ibsimBefore).ownNanos() * share),
            (long)(ProcessCpu.of(fabric.openSmPid()).minus(openSmBefore).ownNanos() * share));
    }

    private Run ours(final int window, final long queries) throws InterruptedException
    {
        final ProcessCpu jvmBefore = ProcessCpu.self();
        final ProcessCpu ibsimBefore = ProcessCpu.of(fabric.ibsimPid());
        final ProcessCpu openSmBefore = ProcessCpu.of(fabric.openSmPid());
        final long engineBefore = EngineThreadCpu.nanos(client);
        final long start = System.nanoTime();
        final Semaphore slots = new Semaphore(window);
        final AtomicLong answered = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        for (long i = 0; i < queries && failure.get() == null; i++)
        {
            slots.acquire();
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
                slots.release();
            });
        }
        if (!slots.tryAcquire(window, 30, TimeUnit.SECONDS))
        {
            throw new IllegalStateException("queries still outstanding after 30 s: " + client.counters());
        }
        final long wall = System.nanoTime() - start;
        final long engineCpu = EngineThreadCpu.nanos(client) - engineBefore;
        if (failure.get() != null)
        {
            throw new IllegalStateException("a query failed after " + answered.get() + " answers", failure.get());
        }
        return new Run(queries, wall, engineCpu, ProcessCpu.self().minus(jvmBefore).ownNanos(),
            ProcessCpu.of(fabric.ibsimPid()).minus(ibsimBefore).ownNanos(),
            ProcessCpu.of(fabric.openSmPid()).minus(openSmBefore).ownNanos());
    }
}
