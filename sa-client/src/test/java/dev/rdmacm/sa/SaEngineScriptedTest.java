package dev.rdmacm.sa;

import dev.rdmacm.sa.testing.FaultInjectingTransport;
import dev.rdmacm.sa.testing.Faults;
import dev.rdmacm.sa.testing.ScriptedSa;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine against {@link ScriptedSa}: what OpenSM under ibsim cannot show (RMPP segments, BUSY, redirect). */
class SaEngineScriptedTest
{
    static final int ATTRIBUTE = 0x0035;
    static final int RECORD = 64;
    static final Duration TIMEOUT = Duration.ofSeconds(2);

    static SaClientConfig fastConfig()
    {
        return SaClientConfig.defaults()
            .withRetryPolicy(RetryPolicy.KERNEL.withMinInterval(Duration.ofMillis(20)))
            .withHonourResponseTime(false)
            .withSaDepth(64);
    }

    static SaRequest table(final Object key)
    {
        return SaRequest.getTable(ATTRIBUTE).description("test table").payload(new byte[RECORD]).recordLength(RECORD)
            .cacheKey(key).build();
    }

    @Test
    void shouldReassembleATableSentAsManyRmppSegmentsWithSmallWindows() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(12, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records);
        try (SaClient client = SaClient.start(sa, fastConfig().withRmppWindow(2)))
        {
            final SaResponse response = client.query(table(null), TIMEOUT).get(5, TimeUnit.SECONDS);
            assertRecords(records, response);
            assertEquals(4, client.counters().get(SaCounter.RMPP_SEGMENTS_RECEIVED));
            assertTrue(client.counters().get(SaCounter.RMPP_ACKS_SENT) >= 3, client.counters().toString());
        }
    }

    @Test
    void shouldRecoverALostRmppSegment() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(12, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records).loseSegmentOnce(2).loseSegmentOnce(4);
        try (SaClient client = SaClient.start(sa, fastConfig().withRmppWindow(4)))
        {
            assertRecords(records, client.query(table(null), TIMEOUT).get(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void shouldIgnoreARepeatedRmppSegment() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(12, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records).repeatSegmentOnce(2).repeatSegmentOnce(3);
        try (SaClient client = SaClient.start(sa, fastConfig()))
        {
            assertRecords(records, client.query(table(null), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertEquals(2, client.counters().get(SaCounter.RMPP_SEGMENTS_DROPPED));
        }
    }

    @Test
    void shouldRetryBusyAnswers() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(1, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records).busy(2);
        try (SaClient client = SaClient.start(sa, fastConfig()))
        {
            assertRecords(records, client.query(table(null), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertEquals(2, client.counters().get(SaCounter.BUSY_RESPONSES));
            assertEquals(2, client.counters().get(SaCounter.RETRIES_SENT));
        }
    }

    @Test
    void shouldFollowARedirectToAnotherSaAddress() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(2, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records).redirectTo(77, 0x123);
        try (SaClient client = SaClient.start(sa, fastConfig()))
        {
            assertRecords(records, client.query(table(null), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertTrue(client.counters().get(SaCounter.REDIRECTS) >= 1, client.counters().toString());
        }
    }

    @Test
    void shouldMapNoRecordsToItsNamedError()
    {
        final ScriptedSa sa = new ScriptedSa();
        try (SaClient client = SaClient.start(sa, fastConfig()))
        {
            final SaRequest get = SaRequest.get(ATTRIBUTE).description("test get").payload(new byte[RECORD])
                .recordLength(RECORD).build();
            final SaQueryException ex = failure(client.query(get, TIMEOUT));
            assertEquals(SaError.NO_RECORDS, ex.error());
            assertEquals(0x0300, ex.madStatus());
        }
    }

    @Test
    void shouldFailATableQueryWithThePlainErrorTheSaSends()
    {
        try (SaClient client = SaClient.start(new ScriptedSa(), fastConfig()))
        {
            assertEquals(SaError.NO_RECORDS, failure(client.query(table(null), TIMEOUT)).error());
        }
    }

    @Test
    void shouldTimeOutAtTheDeadlineAfterKernelRetries()
    {
        final ScriptedSa sa = new ScriptedSa().silent(true);
        try (SaClient client = SaClient.start(sa, fastConfig()))
        {
            final long start = System.nanoTime();
            final SaQueryException ex = failure(client.query(table(null), Duration.ofMillis(1000)));
            final long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertEquals(SaError.TIMED_OUT, ex.error());
            assertEquals("ETIMEDOUT", ex.error().errno());
            // Never before the deadline; the upper bound is failure()'s 10 s wait, as a loaded machine may be
            // late to run the engine thread by any amount without that being a fault.
            assertTrue(elapsedMs >= 1000, "ended after " + elapsedMs + " ms");
            // 100 ms intervals (1000 / 10): retries at 100, 200, 300, then 400 doubling: 500, 900 - the deadline stops it.
            // The intervals are minimums, so a late engine thread sends fewer, never more; the engine reads the
            // system clock, so the exact count is not something a test on a shared machine can promise.
            final long retries = client.counters().get(SaCounter.RETRIES_SENT);
            assertTrue(retries >= 1 && retries <= 5, client.counters().toString());
        }
    }

    @Test
    void shouldNeverRetryFasterThanTheSaResponseTimeFromClassPortInfo() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(1, RECORD);
        // RespTimeValue 18: 4.096 us x 2^18 = 1074 ms, above both the minimum (20 ms) and a tenth of 3 s.
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records).responseTimeValue(18);
        try (SaClient client = SaClient.start(sa, fastConfig().withHonourResponseTime(true)))
        {
            assertRecords(records, client.query(table(null), TIMEOUT).get(5, TimeUnit.SECONDS));
            sa.dropQueries(true);
            final long retriesBefore = client.counters().get(SaCounter.RETRIES_SENT);
            assertEquals(SaError.TIMED_OUT, failure(client.query(table(null), Duration.ofSeconds(3))).error());
            // Retries at 1074 and 2148 ms; the next would be after the 3 s deadline. More than two is a retry
            // faster than the SA's response time; fewer only means the engine thread was run late.
            final long retries = client.counters().get(SaCounter.RETRIES_SENT) - retriesBefore;
            assertTrue(retries >= 1 && retries <= 2, client.counters().toString());
        }
    }

    @Test
    void shouldDropEveryAnswerFromAnotherSourceLidAndTimeOut()
    {
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, ScriptedSa.numberedRecords(1, RECORD));
        final FaultInjectingTransport transport = new FaultInjectingTransport(sa, Faults.NONE.withWrongSource(1.0), 7);
        try (SaClient client = SaClient.start(transport, fastConfig()))
        {
            assertEquals(SaError.TIMED_OUT, failure(client.query(table(null), Duration.ofMillis(500))).error());
            assertTrue(client.counters().get(SaCounter.DROPPED_WRONG_SOURCE) >= 1, client.counters().toString());
            assertEquals(0, client.counters().get(SaCounter.RESPONSES_ACCEPTED));
        }
    }

    @Test
    void shouldDropEveryAnswerWithAnotherTidAndTimeOut()
    {
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, ScriptedSa.numberedRecords(1, RECORD));
        final FaultInjectingTransport transport = new FaultInjectingTransport(sa, Faults.NONE.withWrongTid(1.0), 7);
        try (SaClient client = SaClient.start(transport, fastConfig()))
        {
            assertEquals(SaError.TIMED_OUT, failure(client.query(table(null), Duration.ofMillis(500))).error());
            assertTrue(client.counters().get(SaCounter.DROPPED_UNKNOWN_TID) >= 1, client.counters().toString());
            assertEquals(0, client.counters().get(SaCounter.RESPONSES_ACCEPTED));
        }
    }

    @Test
    void shouldAcceptTheFirstOfDuplicatedAnswersAndDropTheRest() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(2, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records);
        final FaultInjectingTransport transport = new FaultInjectingTransport(sa, Faults.NONE.withDuplicate(1.0), 7);
        try (SaClient client = SaClient.start(transport, fastConfig()))
        {
            assertRecords(records, client.query(table(null), TIMEOUT).get(5, TimeUnit.SECONDS));
            final SaRequest get = SaRequest.get(ATTRIBUTE).description("test get").payload(new byte[RECORD])
                .recordLength(RECORD).build();
            assertArrayEquals(records.get(0), client.query(get, TIMEOUT).get(5, TimeUnit.SECONDS).records().get(0));
            // A bound for a hang, not a measurement: the twins are usually dropped within milliseconds.
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (client.counters().get(SaCounter.DROPPED_UNKNOWN_TID) < 2 && System.nanoTime() < deadline)
            {
                Thread.sleep(5);
            }
            // The late twins of the two answers (and of ClassPortInfo's) match no transaction any more.
            assertTrue(client.counters().get(SaCounter.DROPPED_UNKNOWN_TID) >= 2, client.counters().toString());
        }
    }

    @Test
    void shouldQueueBeyondSaDepthAndStillAnswerEveryQuery() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(1, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records);
        try (SaClient client = SaClient.start(sa, fastConfig().withSaDepth(1)))
        {
            final List<CompletableFuture<SaResponse>> results = new ArrayList<>();
            for (int i = 0; i < 20; i++)
            {
                results.add(client.query(table(null), TIMEOUT));
            }
            for (final CompletableFuture<SaResponse> result : results)
            {
                assertRecords(records, result.get(5, TimeUnit.SECONDS));
            }
            assertTrue(client.counters().get(SaCounter.QUEUED) >= 1, client.counters().toString());
            assertEquals(20, client.counters().get(SaCounter.SA_QUERIES_SENT));
        }
    }

    @Test
    void shouldCoalesceIdenticalQueriesInFlightAndThenServeFromCache() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(3, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records);
        try (SaClient client = SaClient.start(sa, fastConfig()))
        {
            final List<CompletableFuture<SaResponse>> results = new ArrayList<>();
            for (int i = 0; i < 10; i++)
            {
                results.add(client.query(table("same"), TIMEOUT));
            }
            for (final CompletableFuture<SaResponse> result : results)
            {
                assertRecords(records, result.get(5, TimeUnit.SECONDS));
            }
            assertRecords(records, client.query(table("same"), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertEquals(1, client.counters().get(SaCounter.SA_QUERIES_SENT), client.counters().toString());
            assertEquals(1, client.counters().get(SaCounter.CACHE_HITS) +
                client.counters().get(SaCounter.COALESCED) - 9, client.counters().toString());

            client.invalidateCache();
            assertRecords(records, client.query(table("same"), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertEquals(2, client.counters().get(SaCounter.SA_QUERIES_SENT));
        }
    }

    @Test
    void shouldAskTheSaAgainOnceACachedAnswerOutlivesItsTtl() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(1, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records);
        // Long enough that only a stalled machine could let it lapse between two back-to-back queries; the
        // engine reads the system clock, so outliving it takes a real wait.
        final Duration ttl = Duration.ofSeconds(2);
        try (SaClient client = SaClient.start(sa, fastConfig().withCacheTtl(ttl)))
        {
            assertRecords(records, client.query(table("ttl"), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertRecords(records, client.query(table("ttl"), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertEquals(1, client.counters().get(SaCounter.SA_QUERIES_SENT));
            Thread.sleep(ttl.plusMillis(100).toMillis());
            assertRecords(records, client.query(table("ttl"), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertEquals(2, client.counters().get(SaCounter.SA_QUERIES_SENT));
            client.invalidateCache("ttl");
            assertRecords(records, client.query(table("ttl"), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertEquals(3, client.counters().get(SaCounter.SA_QUERIES_SENT));
        }
    }

    @Test
    void shouldFailOutstandingQueriesWhenClosed()
    {
        final ScriptedSa sa = new ScriptedSa().silent(true);
        final CompletableFuture<SaResponse> result;
        try (SaClient client = SaClient.start(sa, fastConfig()))
        {
            result = client.query(table(null), Duration.ofSeconds(30));
        }
        assertEquals(SaError.CLOSED, failure(result).error());
    }

    @Test
    void shouldNeverAcceptAWrongTableWhenRmppSegmentsAreLostRepeatedReorderedOrDamaged() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(12, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records);
        final Faults faults = Faults.NONE.withDropSent(0.05).withDrop(0.1).withDuplicate(0.1).withReorder(0.2)
            .withDelay(0.1, Duration.ofMillis(30)).withCorrupt(0.1).withWrongTid(0.05).withWrongSource(0.05);
        final FaultInjectingTransport transport = new FaultInjectingTransport(sa, faults, 42);
        try (SaClient client = SaClient.start(transport, fastConfig().withRmppWindow(2)))
        {
            final List<CompletableFuture<SaResponse>> results = new ArrayList<>();
            final List<Long> starts = new ArrayList<>();
            for (int i = 0; i < 60; i++)
            {
                starts.add(System.nanoTime());
                results.add(client.query(table(null), Duration.ofSeconds(1)));
            }
            int succeeded = 0;
            for (int i = 0; i < results.size(); i++)
            {
                try
                {
                    assertRecords(records, results.get(i).get(5, TimeUnit.SECONDS));
                    succeeded++;
                }
                catch (final ExecutionException ex)
                {
                    assertInstanceOf(SaQueryException.class, ex.getCause());
                }
                final long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - starts.get(i));
                assertTrue(results.get(i).isDone() && took < 5_000, "query " + i + " took " + took + " ms");
            }
            assertTrue(succeeded >= 30, succeeded + " of 60: " + client.counters() + " " + transport.injected());
            assertTrue(transport.totalInjected() > 0 && client.counters().get(SaCounter.RMPP_SEGMENTS_DROPPED) > 0,
                client.counters() + " " + transport.injected());
        }
    }

    static SaQueryException failure(final CompletableFuture<SaResponse> result)
    {
        final ExecutionException ex = assertThrows(ExecutionException.class, () -> result.get(10, TimeUnit.SECONDS));
        return assertInstanceOf(SaQueryException.class, ex.getCause());
    }

    static void assertRecords(final List<byte[]> expected, final SaResponse response)
    {
        assertFalse(response.truncated());
        assertEquals(expected.size(), response.records().size());
        for (int i = 0; i < expected.size(); i++)
        {
            assertArrayEquals(expected.get(i), response.records().get(i), "record " + i + " " + Arrays.toString(response.records().get(i)));
        }
    }
}
