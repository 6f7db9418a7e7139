package dev.rdmacm.cm;

import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.testing.RecordedGids;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code resolveAddr} through an {@link RdmaCm} opened with {@link RdmaCm.Options.Builder#routeCache}:
 * the answers follow the kernel's ({@code ip -j route get ... uid 0}) when routes change between
 * resolutions. (Equality with the kernel over many configurations: the resolver's differential test.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RouteCacheResolveAddrNamespaceTest
{
    private static final String RDMA = NamespaceTopology.RDMA_NETDEV;
    /** On the link, beyond a route of its own (192.0.2.128/25 dev RDMA): an answer the cache keeps. */
    private static final String ON_LINK = "192.0.2.200";

    private static NamespaceTopology topology;
    private static RdmaCm cm;

    @BeforeAll
    static void start() throws Exception
    {
        topology = NamespaceTopology.create();
        cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath()).gids(RecordedGids.softRoce())
            .routeCache(true).build());
        topology.ip(topology.host, "route", "add", "192.0.2.128/25", "dev", RDMA, "hoplimit", "7");
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
    void shouldBeOnWhenAsked()
    {
        assertEquals(true, cm.options().routeCache());
    }

    @Test
    void shouldFollowEachRouteChangeBetweenResolutions() throws Exception
    {
        for (final String hopLimit : List.of("9", "200", "7"))
        {
            final AddressResolution first = resolve();
            assertEquals(kernelHopLimit(), first.hopLimit(), "the route's hoplimit, as the kernel has it now");
            assertEquals(first.hopLimit(), resolve().hopLimit(), "asked again: the same answer (from the cache)");
            topology.ip(topology.host, "route", "replace", "192.0.2.128/25", "dev", RDMA, "hoplimit", hopLimit);
            assertEquals(Integer.parseInt(hopLimit), kernelHopLimit());
            assertEquals(Integer.parseInt(hopLimit), resolve().hopLimit(), "after the change: the kernel's new answer");
        }
        topology.ip(topology.host, "route", "replace", "unreachable", "192.0.2.128/25");
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException refused = org.junit.jupiter.api.Assertions.assertThrows(RdmaCmException.class,
                () -> id.resolveAddr(null, InetAddress.getByName(ON_LINK), Duration.ofMillis(2000)));
            assertEquals(dev.rdmacm.libc.Errno.EHOSTUNREACH, refused.errno(), "an unreachable route, not the cached one");
        }
        topology.ip(topology.host, "route", "replace", "192.0.2.128/25", "dev", RDMA, "hoplimit", "7");
    }

    private static AddressResolution resolve() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            id.resolveAddr(null, InetAddress.getByName(ON_LINK), Duration.ofMillis(2000));
            return id.resolution();
        }
    }

    private static int kernelHopLimit()
    {
        final Map<String, Object> route = topology.ipJson(topology.host, "route", "get", ON_LINK, "uid", "0").getFirst();
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> metrics = (List<Map<String, Object>>)route.get("metrics");
        return ((Number)metrics.getFirst().get("hoplimit")).intValue();
    }
}
