package dev.rdmacm.resolver;

import dev.rdmacm.resolver.posix.Errno;
import dev.rdmacm.resolver.testing.NamespaceGids;
import dev.rdmacm.resolver.testing.NamespaceTopology;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
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
        return RdmaCm.Options.defaults().networkNamespace(topology.hostPath()).gids(NamespaceGids.hostDirectory());
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
                () -> id.resolveAddr(null, InetAddress.getByName("10.4.0.97"), 200));
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
                id.resolveAddrAsync(null, InetAddress.getByName("10.1.0.2"), 2000).get(10, TimeUnit.SECONDS);
            assertEquals("a0", resolution.netdev());
            assertEquals(CmIdState.ADDR_RESOLVED, id.state());
        }
    }

    @Test
    void shouldCompleteAFutureExceptionallyWithAnUpFrontError() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final CompletableFuture<AddressResolution> future =
                id.resolveAddrAsync(null, InetAddress.getByName("192.0.2.1"), 2000);
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
            id.resolveAddr(null, InetAddress.getByName("10.4.0.96"), 5000);
            assertEquals(CmIdState.ADDR_QUERY, id.state());
            final RdmaCmException error = assertThrows(RdmaCmException.class,
                () -> id.resolveAddr(null, InetAddress.getByName("10.1.0.2"), 5000));
            assertEquals(Errno.EINVAL, error.errno());
            id.destroy();
            assertEquals(CmIdState.DESTROYING, id.state());
            assertNull(channel.getEvent(300, TimeUnit.MILLISECONDS), "a destroyed id gets no event");
        }
    }

    @Test
    void shouldEndPendingResolutionsWhenClosed() throws Exception
    {
        final RdmaCm closing = RdmaCm.open(options());
        try (EventChannel channel = closing.createEventChannel())
        {
            final RdmaCmId id = closing.createId(channel);
            id.resolveAddr(null, InetAddress.getByName("10.4.0.95"), 30_000);
            closing.close();
            final CmEvent event = channel.getEvent(5, TimeUnit.SECONDS);
            assertNotNull(event);
            assertEquals(CmEventType.ADDR_ERROR, event.type());
            assertEquals(-Errno.EINTR, event.status());
            assertThrows(IllegalStateException.class, () -> closing.createId(null).resolveAddr(null,
                InetAddress.getByName("10.1.0.2"), 100));
        }
    }

    @Test
    void shouldResolveFromABoundSource() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            id.bindAddr(InetAddress.getByName("10.2.0.1"));
            assertEquals(CmIdState.ADDR_BOUND, id.state());
            id.resolveAddr(InetAddress.getByName("10.1.0.1"), InetAddress.getByName("10.3.0.2"), 2000);
            assertEquals(InetAddress.getByName("10.2.0.1"), id.resolution().source(), "the existing bind wins");
            assertEquals("a1", id.resolution().netdev());
        }
    }

    @Test
    void shouldRefuseToBindAnAddressThatIsNotConfigured() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error =
                assertThrows(RdmaCmException.class, () -> id.bindAddr(InetAddress.getByName("10.2.0.66")));
            assertEquals(Errno.EADDRNOTAVAIL, error.errno());
            assertEquals(CmIdState.IDLE, id.state());
        }
    }
}
