package dev.rdmacm.acm;

import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmCounter;
import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmStatus;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.acm.AcmRequests.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Route misses go to the SA one query at a time per endpoint (sa_depth 1), coalesced and timed. The
 * server runs on a clock only the test moves, so the 400 ms SA deadline (timeout 200 x (retries 1 + 1))
 * passes when a test says so and never because the machine was slow between two of its steps.
 */
class AcmSaQueueTest
{
    /** A bound for a hang, not a measurement: replies come in milliseconds, and only a fault takes this long. */
    private static final long TIMEOUT_MS = 30_000;
    private static final Gid SGID = Gid.parse("fe80::2:c903:0:1");
    private static final Duration SA_DEADLINE = Duration.ofMillis(400);

    private HeldPathQuerier sa;
    private ManualNanoClock clock;
    private AcmServerFixture fixture;

    @BeforeEach
    void startServer() throws IOException
    {
        sa = new HeldPathQuerier();
        clock = new ManualNanoClock();
        fixture = AcmServerFixture.start("", sa, AcmGidLookup.NONE, clock);
    }

    @AfterEach
    void stopServer()
    {
        fixture.close();
    }

    private RawAcmClient ask(final Gid dgid, final long flags) throws IOException
    {
        final RawAcmClient client = new RawAcmClient(fixture.unixSocket());
        client.send(AcmRequests.resolveGid(SGID, dgid, flags));
        return client;
    }

    private void awaitCounter(final AcmCounter counter, final long atLeast) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        while (fixture.server.service().counters().get(counter) < atLeast && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        assertEquals(atLeast, fixture.server.service().counters().get(counter), counter.label());
    }

    private static Gid dgidOf(final HeldPathQuerier.Query query)
    {
        return PathRecordTemplate.view(query.template()).dgid();
    }

    @Test
    void shouldKeepOneSaQueryOutstandingPerEndpoint() throws Exception
    {
        try (RawAcmClient a = ask(Gid.parse("fe80::a"), 0);
             RawAcmClient b = ask(Gid.parse("fe80::b"), 0);
             RawAcmClient c = ask(Gid.parse("fe80::c"), 0))
        {
            final HeldPathQuerier.Query first = sa.next(TIMEOUT_MS);
            assertNotNull(first);
            assertNull(sa.next(200), "a second query waits for the first");
            first.answer();
            final HeldPathQuerier.Query second = sa.next(TIMEOUT_MS);
            assertNotNull(second);
            assertNull(sa.next(100));
            second.answer();
            final HeldPathQuerier.Query third = sa.next(TIMEOUT_MS);
            assertNotNull(third);
            third.answer();
            for (final RawAcmClient client : new RawAcmClient[] {a, b, c})
            {
                assertEquals(AcmStatus.SUCCESS, header(client.receive(TIMEOUT_MS)).status());
            }
        }
    }

    @Test
    void shouldSendTemplateWithEndpointGidLidAndPkeyOnlyAsAcmpDoes() throws Exception
    {
        try (RawAcmClient client = ask(Gid.parse("fe80::a"), 0))
        {
            final HeldPathQuerier.Query query = sa.next(TIMEOUT_MS);
            assertEquals(Gid.parse("fe80::a"), dgidOf(query));
            final IbvPathRecord template = PathRecordTemplate.view(query.template());
            assertEquals(SGID, template.sgid());
            assertEquals(1, template.slid());
            assertFalse(template.reversible(), "acmp_record_path_addr leaves Reversible clear");
            assertEquals(0, template.numbPath());
            assertEquals(0xffff, template.pKey());
            query.answer();
            final byte[] reply = client.receive(TIMEOUT_MS);
            final AcmEpAddrData entry = new AcmEpAddrData().wrap(new UnsafeBuffer(reply), AcmHeader.LENGTH,
                AcmEpAddrData.LENGTH);
            assertEquals(4, entry.path(new IbvPathRecord()).mtu());
            assertEquals(AcmEpFlags.RESOLVED_PATH,
                new AcmEpAddrData().wrap(new UnsafeBuffer(reply), AcmHeader.LENGTH, AcmEpAddrData.LENGTH).flags());
        }
    }

    @Test
    void shouldCoalesceRequestsForOneDestination() throws Exception
    {
        try (RawAcmClient a = ask(Gid.parse("fe80::a"), 0);
             RawAcmClient b = ask(Gid.parse("fe80::a"), 0))
        {
            final HeldPathQuerier.Query query = sa.next(TIMEOUT_MS);
            // Both requests in before the answer, or b would be a cache hit instead of a coalesced waiter.
            awaitCounter(AcmCounter.RESOLVE, 2);
            query.answer();
            assertEquals(AcmStatus.SUCCESS, header(a.receive(TIMEOUT_MS)).status());
            assertEquals(AcmStatus.SUCCESS, header(b.receive(TIMEOUT_MS)).status());
            assertNull(sa.next(100), "one SA query served both clients");
            assertEquals(1, fixture.server.service().counters().get(AcmCounter.ROUTE_QUERY));
        }
    }

