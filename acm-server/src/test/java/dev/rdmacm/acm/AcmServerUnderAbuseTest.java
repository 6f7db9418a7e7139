package dev.rdmacm.acm;

import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmCounter;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static dev.rdmacm.acm.AcmRequests.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30's abuse of acm-server, one behaviour each: a flood of misses meets a bounded SA queue, a
 * client past max_clients is closed as ibacm closes it, a client that sends nothing is closed after
 * client_timeout. The server runs on a clock only the test moves; waits below are bounds for a hang,
 * not measurements.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AcmServerUnderAbuseTest
{
    private static final long TIMEOUT_MS = 30_000;
    private static final Gid SGID = Gid.parse("fe80::2:c903:0:1");

    private AcmServerFixture fixture;

    @AfterEach
    void stopServer()
    {
        if (fixture != null)
        {
            fixture.close();
        }
    }

    private RawAcmClient ask(final Gid dgid, final long flags) throws IOException
    {
        final RawAcmClient client = new RawAcmClient(fixture.unixSocket());
        client.send(AcmRequests.resolveGid(SGID, dgid, flags));
        return client;
    }

    private static void await(final LongSupplier value, final long expected, final String what) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        while (value.getAsLong() != expected && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        assertEquals(expected, value.getAsLong(), what);
    }

    private long counter(final AcmCounter counter)
    {
        return fixture.server.service().counters().get(counter);
    }

    @Test
    void shouldAnswerNodelayAndRefuseMissesPastTheSaQueueBoundWithIbacmsError() throws Exception
    {
        final HeldPathQuerier sa = new HeldPathQuerier();
        fixture = AcmServerFixture.start("sa_queue_depth 2\n", sa, AcmGidLookup.NONE, new ManualNanoClock());
        try (RawAcmClient querying = ask(Gid.parse("fe80::a"), 0))
        {
            assertNotNull(sa.next(TIMEOUT_MS), "the first miss is the one SA query out (sa_depth 1)");
            try (RawAcmClient queuedB = ask(Gid.parse("fe80::b"), 0))
            {
                await(() -> counter(AcmCounter.RESOLVE), 2, "b read");
                try (RawAcmClient queuedC = ask(Gid.parse("fe80::c"), 0))
                {
                    await(() -> counter(AcmCounter.RESOLVE), 3, "c read");
                    try (RawAcmClient nodelay = ask(Gid.parse("fe80::d"), AcmEpFlags.NODELAY))
                    {
                        assertEquals(AcmStatus.ENODATA, header(nodelay.receive(TIMEOUT_MS)).status());
                    }
                    try (RawAcmClient waiting = ask(Gid.parse("fe80::e"), 0))
                    {
                        assertEquals(AcmStatus.ENOMEM, header(waiting.receive(TIMEOUT_MS)).status(),
                            "acmp_resolve_path_sa's answer when no SA request can be had");
                    }
                    final AcmCounters counters = fixture.server.service().counters();
                    assertEquals(2, counters.overflows(), "d and e found the queue full");
                    assertEquals(1, counters.get(AcmCounter.ERROR), "e, as ibacm counts its ENOMEM");
                    assertEquals(1, counters.get(AcmCounter.NODATA), "d");
                    assertEquals(2, fixture.server.service().endpoints().getFirst().saQueue.size());
                    final var routes = fixture.server.service().endpoints().getFirst().routes;
                    assertTrue(routes.containsKey(AcmAddress.gid(Gid.parse("fe80::c"))), "c is queued");
                    assertFalse(routes.containsKey(AcmAddress.gid(Gid.parse("fe80::d"))), "d is not remembered");
                    assertFalse(routes.containsKey(AcmAddress.gid(Gid.parse("fe80::e"))), "e is not remembered");
                }
            }
        }
        assertEquals(1, fixture.log().lines().filter(line -> line.contains("queue full")).count(),
            "two overflows within 10 s of the clock: one line");
    }

    @Test
    void shouldBoundAddressLookupsPerEndpointAsTheSaQueue() throws Exception
    {
        // test double for a resolver that is slow on demand: it never answers, so lookups stay out
        final AcmGidLookup unanswered = (endpoint, destination, completion) -> { };
        fixture = AcmServerFixture.start("sa_queue_depth 1\n", AcmPathQuerier.NONE, unanswered, new ManualNanoClock());
        final int source = AcmRequests.ipv4("192.0.2.2");
        try (RawAcmClient first = new RawAcmClient(fixture.unixSocket()))
        {
            first.send(AcmRequests.resolveIp(source, AcmRequests.ipv4("198.51.100.1"), AcmEpFlags.DEST | AcmEpFlags.NODELAY));
            assertEquals(AcmStatus.ENODATA, header(first.receive(TIMEOUT_MS)).status(), "answered, the lookup goes on");
            first.send(AcmRequests.resolveIp(source, AcmRequests.ipv4("198.51.100.2"), AcmEpFlags.DEST));
            assertEquals(AcmStatus.ENOMEM, header(first.receive(TIMEOUT_MS)).status(), "one lookup out is the bound");
        }
        assertEquals(1, fixture.server.service().counters().overflows());
        assertEquals(1, counter(AcmCounter.ADDR_QUERY), "only the first was looked up");
    }

    @Test
    void shouldCloseAClientPastMaxClientsOnceItHasSentAsIbacmRejectsIt() throws Exception
    {
        fixture = AcmServerFixture.start("max_clients 1\n", AcmPathQuerier.NONE, AcmGidLookup.NONE, new ManualNanoClock());
        try (RawAcmClient served = new RawAcmClient(fixture.unixSocket()))
        {
            assertTrue(served.nothingBeforeMarker(TIMEOUT_MS), "the first client is served");
            try (RawAcmClient extra = new RawAcmClient(fixture.unixSocket()))
            {
                extra.send(AcmRequests.perfQuery());
                final IOException closed = assertThrows(IOException.class, () -> extra.receive(TIMEOUT_MS));
                assertFalse(closed.getMessage().startsWith("no reply within"), "closed, not left hanging: " + closed);
            }
            assertEquals(1, fixture.server.rejected());
            assertTrue(served.nothingBeforeMarker(TIMEOUT_MS), "the served client is untouched");
        }
        assertTrue(fixture.log().contains("all connections busy - rejecting (max_clients 1)"), fixture.log());
    }

    @Test
    void shouldCloseAClientThatSendsNothingWithinClientTimeoutButKeepAnIdleOne() throws Exception
    {
        final ManualNanoClock clock = new ManualNanoClock();
        fixture = AcmServerFixture.start("client_timeout 1000\n", AcmPathQuerier.NONE, AcmGidLookup.NONE, clock);
        try (RawAcmClient between = new RawAcmClient(fixture.unixSocket());
             RawAcmClient silent = new RawAcmClient(fixture.unixSocket()))
        {
            assertTrue(between.nothingBeforeMarker(TIMEOUT_MS), "one request done: between requests from now on");
            await(fixture.server::connectionCount, 2, "both connected");
            fixture.advance(clock, Duration.ofMillis(999));
            assertTrue(between.nothingBeforeMarker(TIMEOUT_MS));
            assertEquals(2, fixture.server.connectionCount(), "999 ms of the 1000 ms: still open");
            // the server looks every client_timeout / 4, so the silent client goes within 1250 ms
            fixture.advance(clock, Duration.ofMillis(251));
            await(fixture.server::connectionCount, 1, "the silent client is closed");
            final IOException closed = assertThrows(IOException.class, () -> silent.receive(TIMEOUT_MS));
            assertFalse(closed.getMessage().startsWith("no reply within"), closed.toString());
            fixture.advance(clock, Duration.ofSeconds(60));
            assertTrue(between.nothingBeforeMarker(TIMEOUT_MS), "a client between requests is never timed out");
        }
        assertTrue(fixture.log().contains("no request within client_timeout 1000 ms"), fixture.log());
    }

    @Test
    void shouldCloseAClientThatTricklesARequestForLongerThanClientTimeoutFromItsFirstByte() throws Exception
    {
        final ManualNanoClock clock = new ManualNanoClock();
        fixture = AcmServerFixture.start("client_timeout 1000\n", AcmPathQuerier.NONE, AcmGidLookup.NONE, clock);
        final byte[] request = AcmRequests.perfQuery();
        try (RawAcmClient marker = new RawAcmClient(fixture.unixSocket());
             RawAcmClient trickle = new RawAcmClient(fixture.unixSocket()))
        {
            assertTrue(trickle.nothingBeforeMarker(TIMEOUT_MS), "one request done: between requests");
            // each byte is written before the marker's request, so the server has read it once the marker is answered
            trickle.send(new byte[] {request[0]});
            assertTrue(marker.nothingBeforeMarker(TIMEOUT_MS));
            fixture.advance(clock, Duration.ofMillis(600));
            trickle.send(new byte[] {request[1]});
            assertTrue(marker.nothingBeforeMarker(TIMEOUT_MS));
            assertEquals(2, fixture.server.connectionCount(), "600 ms after the first byte: open");
            fixture.advance(clock, Duration.ofMillis(600));
            await(fixture.server::connectionCount, 1, "1200 ms after the first byte, 600 ms after the last: closed");
            final IOException closed = assertThrows(IOException.class, () -> trickle.receive(TIMEOUT_MS));
            assertFalse(closed.getMessage().startsWith("no reply within"), closed.toString());
            assertTrue(marker.nothingBeforeMarker(TIMEOUT_MS), "the other client is served");
        }
        assertTrue(fixture.log().contains("no request within client_timeout 1000 ms"), fixture.log());
    }
}
