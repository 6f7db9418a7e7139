package dev.rdmacm.sa;

import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.sa.testing.FaultInjectingTransport;
import dev.rdmacm.sa.testing.Faults;
import dev.rdmacm.sa.testing.ScriptedSa;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
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
    void shouldTraceATransactionFromSendThroughItsSegmentsToItsEnd() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(12, RECORD);
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records);
        final List<String> trace = new CopyOnWriteArrayList<>();
        try (SaClient client = SaClient.start(sa, fastConfig().withRmppWindow(2), NanoClock.SYSTEM, (tx, from, to, now) ->
        {
            if (!tx.internal)
            {
                trace.add(from + " -> " + to);
            }
        }))
        {
            assertRecords(records, client.query(table(null), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertEquals(List.of("QUEUED -> AWAITING_RESPONSE", "AWAITING_RESPONSE -> RECEIVING_SEGMENTS",
                "RECEIVING_SEGMENTS -> DONE"), trace);
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
    void shouldTimeOutAtTheDeadlineAfterKernelRetries() throws Exception
    {
        final ScriptedSa sa = new ScriptedSa().silent(true);
        final ManualNanoClock clock = new ManualNanoClock();
        final List<String> ends = new CopyOnWriteArrayList<>();
        try (SaClient client = SaClient.start(sa, fastConfig(), clock, (tx, from, to, now) ->
        {
            if (to == SaTransaction.State.DONE && !tx.internal)
            {
                ends.add(tx.request.description() + " at " + TimeUnit.NANOSECONDS.toMillis(now - tx.startNanos) + " ms");
            }
        }))
        {
            clock.onAdvance(client::wakeUp);
            final CompletableFuture<SaResponse> result = client.query(table(null), Duration.ofMillis(1000));
            awaitCount(client, SaCounter.SA_QUERIES_SENT, 1);
            // 100 ms intervals (1000 / 10): four linear retries at 100, 200, 300, 400, then doubling: 600,
            // and the next (1400) is past the deadline, which ends the query at 1000.
            long at = 0;
            final long[] retryAtMs = {100, 200, 300, 400, 600};
            for (int i = 0; i < retryAtMs.length; i++)
            {
                clock.advance(Duration.ofMillis(retryAtMs[i] - at));
                at = retryAtMs[i];
                awaitCount(client, SaCounter.RETRIES_SENT, i + 1);
            }
            clock.advance(Duration.ofMillis(999 - at));
            clock.advance(Duration.ofMillis(1));
            final SaQueryException ex = failure(result);
            assertEquals(SaError.TIMED_OUT, ex.error());
            assertEquals("ETIMEDOUT", ex.error().errno());
            assertEquals(List.of("test table at 1000 ms"), ends);
            assertEquals(5, client.counters().get(SaCounter.RETRIES_SENT), client.counters().toString());
        }
    }

    @Test
    void shouldNeverRetryFasterThanTheSaResponseTimeFromClassPortInfo() throws Exception
    {
        final List<byte[]> records = ScriptedSa.numberedRecords(1, RECORD);
        // RespTimeValue 18: 4.096 us x 2^18 = 1074 ms, above both the minimum (20 ms) and a tenth of 3 s.
        final ScriptedSa sa = new ScriptedSa().records(ATTRIBUTE, records).responseTimeValue(18);
        final ManualNanoClock clock = new ManualNanoClock();
        final List<Long> tableSentAt = new CopyOnWriteArrayList<>();
        final MadRecorder recorder = (sent, localLid, remoteLid, remoteQp, mad, offset, length) ->
        {
            if (sent && (mad.getByte(offset + MadHeader.METHOD_OFFSET) & 0xff) == MadMethod.GET_TABLE)
            {
                tableSentAt.add(clock.nanoTime());
            }
        };
        try (SaClient client = SaClient.start(sa, fastConfig().withHonourResponseTime(true).withRecorder(recorder), clock))
        {
            clock.onAdvance(client::wakeUp);
            assertRecords(records, client.query(table(null), TIMEOUT).get(5, TimeUnit.SECONDS));
            sa.dropQueries(true);
            final long retriesBefore = client.counters().get(SaCounter.RETRIES_SENT);
            tableSentAt.clear();
            final long start = clock.nanoTime();
            final CompletableFuture<SaResponse> result = client.query(table(null), Duration.ofSeconds(3));
            awaitCount(client, SaCounter.SA_QUERIES_SENT, 2);
            final long responseTime = 4096L << 18;
            // Retries at 1074 and 2148 ms; the next would be after the 3 s deadline.
            clock.advanceNanos(responseTime);
            awaitCount(client, SaCounter.RETRIES_SENT, retriesBefore + 1);
            clock.advanceNanos(responseTime);
            awaitCount(client, SaCounter.RETRIES_SENT, retriesBefore + 2);
            clock.advanceNanos(start + TimeUnit.SECONDS.toNanos(3) - clock.nanoTime());
            assertEquals(SaError.TIMED_OUT, failure(result).error());
            assertEquals(List.of(start, start + responseTime, start + 2 * responseTime), tableSentAt);
            assertEquals(2, client.counters().get(SaCounter.RETRIES_SENT) - retriesBefore, client.counters().toString());
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
        final Duration ttl = Duration.ofSeconds(2);
        final ManualNanoClock clock = new ManualNanoClock();
        try (SaClient client = SaClient.start(sa, fastConfig().withCacheTtl(ttl), clock))
        {
            clock.onAdvance(client::wakeUp);
            assertRecords(records, client.query(table("ttl"), TIMEOUT).get(5, TimeUnit.SECONDS));
            clock.advance(ttl.minusNanos(1));
            assertRecords(records, client.query(table("ttl"), TIMEOUT).get(5, TimeUnit.SECONDS));
            assertEquals(1, client.counters().get(SaCounter.SA_QUERIES_SENT));
            clock.advanceNanos(1);
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

    /** Waits for the engine thread to have counted {@code atLeast}; the bound is for a hang, not a measurement. */
    static void awaitCount(final SaClient client, final SaCounter counter, final long atLeast) throws InterruptedException
    {
        final long hang = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (client.counters().get(counter) < atLeast && System.nanoTime() - hang < 0)
        {
            Thread.sleep(1);
        }
        assertTrue(client.counters().get(counter) >= atLeast, counter + " < " + atLeast + ": " + client.counters());
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
