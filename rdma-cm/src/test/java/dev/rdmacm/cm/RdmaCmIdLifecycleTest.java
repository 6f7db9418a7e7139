package dev.rdmacm.cm;

import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.loop.testing.ManualNanoClock;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.resolver.AddressResolution;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The id's states, synchronous mode, futures, destroy and close, against the kernel in namespaces. */
class RdmaCmIdLifecycleTest
{
    private static NamespaceTopology topology;
    private static RdmaCm cm;

    @BeforeAll
    static void start() throws Exception
    {
        topology = NamespaceTopology.create();
        cm = RdmaCm.open(options());
    }

    private static RdmaCm.Options options()
    {
        return RdmaCm.Options.builder().networkNamespace(topology.hostPath()).gids(RecordedGids.softRoce()).build();
    }

    @AfterAll
    static void stop()
    {
        if (cm != null)
        {
            cm.close();
        }
        if (topology != null)
        {
            topology.close();
        }
    }

    @Test
    void shouldThrowTheErrorEventsErrnoInSynchronousMode() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class,
                () -> id.resolveAddr(null, InetAddress.getByName("10.4.0.97"), Duration.ofMillis(200)));
            assertEquals(Errno.ETIMEDOUT, error.errno());
            assertFalse(error.returnedByCall(), "reported by an ADDR_ERROR event, not by the call");
            assertEquals(CmIdState.ADDR_BOUND, id.state());
            assertNotNull(error.trace().find("neighbour wait"));
        }
    }

    @Test
    void shouldCompleteAFutureWithTheResolution() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final AddressResolution resolution =
                id.resolveAddrAsync(null, InetAddress.getByName("192.0.2.2"), Duration.ofMillis(2000)).get(10, TimeUnit.SECONDS);
            assertEquals(NamespaceTopology.RDMA_NETDEV, resolution.netdev());
            assertEquals(CmIdState.ADDR_RESOLVED, id.state());
        }
    }

    @Test
    void shouldCompleteAFutureExceptionallyWithAnUpFrontError() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final CompletableFuture<AddressResolution> future =
                id.resolveAddrAsync(null, InetAddress.getByName("198.18.1.1"), Duration.ofMillis(2000));
            final CompletionException error = assertThrows(CompletionException.class, future::join);
            final RdmaCmException cause = assertInstanceOf(RdmaCmException.class, error.getCause());
            assertEquals(Errno.EHOSTUNREACH, cause.errno());
            assertTrue(cause.returnedByCall());
        }
    }

    @Test
    void shouldRejectASecondResolveWhileTheFirstIsPendingAndStaySilentAfterDestroy() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel);
            id.resolveAddr(null, InetAddress.getByName("10.4.0.96"), Duration.ofMillis(5000));
            assertEquals(CmIdState.ADDR_QUERY, id.state());
            final RdmaCmException error = assertThrows(RdmaCmException.class,
                () -> id.resolveAddr(null, InetAddress.getByName("192.0.2.2"), Duration.ofMillis(5000)));
            assertEquals(Errno.EINVAL, error.errno());
            id.destroy();
            assertEquals(CmIdState.DESTROYING, id.state());
            assertNull(channel.getEvent(Duration.ofMillis(300)), "a destroyed id gets no event");
        }
    }

    @Test
    void shouldEndPendingResolutionsWhenClosed() throws Exception
    {
        final RdmaCm closing = RdmaCm.open(options());
        try (EventChannel channel = closing.createEventChannel())
        {
            final RdmaCmId id = closing.createId(channel);
            id.resolveAddr(null, InetAddress.getByName("10.4.0.95"), Duration.ofMillis(30_000));
            closing.close();
            final CmEvent event = channel.getEvent(Duration.ofSeconds(5));
            assertNotNull(event);
            event.ack();
            assertEquals(CmEventType.ADDR_ERROR, event.type());
            assertEquals(-Errno.EINTR, event.status());
            assertThrows(IllegalStateException.class, () -> closing.createId(null).resolveAddr(null,
                InetAddress.getByName("192.0.2.2"), Duration.ofMillis(100)));
        }
    }

    @Test
    void shouldResolveFromABoundSource() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            id.bindAddr(InetAddress.getByName("192.0.2.1"));
            assertEquals(CmIdState.ADDR_BOUND, id.state());
            id.resolveAddr(InetAddress.getByName("10.5.0.1"), InetAddress.getByName("10.3.0.2"), Duration.ofMillis(2000));
            assertEquals(InetAddress.getByName("192.0.2.1"), id.resolution().source(), "the existing bind wins");
            assertEquals(NamespaceTopology.RDMA_NETDEV, id.resolution().netdev());
        }
    }

    @Test
    void shouldRefuseToBindAnAddressThatIsNotConfigured() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error =
                assertThrows(RdmaCmException.class, () -> id.bindAddr(InetAddress.getByName("192.0.2.66")));
            assertEquals(Errno.EADDRNOTAVAIL, error.errno());
            assertEquals(CmIdState.IDLE, id.state());
        }
    }

    @Test
    void shouldRefuseABlockingResolveFromACallbackOnTheEventLoop() throws Exception
    {
        // A silent neighbour: the future completes on the loop when the timeout ends, which must be after
        // handle() is attached (or the callback would run here, off the loop). The loop's clock moves only
        // when this test moves it, after attaching.
        final ManualNanoClock clock = new ManualNanoClock();
        try (RdmaCm timed = RdmaCm.open(options(), clock, TransitionListener.none());
             RdmaCmId first = timed.createId(null); RdmaCmId second = timed.createId(null))
        {
            clock.onAdvance(timed::wakeUp);
            final CompletableFuture<Throwable> refused = first
                .resolveAddrAsync(null, InetAddress.getByName("10.4.0.90"), Duration.ofMillis(3000))
                .handle((resolution, error) ->
                {
                    try
                    {
                        second.resolveAddr(null, InetAddress.getByName("192.0.2.2"), Duration.ofMillis(2000));
                        return null;
                    }
                    catch (final Exception | Error ex)
                    {
                        return ex;
                    }
                });
            clock.advance(Duration.ofMillis(3000));
            final Throwable error = refused.get(10, TimeUnit.SECONDS);
            assertInstanceOf(IllegalStateException.class, error);
            assertEquals("rdma_resolve_addr blocks and was called on the resolver's event loop (from a callback): " +
                "use resolveAddrAsync there", error.getMessage());
            assertEquals(CmIdState.IDLE, second.state());
        }
    }

    @Test
    void shouldFailToOpenInANamespaceThatDoesNotExistWithoutLeavingAThread()
    {
        final long loopsBefore = resolverThreads();
        final RdmaCmException error = assertThrows(RdmaCmException.class, () -> RdmaCm.open(
            RdmaCm.Options.builder().networkNamespace(java.nio.file.Path.of("/run/netns/rdmacm-no-such-namespace")).build()));
        assertEquals(Errno.ENOENT, error.errno());
        assertEquals("starting the resolver failed: ENOENT (No such file or directory): " +
            "open(/run/netns/rdmacm-no-such-namespace) failed: errno 2 ENOENT (No such file or directory)",
            error.getMessage());
        assertEquals(loopsBefore, resolverThreads());
    }

    @Test
    void shouldKeepTheFamilyOfTheWildcardItWasAutoBoundTo() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            assertThrows(RdmaCmException.class, () -> id.resolveAddr(null, InetAddress.getByName("198.18.1.1"), Duration.ofMillis(100)));
            assertEquals(CmIdState.ADDR_BOUND, id.state());
            assertEquals(InetAddress.getByName("0.0.0.0"), id.boundSource());
            final RdmaCmException error = assertThrows(RdmaCmException.class,
                () -> id.resolveAddr(null, InetAddress.getByName("2001:db8::2"), Duration.ofMillis(100)));
            assertEquals(Errno.EINVAL, error.errno());
            assertEquals(CmIdState.ADDR_BOUND, id.state());
        }
    }

    private static long resolverThreads()
    {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("rdmacm-conductor")).count();
    }
}
