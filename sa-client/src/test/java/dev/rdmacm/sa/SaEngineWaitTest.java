package dev.rdmacm.sa;

import dev.rdmacm.sa.path.PathQuery;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.sa.path.PathRecords;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.ScriptedSa;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine thread blocks when it has nothing to do (no spinning, no sleeping in steps) and still
 * wakes for each of its three reasons: a MAD from the SA, a query from another thread, a deadline.
 * CPU time is the engine thread's own (ThreadMXBean), so other load on the machine does not count.
 */
class SaEngineWaitTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();
    private static final Duration IDLE = Duration.ofSeconds(1);
    /**
     * Far above a blocked thread (0) and far below a thread that wakes every 200 us to poll its socket,
     * as the engine's former idle strategy did (tens of ms per second).
     */
    private static final long IDLE_CPU_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Test
    void shouldUseNoCpuWhileIdleBetweenQueries() throws Exception
    {
        try (SaClient client = ibsimClient())
        {
            assertEquals(1, queryHca3(client).size());
            final long cpu = engineCpuNanosOver(client, IDLE);
            assertTrue(cpu < IDLE_CPU_LIMIT_NANOS, "engine thread used " + cpu / 1000 + " us of CPU in " + IDLE + " idle");
        }
    }

    @Test
    void shouldSendAQuerySubmittedWhileTheEngineWaitsWithoutADeadline() throws Exception
    {
        try (SaClient client = ibsimClient())
        {
            assertEquals(1, queryHca3(client).size());
            // No query is outstanding, so no timer is set: the engine waits for a MAD or a wake-up only,
            // and without the wake-up this query would never leave.
            Thread.sleep(IDLE.toMillis());
            assertEquals(1, queryHca3(client).size());
            assertEquals(2, client.counters().get(SaCounter.SA_QUERIES_SENT));
            assertEquals(0, client.counters().get(SaCounter.RETRIES_SENT));
        }
    }

    @Test
    void shouldSleepBetweenTheRetryTimersOfAnUnansweredQuery() throws Exception
    {
        final ScriptedSa sa = new ScriptedSa().dropQueries(true);
        try (SaClient client = SaClient.start(sa, SaClientConfig.defaults().withHonourResponseTime(false)))
        {
            // 5 s split the kernel's way: retries at 500 ms (its minimum interval), 1, 1.5, 2 s, then doubling
            // to 3 s, then the deadline. Five times the measured second, so that only a machine stalled for
            // seconds could end the query before the measurement does.
            final CompletableFuture<SaResponse> query = client.query(
                SaRequest.get(SaEngineScriptedTest.ATTRIBUTE).description("unanswered")
                    .payload(new byte[SaEngineScriptedTest.RECORD]).recordLength(SaEngineScriptedTest.RECORD).build(),
                IDLE.multipliedBy(5));
            final long cpu = engineCpuNanosOver(client, IDLE);
            assertFalse(query.isDone());
            final ExecutionException failure = assertThrows(ExecutionException.class, () -> query.get(10, TimeUnit.SECONDS));
            assertEquals(SaError.TIMED_OUT, assertInstanceOf(SaQueryException.class, failure.getCause()).error());
            // Intervals are minimums: a late engine thread sends fewer retries, never more than the five due.
            final long retries = client.counters().get(SaCounter.RETRIES_SENT);
            assertTrue(retries >= 1 && retries <= 5, retries + " retries: each retry timer woke the engine");
            assertTrue(cpu < IDLE_CPU_LIMIT_NANOS, "engine thread used " + cpu / 1000 + " us of CPU waiting for a deadline");
        }
    }

    private static SaClient ibsimClient()
    {
        final SimulatedFabric fabric = FABRIC.fabric();
        return SaClient.start(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), "Hca2", Duration.ofSeconds(2)),
            SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
    }

    private static List<PathRecordValue> queryHca3(final SaClient client) throws Exception
    {
        final FabricPort source = FABRIC.fabric().port("Hca2");
        final FabricPort destination = FABRIC.fabric().port("Hca3");
        return PathRecords.query(client, PathQuery.byGids(source.gid(), destination.gid()), Duration.ofSeconds(30))
            .get(10, TimeUnit.SECONDS);
    }

    private static long engineCpuNanosOver(final SaClient client, final Duration period) throws InterruptedException
    {
        final long id = client.engineThread().threadId();
        final long before = THREADS.getThreadCpuTime(id);
        Thread.sleep(period.toMillis());
        return THREADS.getThreadCpuTime(id) - before;
    }
}
