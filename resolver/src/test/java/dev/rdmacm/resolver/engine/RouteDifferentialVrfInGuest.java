package dev.rdmacm.resolver.engine;

import dev.rdmacm.resolver.engine.KernelAnswers.Query;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RouteDifferentialNamespaceTest}'s VRF case, inside the kernel guest (Debian's 6.1, whose
 * {@code vrf} module the host's kernel lacks): a VRF device in a namespace of the test's own
 * ({@link GeneratedNetwork}, one for both cases), {@code h1} enslaved to it, a route in the VRF's table and
 * another in main, and each query's route and {@code addr_resolve} answer against {@code ip -j route get ... uid 0},
 * once with our plain lookups and once through a {@link RouteCache}. The guest's kernel is fixed and has
 * the module, so a VRF that cannot be made fails here, with or without {@code CI=true}. Run by the
 * conformance module's KernelGuestSuite.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class RouteDifferentialVrfInGuest
{
    private static final Duration MODPROBE_LIMIT = Duration.ofSeconds(20);
    private static final List<Query> QUERIES = List.of(Query.to("172.16.1.9"), Query.to("172.16.1.9").oif("h1"),
        Query.to("172.16.1.9").oif("vrf-blue"), Query.to("10.1.0.2").oif("h1"));

    /** Both cases ask the one network (a network costs seconds of {@code ip} runs under TCG). */
    private static GeneratedNetwork network;

    @BeforeAll
    static void buildAVrf()
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest");
        final HostCommand.Outcome modprobe = HostCommand.run(MODPROBE_LIMIT, "modprobe", "vrf");
        assertTrue(modprobe.succeeded(), "modprobe vrf in the guest: " + modprobe.output().strip());
        network = GeneratedNetwork.create();
        final HostCommand.Outcome vrf = network.tryIp("link", "add", "vrf-blue", "type", "vrf", "table", "10");
        assertTrue(vrf.succeeded(), "ip link add vrf-blue type vrf table 10: " + vrf.output().strip());
        network.batch(List.of("link set vrf-blue up", "link set h1 master vrf-blue",
            "route add 172.16.1.0/24 via 10.1.0.2 vrf vrf-blue", "route add 172.16.1.0/24 via 10.0.0.2"));
    }

    @AfterAll
    static void deleteTheNetwork()
    {
        if (network != null)
        {
            network.close();
        }
    }

    @Test
    void shouldMatchTheKernelThroughAVrf() throws Exception
    {
        compareThroughTheVrf(false);
    }

    @Test
    void shouldMatchTheKernelThroughAVrfWithTheRouteCache() throws Exception
    {
        compareThroughTheVrf(true);
    }

    private static void compareThroughTheVrf(final boolean routeCache) throws Exception
    {
        final RouteDifferences differences = new RouteDifferences();
        try (OurAnswers ours = new OurAnswers(network, routeCache))
        {
            differences.compare(new KernelAnswers(network), ours, QUERIES);
            final String statistics = ours.routeCacheStatistics();
            if (statistics != null)
            {
                System.out.println(RouteDifferentialVrfInGuest.class.getSimpleName() + " " + statistics);
            }
        }
        differences.assertNone();
    }
}
