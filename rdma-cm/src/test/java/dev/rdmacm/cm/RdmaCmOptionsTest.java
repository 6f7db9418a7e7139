package dev.rdmacm.cm;

import dev.rdmacm.resolver.NeighbourTriggerMode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The options an RdmaCm opens with: what they refuse and what they keep. */
class RdmaCmOptionsTest
{
    @Test
    void shouldRefuseANegativeSpinNamingIt()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> RdmaCm.Options.builder().spin(Duration.ofNanos(-1)).build());
        assertTrue(ex.getMessage().contains("spin must be zero or positive"), ex.getMessage());
    }

    @Test
    void shouldKeepTheSpinItWasGivenThroughTheOtherSetters()
    {
        final RdmaCm.Options options = RdmaCm.Options.builder().spin(Duration.ZERO)
            .trigger(NeighbourTriggerMode.NTF_USE_ELSE_UDP).acmFirstRoute(AcmFirstRoute.OFF).build();
        assertEquals(Duration.ZERO, options.spin());
    }

    @Test
    void shouldChooseTheConnectionManagerAutomaticallyByDefault()
    {
        assertEquals(ConnectionManager.AUTO, RdmaCm.Options.defaults().connectionManager());
    }

    @Test
    void shouldKeepTheConnectionManagerThroughToBuilder()
    {
        final RdmaCm.Options options = RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).build();

        assertEquals(ConnectionManager.KERNEL, options.toBuilder().spin(Duration.ZERO).build().connectionManager());
    }

    @Test
    void shouldRefuseNoConnectionManagerNamingIt()
    {
        final NullPointerException ex = assertThrows(NullPointerException.class,
            () -> RdmaCm.Options.builder().connectionManager(null));
        assertEquals("connectionManager", ex.getMessage());
    }

    @Test
    void shouldSpinByDefaultOnlyWithASecondCpu()
    {
        final Duration expected = Runtime.getRuntime().availableProcessors() > 1 ? Duration.ofNanos(50_000) : Duration.ZERO;
        assertEquals(expected, RdmaCm.Options.defaults().spin());
    }

    @Test
    void shouldStartAFreshBuilderFromTheOptionsItIsGiven()
    {
        final Path namespace = Path.of("/run/netns/rdmacm-options-test");
        final RdmaCm.Options options = RdmaCm.Options.builder().networkNamespace(namespace).spin(Duration.ZERO)
            .acmFirstRoute(AcmFirstRoute.OFF).build();

        final RdmaCm.Options changed = options.toBuilder().spin(Duration.ofNanos(7)).build();

        assertEquals(namespace, changed.networkNamespace());
        assertEquals(AcmFirstRoute.OFF, changed.acmFirstRoute());
        assertEquals(Duration.ofNanos(7), changed.spin());
        assertEquals(Duration.ZERO, options.spin(), "the options it started from are unchanged");
    }

    @Test
    void shouldTakeMaxBacklog1024ByDefaultAsTheSysctlAndKeepAnotherThroughToBuilder()
    {
        assertEquals(1024, RdmaCm.Options.defaults().maxBacklog());
        final RdmaCm.Options small = RdmaCm.Options.builder().maxBacklog(8).build();
        assertEquals(8, small.toBuilder().spin(Duration.ZERO).build().maxBacklog());
        assertEquals(0, RdmaCm.Options.builder().maxBacklog(0).build().maxBacklog());
        assertTrue(small.toString().contains("maxBacklog=8"), small.toString());
    }

    @Test
    void shouldRefuseANegativeMaxBacklogNamingIt()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> RdmaCm.Options.builder().maxBacklog(-1));
        assertEquals("maxBacklog must be 0 or more (net.rdma_ucm.max_backlog), not -1", refused.getMessage());
    }

    @Test
    void shouldKeepTheRouteCacheOffUnlessAskedAndThroughToBuilder()
    {
        assertEquals(false, RdmaCm.Options.defaults().routeCache());
        final RdmaCm.Options cached = RdmaCm.Options.builder().routeCache(true).build();
        assertEquals(true, cached.toBuilder().spin(Duration.ZERO).build().routeCache());
        assertTrue(cached.toString().contains("routeCache=true"), cached.toString());
    }

    @Test
    void shouldRefuseAMissingTriggerNamingIt()
    {
        final NullPointerException ex = assertThrows(NullPointerException.class,
            () -> RdmaCm.Options.builder().trigger(null));
        assertEquals("trigger", ex.getMessage());
    }
}
