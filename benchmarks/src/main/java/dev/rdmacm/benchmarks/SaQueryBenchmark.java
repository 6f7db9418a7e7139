package dev.rdmacm.benchmarks;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.SaCounter;
import dev.rdmacm.sa.path.PathQuery;
import dev.rdmacm.sa.path.PathRecords;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * PathRecord queries against OpenSM's SA on ibsim (issue 5): queries per second with 1, 8 and 64
 * outstanding, {@code saquery -p} run once per operation beside them, and a job-start storm of
 * {@link #STORM} resolutions over the 4 HCAs, with and without the cache and coalescing, reporting the
 * SA queries each storm sent (printed at the end of the trial).
 * <p>
 * Each trial also prints the CPU time our JVM, ibsim, OpenSM and the saquery processes used during its
 * measurement iterations (from /proc/PID/stat), in total and per SA query: who the bottleneck is.
 * <p>
 * Needs ibsim, OpenSM and saquery: {@code benchmarks/run SaQuery}.
 */
@State(Scope.Benchmark)
@Fork(value = 1, jvmArgsAppend = {"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"})
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SaQueryBenchmark
{
    /** Queries per invocation of the windowed benchmarks. */
    static final int WINDOW_BATCH = 512;
    /** Resolutions per job-start storm. */
    static final int STORM = 256;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private SimulatedFabric fabric;
    private SaClient raw;
    private SaClient cached;
    private Gid source;
    private List<Gid> destinations;
    private long stormsWithCache;
    private long stormQueriesWithCache;
    private long stormsWithout;
    private long stormQueriesWithout;
    private int next;
    private ProcessCpu jvmBefore;
    private ProcessCpu ibsimBefore;
    private ProcessCpu openSmBefore;
    private long wallBefore;
    private long queriesBefore;
    private ProcessCpu jvmUsed = new ProcessCpu(0, 0);
    private ProcessCpu ibsimUsed = new ProcessCpu(0, 0);
    private ProcessCpu openSmUsed = new ProcessCpu(0, 0);
    private long wallUsed;
    private long queriesMeasured;

    @Setup(Level.Trial)
    public void start()
    {
        fabric = SimulatedFabric.start();
        try
        {
            source = fabric.port("Hca2").gid();
            destinations = fabric.hcaPorts().stream().map(FabricPort::gid).toList();
            raw = SaClient.start(attach(), SaClientConfig.defaults().withSaDepth(64).withCacheTtl(Duration.ZERO).withCoalesce(false));
            cached = SaClient.start(attach(), SaClientConfig.defaults().withSaDepth(64));
        }
        catch (final RuntimeException ex)
        {
            // JMH runs no tear-down after a failed set-up
            if (raw != null)
            {
                raw.close();
            }
            fabric.close();
            throw ex;
        }
    }

    private IbsimTransport attach()
    {
        return IbsimTransport.attach(fabric.host(), fabric.ctlPort(), "Hca2", Duration.ofSeconds(2));
    }

    @Setup(Level.Iteration)
    public void beforeIteration()
    {
        jvmBefore = ProcessCpu.self();
        ibsimBefore = ProcessCpu.of(fabric.ibsimPid());
        openSmBefore = ProcessCpu.of(fabric.openSmPid());
        queriesBefore = queriesSoFar();
        wallBefore = System.nanoTime();
    }

    @TearDown(Level.Iteration)
    public void afterIteration(final IterationParams iteration)
    {
        if (iteration.getType() != IterationType.MEASUREMENT)
        {
            return;
        }
        wallUsed += System.nanoTime() - wallBefore;
        jvmUsed = jvmUsed.plus(ProcessCpu.self().minus(jvmBefore));
        ibsimUsed = ibsimUsed.plus(ProcessCpu.of(fabric.ibsimPid()).minus(ibsimBefore));
        openSmUsed = openSmUsed.plus(ProcessCpu.of(fabric.openSmPid()).minus(openSmBefore));
        queriesMeasured += queriesSoFar() - queriesBefore;
    }

    /** SA queries sent by our clients, plus saquery runs (one query each). */
    private long queriesSoFar()
    {
        return raw.counters().get(SaCounter.SA_QUERIES_SENT) + cached.counters().get(SaCounter.SA_QUERIES_SENT) + next;
    }

    private void printCpu()
    {
        if (wallUsed == 0 || queriesMeasured == 0)
        {
            return;
        }
        final double perQuery = 1000.0 / queriesMeasured;
        System.out.printf("%nCPU in the measurement iterations: %.1f s wall, %d SA queries (%.0f/s)%n", wallUsed / 1e9,
            queriesMeasured, queriesMeasured / (wallUsed / 1e9));
        System.out.printf("  our JVM  %6.2f s  %6.1f us/query%n", jvmUsed.ownNanos() / 1e9, jvmUsed.ownNanos() * perQuery / 1e6);
        System.out.printf("  ibsim    %6.2f s  %6.1f us/query%n", ibsimUsed.ownNanos() / 1e9, ibsimUsed.ownNanos() * perQuery / 1e6);
        System.out.printf("  OpenSM   %6.2f s  %6.1f us/query%n", openSmUsed.ownNanos() / 1e9, openSmUsed.ownNanos() * perQuery / 1e6);
        if (jvmUsed.waitedChildrenNanos() > 0)
        {
            System.out.printf("  saquery  %6.2f s  %6.1f us/query%n", jvmUsed.waitedChildrenNanos() / 1e9,
                jvmUsed.waitedChildrenNanos() * perQuery / 1e6);
        }
    }

    @TearDown(Level.Trial)
    public void stop()
    {
        printCpu();
        if (stormsWithCache > 0)
        {
            System.out.printf("%njob-start storm, %d resolutions over %d destinations: SA queries per storm with cache and " +
                "coalescing %.1f%n", STORM, destinations.size(), (double)stormQueriesWithCache / stormsWithCache);
        }
        if (stormsWithout > 0)
        {
            System.out.printf("%njob-start storm, %d resolutions over %d destinations: SA queries per storm without cache " +
                "or coalescing %.1f%n", STORM, destinations.size(), (double)stormQueriesWithout / stormsWithout);
        }
        raw.close();
        cached.close();
        fabric.close();
    }

    @Benchmark
    @OperationsPerInvocation(WINDOW_BATCH)
    public void outstanding1() throws Exception
    {
        window(1);
    }

    @Benchmark
    @OperationsPerInvocation(WINDOW_BATCH)
    public void outstanding8() throws Exception
    {
        window(8);
    }

    @Benchmark
    @OperationsPerInvocation(WINDOW_BATCH)
    public void outstanding64() throws Exception
    {
        window(64);
    }

    /** The same query as a separate saquery process: what a script calling saquery gets. */
    @Benchmark
    public int saqueryProcess()
    {
        final Gid destination = destinations.get(next++ & 3);
        return fabric.saquery("Hca2", "-p", "--sgid", source.toString(), "--dgid", destination.toString()).exitCode();
    }

    @Benchmark
    @OperationsPerInvocation(STORM)
    public void stormWithCacheAndCoalescing() throws Exception
    {
        cached.invalidateCache();
        final long before = cached.counters().get(SaCounter.SA_QUERIES_SENT);
        storm(cached);
        stormQueriesWithCache += cached.counters().get(SaCounter.SA_QUERIES_SENT) - before;
        stormsWithCache++;
    }

    @Benchmark
    @OperationsPerInvocation(STORM)
    public void stormWithoutCache() throws Exception
    {
        final long before = raw.counters().get(SaCounter.SA_QUERIES_SENT);
        storm(raw);
        stormQueriesWithout += raw.counters().get(SaCounter.SA_QUERIES_SENT) - before;
        stormsWithout++;
    }

    private void storm(final SaClient client) throws Exception
    {
        final List<CompletableFuture<?>> results = new ArrayList<>(STORM);
        for (int i = 0; i < STORM; i++)
        {
            results.add(PathRecords.query(client, PathQuery.byGids(source, destinations.get(i % destinations.size())), TIMEOUT));
        }
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
    }

    /** {@link #WINDOW_BATCH} queries, never more than {@code outstanding} in flight. */
    private void window(final int outstanding) throws Exception
    {
        final Semaphore slots = new Semaphore(outstanding);
        for (int i = 0; i < WINDOW_BATCH; i++)
        {
            slots.acquire();
            PathRecords.query(raw, PathQuery.byGids(source, destinations.get(i & 3)), TIMEOUT)
                .whenComplete((paths, failure) -> slots.release());
        }
        if (!slots.tryAcquire(outstanding, 30, TimeUnit.SECONDS))
        {
            throw new IllegalStateException("queries still outstanding after 30 s: " + raw.counters());
        }
    }
}
