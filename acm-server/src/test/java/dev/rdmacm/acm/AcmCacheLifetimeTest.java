package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmCounter;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmStatus;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.acm.AcmRequests.header;
import static dev.rdmacm.acm.AcmRequests.ipv4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Cache lifetimes from the options, and address-cache misses going to the address resolver. */
class AcmCacheLifetimeTest
{
    private static final long TIMEOUT_MS = 5_000;

    /**
     * Test double for the netlink neighbour resolver, which needs an IPoIB interface this machine does
     * not have: holds each lookup until the test answers it.
     */
    static final class HeldAddressResolver implements AcmGidLookup
    {
        record Lookup(AcmAddress destination, Completion completion)
        {
        }

        final BlockingQueue<Lookup> lookups = new LinkedBlockingQueue<>();

        @Override
        public void resolve(final AcmEndpoint endpoint, final AcmAddress destination, final Completion completion)
        {
            lookups.add(new Lookup(destination, completion));
        }
    }

    private static byte[] exchange(final AcmServerFixture fixture, final byte[] request) throws IOException
    {
        try (RawAcmClient client = new RawAcmClient(fixture.unixSocket()))
        {
            client.send(request);
            return client.receive(TIMEOUT_MS);
        }
    }

    @Test
    void shouldExpirePreloadedAddressesAfterAddrTimeout() throws IOException
    {
        try (AcmServerFixture fixture = AcmServerFixture.start("addr_timeout 0\n", AcmPathQuerier.NONE))
        {
            final byte[] reply = exchange(fixture, AcmRequests.resolveIp(ipv4("192.0.2.2"), ipv4("192.0.2.3"),
                AcmEpFlags.DEST));
            assertEquals(AcmStatus.ENODATA, header(reply).status(), "the hosts entry expired at once");
            assertEquals(1, fixture.server.service().counters().get(AcmCounter.ADDR_QUERY));
        }
    }

    @Test
    void shouldQuerySaAfterRouteTimeout() throws Exception
    {
        final HeldPathQuerier sa = new HeldPathQuerier();
        try (AcmServerFixture fixture = AcmServerFixture.start("route_timeout 0\n", sa))
        {
            try (RawAcmClient client = new RawAcmClient(fixture.unixSocket()))
            {
                client.send(AcmRequests.resolveGid(Gid.parse("fe80::2:c903:0:1"), Gid.parse("fe80::2:c903:0:2"), 0));
                final HeldPathQuerier.Query query = sa.next(TIMEOUT_MS);
                assertNotNull(query, "the preloaded route expired, so the SA is asked");
                query.answer();
                assertEquals(AcmStatus.SUCCESS, header(client.receive(TIMEOUT_MS)).status());
            }
            assertEquals(AcmStatus.SUCCESS, header(exchange(fixture,
                AcmRequests.resolveGid(Gid.parse("fe80::2:c903:0:1"), Gid.parse("fe80::2:c903:0:1"), 0))).status());
            assertNull(sa.next(100), "the route to the endpoint itself never expires");
        }
    }

    @Test
    void shouldResolveUnknownAddressThroughTheResolverOnceForWaitingClients() throws Exception
    {
        final HeldAddressResolver resolver = new HeldAddressResolver();
        try (AcmServerFixture fixture = AcmServerFixture.start("", AcmPathQuerier.NONE, resolver);
             RawAcmClient first = new RawAcmClient(fixture.unixSocket());
             RawAcmClient second = new RawAcmClient(fixture.unixSocket()))
        {
            final byte[] request = AcmRequests.resolveIp(ipv4("192.0.2.2"), ipv4("192.0.2.50"), AcmEpFlags.DEST);
            first.send(request);
            second.send(request);
            final HeldAddressResolver.Lookup lookup = resolver.lookups.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            assertNotNull(lookup);
            assertEquals(AcmAddress.parse("192.0.2.50"), lookup.destination());
            Thread.sleep(100);
            lookup.completion().onGid(Gid.parse("fe80::2:c903:0:2"));
            assertEquals(AcmStatus.SUCCESS, header(first.receive(TIMEOUT_MS)).status());
            assertEquals(AcmStatus.SUCCESS, header(second.receive(TIMEOUT_MS)).status());
            assertNull(resolver.lookups.poll(100, TimeUnit.MILLISECONDS), "one lookup served both clients");
            assertEquals(AcmStatus.SUCCESS, header(exchange(fixture, request)).status());
            assertEquals(1, fixture.server.service().counters().get(AcmCounter.ADDR_QUERY));
        }
    }

    @Test
    void shouldPassResolverFailureToTheClient() throws Exception
    {
        final HeldAddressResolver resolver = new HeldAddressResolver();
        try (AcmServerFixture fixture = AcmServerFixture.start("", AcmPathQuerier.NONE, resolver);
             RawAcmClient client = new RawAcmClient(fixture.unixSocket()))
        {
            client.send(AcmRequests.resolveIp(ipv4("192.0.2.2"), ipv4("192.0.2.51"), AcmEpFlags.DEST));
            resolver.lookups.poll(TIMEOUT_MS, TimeUnit.MILLISECONDS).completion()
                .onError(AcmStatus.EDESTADDR, "no neighbour");
            assertEquals(AcmStatus.EDESTADDR, header(client.receive(TIMEOUT_MS)).status());
        }
    }
}
