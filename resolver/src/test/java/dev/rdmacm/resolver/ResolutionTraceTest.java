package dev.rdmacm.resolver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The step log every resolution keeps: what goes in comes out, in the order the steps began. */
class ResolutionTraceTest
{
    @Test
    void shouldReturnTheStepsInTheOrderTheyBegan()
    {
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        final long waitStart = trace.startNanos() + 1_000;
        trace.record("route", trace.startNanos() + 2_000, "10.2.1.5 oif 3 src 10.2.0.1");
        trace.record("neighbour wait", waitStart, "10.2.1.5 REACHABLE");
        assertEquals(List.of("neighbour wait", "route"), trace.steps().stream().map(ResolutionStep::name).toList());
        assertEquals(1_000, trace.steps().getFirst().startNanos());
        assertEquals("10.2.1.5 oif 3 src 10.2.0.1", trace.find("route").detail());
    }

    @Test
    void shouldKeepANameOutsideTheTableAndANullDetail()
    {
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        trace.record("a step nobody named before", trace.startNanos(), null);
        final ResolutionStep step = trace.find("a step nobody named before");
        assertEquals(0, step.startNanos());
        assertNull(step.detail());
    }

    @Test
    void shouldKeepAStartBeforeTheTraceAndADurationOfMinutes()
    {
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        final long tenMinutes = 600_000_000_000L;
        final long before = System.nanoTime();
        trace.record("neighbour wait", trace.startNanos() - tenMinutes, "10.2.1.5 not valid at the deadline");
        final long after = System.nanoTime();
        final ResolutionStep step = trace.find("neighbour wait");
        assertEquals(-tenMinutes, step.startNanos());
        assertTrue(step.tookNanos() >= before - (trace.startNanos() - tenMinutes), "took " + step.tookNanos());
        assertTrue(step.tookNanos() <= after - (trace.startNanos() - tenMinutes), "took " + step.tookNanos());
    }

    @Test
    void shouldKeepADetailOutsideAscii()
    {
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        trace.record("route", trace.startNanos(), "réseau injoignable: 网络不可达");
        trace.record("link", trace.startNanos(), "");
        assertEquals("réseau injoignable: 网络不可达", trace.find("route").detail());
        assertEquals("", trace.find("link").detail());
    }

    @Test
    void shouldReadASharedDetailBackFromEveryTraceThatRecordedIt()
    {
        final String link = "a2 ifindex 3 type 1 mtu 1500 addr 02:00:00:00:00:02 (" + System.nanoTime() + ")";
        final ResolutionTrace first = new ResolutionTrace(System.nanoTime());
        final ResolutionTrace second = new ResolutionTrace(System.nanoTime());
        first.recordShared("link", first.startNanos(), link);
        second.recordShared("link", second.startNanos(), new String(link));
        assertEquals(link, first.find("link").detail());
        assertEquals(link, second.find("link").detail());
        assertEquals(SharedTraceText.codeOf(link), SharedTraceText.codeOf(new String(link)));
    }

    @Test
    void shouldRecordAStepAtOneReadingWithNoDurationAndItsTextWhenRead()
    {
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        trace.recordAtWhenRead("roce path", trace.startNanos() + 5_000, () -> "rxe0 mtu 1500");
        trace.recordAtWhenRead("roce path", trace.startNanos() + 7_000, () -> "rxe0 mtu 9000");

        assertEquals(List.of(new ResolutionStep("roce path", 5_000, 0, "rxe0 mtu 1500"),
            new ResolutionStep("roce path", 7_000, 0, "rxe0 mtu 9000")), trace.steps());
    }

    /**
     * startedAt() is derived from the monotonic start when first read (no wall clock read while resolving), and
     * fixed then: every later read, from any thread, gives that same instant, as the wall clock captured at the
     * start did before session 8 (two derivations differ by whatever passed between their two clock reads).
     */
    @Test
    @Timeout(30)
    void shouldGiveTheSameStartedAtAtEveryReadFromEveryThread() throws Exception
    {
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        final int readers = 4;
        final CyclicBarrier together = new CyclicBarrier(readers);
        final List<CompletableFuture<Instant>> reads = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(readers))
        {
            for (int reader = 0; reader < readers; reader++)
            {
                reads.add(CompletableFuture.supplyAsync(() ->
                {
                    try
                    {
                        together.await(10, TimeUnit.SECONDS);
                    }
                    catch (final Exception ex)
                    {
                        throw new AssertionError("the other readers did not come", ex);
                    }
                    return trace.startedAt();
                }, threads));
            }
            final Instant first = reads.getFirst().get(10, TimeUnit.SECONDS);
            for (final CompletableFuture<Instant> read : reads)
            {
                assertEquals(first, read.get(10, TimeUnit.SECONDS));
            }
            Thread.sleep(1);
            assertEquals(first, trace.startedAt(), "a read after");
        }
    }

    /** The instant is the start's, not the first read's: a trace that began ten minutes ago says so. */
    @Test
    @Timeout(30)
    void shouldPutStartedAtAtTheStartNotAtTheRead()
    {
        final long tenMinutes = 600_000_000_000L;
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime() - tenMinutes);
        final Instant startedAt = trace.startedAt();
        // startedAt is a wall-clock reading less at least ten minutes, read before this one
        final Duration before = Duration.between(startedAt, Instant.now());
        assertTrue(before.compareTo(Duration.ofNanos(tenMinutes)) >= 0, before.toString());
    }
}

