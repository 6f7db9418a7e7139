package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The closing order and double-close rules of resources, with {@link RecordingResource}s standing
 * in for the kernel objects no machine without RDMA hardware can create.
 */
class ResourceRegistryTest
{
    private final ResourceRegistry registry = new ResourceRegistry("fake0");
    private final List<String> destroyed = new ArrayList<>();

    @Test
    void shouldCloseWhatIsStillOpenNewestFirst()
    {
        final RecordingResource channel = new RecordingResource("channel");
        new RecordingResource("cq");
        new RecordingResource("pd");
        new RecordingResource("qp");
        new RecordingResource("ah");
        channel.close();

        assertEquals(null, registry.closeAll());

        assertEquals(List.of("channel", "ah", "qp", "pd", "cq"), destroyed);
        assertEquals(List.of(), registry.open());
        assertTrue(registry.isClosed());
    }

    @Test
    void shouldMakeASecondCloseHarmless()
    {
        final RecordingResource pd = new RecordingResource("pd");

        pd.close();
        pd.close();
        registry.closeAll();

        assertEquals(List.of("pd"), destroyed);
        assertTrue(pd.isClosed());
    }

    @Test
    void shouldKeepAResourceWhoseDestroyFailedAndRetryItWhenTheContextCloses()
    {
        final RecordingResource cq = new RecordingResource("cq");
        final RecordingResource qp = new RecordingResource("qp");
        cq.busyWhile(qp);

        final VerbsException ex = assertThrows(VerbsException.class, cq::close);

        assertEquals("ibv_destroy_cq failed: errno 16 EBUSY: cq is still used by qp", ex.getMessage());
        assertFalse(cq.isClosed());
        assertEquals(null, registry.closeAll());
        assertEquals(List.of("qp", "cq"), destroyed);
        assertTrue(cq.isClosed());
    }

    @Test
    void shouldCloseEverythingAndReportTheFirstFailureWithTheOthersSuppressed()
    {
        final RecordingResource pd = new RecordingResource("pd");
        final RecordingResource mr = new RecordingResource("mr");
        pd.failWith(Errno.EIO);
        mr.failWith(Errno.EINVAL);

        final VerbsException failure = registry.closeAll();

        assertEquals("ibv_destroy_cq failed: errno 22 EINVAL: mr", failure.getMessage());
        assertEquals(1, failure.getSuppressed().length);
        assertEquals("ibv_destroy_cq failed: errno 5 EIO: pd", failure.getSuppressed()[0].getMessage());
        assertTrue(registry.isClosed());
    }

    @Test
    void shouldRefuseCallsOnAClosedResourceNamingIt()
    {
        final RecordingResource qp = new RecordingResource("qp");
        qp.close();

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> qp.requireOpen("ibv_post_send"));

        assertEquals("ibv_post_send: qp (closed) is closed", ex.getMessage());
    }

    @Test
    void shouldRefuseCallsOnceTheContextIsClosed()
    {
        final RecordingResource pd = new RecordingResource("pd");
        registry.closeAll();

        final IllegalStateException ex = assertThrows(IllegalStateException.class, () -> registry.requireOpen("ibv_alloc_pd"));

        assertEquals("ibv_alloc_pd: device fake0 is closed", ex.getMessage());
        assertSame(true, pd.isClosed());
    }

    /** A test double for a kernel object: records its destruction, can fail it. */
    private final class RecordingResource extends NativeResource
    {
        private final String name;
        private RecordingResource usedBy;
        private int errno;

        RecordingResource(final String name)
        {
            super(registry, name);
            this.name = name;
            register();
        }

        void busyWhile(final RecordingResource user)
        {
            usedBy = user;
        }

        void failWith(final int errno)
        {
            this.errno = errno;
        }

        @Override
        void destroy()
        {
            if (usedBy != null && !usedBy.isClosed())
            {
                throw new VerbsException("ibv_destroy_cq", Errno.EBUSY, name + " is still used by " + usedBy.name);
            }
            if (errno != 0)
            {
                throw new VerbsException("ibv_destroy_cq", errno, name);
            }
            destroyed.add(name);
        }
    }
}