    @Test
    void shouldServeSecondRequestFromRouteCache() throws Exception
    {
        try (RawAcmClient a = ask(Gid.parse("fe80::a"), 0))
        {
            sa.next(TIMEOUT_MS).answer();
            assertEquals(AcmStatus.SUCCESS, header(a.receive(TIMEOUT_MS)).status());
        }
        try (RawAcmClient b = ask(Gid.parse("fe80::a"), AcmEpFlags.NODELAY))
        {
            assertEquals(AcmStatus.SUCCESS, header(b.receive(TIMEOUT_MS)).status());
        }
        assertNull(sa.next(100));
        assertEquals(1, fixture.server.service().counters().get(AcmCounter.ROUTE_QUERY));
        assertEquals(1, fixture.server.service().counters().get(AcmCounter.ROUTE_CACHE));
    }

    @Test
    void shouldAnswerNodelayMissAtOnceWhileTheQueryContinues() throws Exception
    {
        try (RawAcmClient client = ask(Gid.parse("fe80::a"), AcmEpFlags.NODELAY))
        {
            assertEquals(AcmStatus.ENODATA, header(client.receive(TIMEOUT_MS)).status());
            final HeldPathQuerier.Query query = sa.next(TIMEOUT_MS);
            assertNotNull(query, "the lookup keeps going in the background");
            query.answer();
        }
        // The answer reaches the cache on the server's thread some time after answer() returns: ask until
        // it is there, each ask again a NODELAY one that must not start another SA query.
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        int status;
        do
        {
            try (RawAcmClient again = ask(Gid.parse("fe80::a"), AcmEpFlags.NODELAY))
            {
                status = header(again.receive(TIMEOUT_MS)).status();
            }
        }
        while (status == AcmStatus.ENODATA && System.nanoTime() < deadline);
        assertEquals(AcmStatus.SUCCESS, status);
        assertNull(sa.next(100), "the cache answered, not a second SA query");
    }

    @Test
    void shouldTimeOutUnansweredQueryAndStartTheNext() throws Exception
    {
        try (RawAcmClient a = ask(Gid.parse("fe80::a"), 0);
             RawAcmClient b = ask(Gid.parse("fe80::b"), 0))
        {
            final HeldPathQuerier.Query first = sa.next(TIMEOUT_MS);
            final boolean aFirst = dgidOf(first).equals(Gid.parse("fe80::a"));
            final RawAcmClient unanswered = aFirst ? a : b;
            final RawAcmClient answered = aFirst ? b : a;
            fixture.advance(clock, SA_DEADLINE);
            assertEquals(AcmStatus.ETIMEDOUT, header(unanswered.receive(TIMEOUT_MS)).status(),
                "timeout 200 ms x (retries 1 + 1)");
            final HeldPathQuerier.Query second = sa.next(TIMEOUT_MS);
            assertNotNull(second);
            second.answer();
            first.answer();
            assertEquals(AcmStatus.SUCCESS, header(answered.receive(TIMEOUT_MS)).status());
            assertTrue(unanswered.silentFor(100), "a late answer is not sent twice");
        }
    }

    @Test
    void shouldAnswerSaVerificationFromTheSa() throws Exception
    {
        try (RawAcmClient client = ask(Gid.parse("fe80::2:c903:0:2"), AcmEpFlags.QUERY_SA))
        {
            final HeldPathQuerier.Query query = sa.next(TIMEOUT_MS);
            assertEquals(Gid.parse("fe80::2:c903:0:2"), dgidOf(query));
            query.answer();
            final byte[] reply = client.receive(TIMEOUT_MS);
            assertEquals(AcmStatus.SUCCESS, header(reply).status());
            assertEquals(88, reply.length);
        }
    }

    @Test
    void shouldDropTheAnswerForAClientThatLeftAndServeTheNext() throws Exception
    {
        final RawAcmClient leaving = ask(Gid.parse("fe80::a"), 0);
        final HeldPathQuerier.Query query = sa.next(TIMEOUT_MS);
        leaving.close();
        // A bound for a hang, not a measurement: the server notices the close within milliseconds.
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (fixture.server.connectionCount() > 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertEquals(0, fixture.server.connectionCount(), "the server forgot the closed connection");
        query.answer();
        try (RawAcmClient next = ask(Gid.parse("fe80::a"), AcmEpFlags.NODELAY))
        {
            assertEquals(AcmStatus.SUCCESS, header(next.receive(TIMEOUT_MS)).status(), "the late answer filled the cache");
        }
    }
}
