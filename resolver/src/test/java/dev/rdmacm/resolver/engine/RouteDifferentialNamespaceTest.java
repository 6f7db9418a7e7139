package dev.rdmacm.resolver.engine;

import dev.rdmacm.resolver.engine.KernelAnswers.Query;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The differential test of route and neighbour lookup: configurations built in namespaces of the
 * test's own ({@link GeneratedNetwork}), and for each query our answer ({@link OurAnswers}: rtnetlink's
 * route, the resolver's {@code addr_resolve} attempt, the neighbour entry) against the kernel's as
 * iproute2 prints it ({@link KernelAnswers}: {@code ip -j route get ... uid 0}, {@code ip -j neigh}).
 * An answer may equal the kernel's state just before it or just after it (a neighbour that our own
 * resolution solicited answers meanwhile), nothing else. Fixed cases cover each feature; the seeded
 * cases combine them at random (the seed is printed; {@code -Ddifferential.seed=N} replays one, and
 * {@code -Ddifferential.configurations=N} searches longer). The VRF case runs in the kernel guest
 * ({@link RouteDifferentialVrfInGuest}): this host's kernel has no VRF device.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RouteDifferentialNamespaceTest
{
    /**
     * Random configurations per run (12; {@code -Ddifferential.configurations=N} for a longer search): each
     * is built, asked, changed and asked again.
     */
    static final int RANDOM_CONFIGURATIONS = Integer.getInteger("differential.configurations", 12);

    GeneratedNetwork network;
    KernelAnswers kernel;
    OurAnswers ours;
    final RouteDifferences differences = new RouteDifferences();
    long refusedLines;

    @BeforeEach
    void createNetwork() throws Exception
    {
        network = GeneratedNetwork.create();
        kernel = new KernelAnswers(network);
        ours = openOurs();
    }

    /** The answers to compare with the kernel's; the cached variant overrides this. */
    OurAnswers openOurs() throws Exception
    {
        return new OurAnswers(network, false);
    }

    @AfterEach
    void deleteNetwork() throws Exception
    {
        if (ours != null)
        {
            final String statistics = ours.routeCacheStatistics();
            if (statistics != null)
            {
                System.out.println(getClass().getSimpleName() + " " + statistics);
            }
            ours.close();
        }
        if (network != null)
        {
            network.close();
        }
    }

    @Test
    void shouldMatchTheKernelForTablesAndRules() throws Exception
    {
        network.batch(List.of(
            "route add 172.16.1.0/24 via 10.1.0.2 table 100",
            "route add 172.16.1.0/24 via 10.2.0.2 table 101",
            "route add 172.16.1.0/24 via 10.0.0.2",
            "route add 172.16.2.0/24 via 10.2.0.2 table 101",
            "route add 172.16.2.0/24 via 10.0.0.2",
            "route add throw 172.16.3.0/24 table 100",
            "route add 172.16.3.0/24 via 10.2.0.2",
            "rule add pref 100 uidrange 1000-2000 table 101",
            "rule add pref 110 fwmark 5 table 101",
            "rule add pref 120 tos 0x10 table 101",
            "rule add pref 130 oif h2 table 101",
            "rule add pref 140 uidrange 0-0 to 172.16.1.0/24 table 100",
            "rule add pref 150 from 10.1.0.1 to 172.16.3.0/24 table 100",
            "-6 route add fd10:1::/64 via fd01::2 table 100",
            "-6 route add fd10:1::/64 via fd00::2",
            "-6 route add fd10:2::/64 via fd02::2 table 101",
            "-6 route add fd10:2::/64 via fd00::2",
            "-6 rule add pref 100 uidrange 1000-2000 table 101",
            "-6 rule add pref 110 fwmark 5 table 101",
            "-6 rule add pref 130 oif h2 table 101",
            "-6 rule add pref 140 uidrange 0-0 to fd10:1::/64 table 100"));
        compare(List.of(Query.to("172.16.1.9"), Query.to("172.16.2.9"), Query.to("172.16.2.9").oif("h2"),
            Query.to("172.16.3.9"), Query.to("172.16.3.9").from("10.1.0.1"), Query.to("fd10:1::9"),
            Query.to("fd10:2::9"), Query.to("fd10:2::9").oif("h2")));
        assertNoDifference();
    }

    @Test
    void shouldMatchTheKernelForMetricsAndScopes() throws Exception
    {
        network.batch(List.of(
            "-6 address add fd01::100/64 dev h1 nodad scope link",
            "address add 10.2.0.100/24 dev h2",
            "route add 172.16.1.0/24 via 10.1.0.2 hoplimit 9",
            "route add 172.16.2.0/24 dev h2 scope link",
            "route add 172.16.3.0/24 via 10.2.0.2 src 10.2.0.100 hoplimit 200",
            "route add 172.16.4.0/24 dev h1 scope host",
            "-6 route add fd10:1::/64 via fd01::2 hoplimit 3",
            "-6 route add fd10:2::/64 dev h2"));
        compare(List.of(Query.to("172.16.1.9"), Query.to("172.16.2.9"), Query.to("172.16.3.9"),
            Query.to("172.16.4.9"), Query.to("172.16.1.9").from("10.1.0.1"), Query.to("10.2.0.100"),
            Query.to("fd10:1::9"), Query.to("fd10:2::9"), Query.to("fe80::1:2").oif("h1"), Query.to("fd01::100"),
            Query.to("fd10:1::9").from("fd01::100")));
        assertNoDifference();
    }

    @Test
    void shouldMatchTheKernelForBlackholeProhibitUnreachableAndThrowRoutes() throws Exception
    {
        network.batch(List.of(
            "route add blackhole 172.16.1.0/24", "route add prohibit 172.16.2.0/24",
            "route add unreachable 172.16.3.0/24", "route add throw 172.16.4.0/24",
            "-6 route add blackhole fd10:1::/64", "-6 route add prohibit fd10:2::/64",
            "-6 route add unreachable fd10:3::/64", "-6 route add throw fd10:4::/64",
            "rule add pref 100 to 172.16.5.0/24 prohibit", "rule add pref 101 to 172.16.6.0/24 unreachable",
            "rule add pref 102 to 172.16.7.0/24 blackhole"));
        compare(List.of(Query.to("172.16.1.9"), Query.to("172.16.2.9"), Query.to("172.16.3.9"),
            Query.to("172.16.4.9"), Query.to("172.16.5.9"), Query.to("172.16.6.9"), Query.to("172.16.7.9"),
            Query.to("fd10:1::9"), Query.to("fd10:2::9"), Query.to("fd10:3::9"), Query.to("fd10:4::9"),
            Query.to("198.18.0.1"), Query.to("2001:db8:99::1")));
        assertNoDifference();
    }

    @Test
    void shouldMatchTheKernelForMultipathRoutesAndNexthopObjects() throws Exception
    {
        network.batch(List.of(
            "route add 172.16.1.0/24 nexthop via 10.0.0.2 dev h0 nexthop via 10.1.0.2 dev h1 weight 3",
            "nexthop add id 1 via 10.1.0.2 dev h1", "nexthop add id 2 via 10.2.0.2 dev h2",
            "nexthop add id 10 group 1/2,2", "route add 172.16.2.0/24 nhid 10", "route add 172.16.3.0/24 nhid 2",
            "-6 route add fd10:1::/64 nexthop via fd00::2 dev h0 nexthop via fd01::2 dev h1",
            "nexthop add id 21 via fd01::2 dev h1", "nexthop add id 22 via fd02::2 dev h2",
            "nexthop add id 30 group 21/22", "-6 route add fd10:2::/64 nhid 30",
            "nexthop add id 40 blackhole", "route add 172.16.4.0/24 nhid 40"));
        final List<Query> queries = new ArrayList<>();
        for (int host = 1; host <= 12; host++)
        {
            queries.add(Query.to("172.16.1." + host));
            queries.add(Query.to("172.16.2." + host));
            queries.add(Query.to("fd10:1::" + host));
            queries.add(Query.to("fd10:2::" + host));
        }
        queries.add(Query.to("172.16.3.9"));
        queries.add(Query.to("172.16.4.9"));
        queries.add(Query.to("172.16.2.9").from("10.2.0.1"));
        compare(queries);
        assertNoDifference();
    }

    @Test
    void shouldMatchTheKernelWhenLinksAndAddressesGoDown() throws Exception
    {
        network.batch(List.of("route add 172.16.1.0/24 via 10.1.0.2", "route add 172.16.2.0/24 via 10.2.0.2",
            "-6 route add fd10:1::/64 via fd01::2", "route add default via 10.0.0.2"));
        final List<Query> queries = List.of(Query.to("172.16.1.9"), Query.to("172.16.2.9"), Query.to("fd10:1::9"),
            Query.to("10.1.0.2"), Query.to("10.2.0.2"), Query.to("10.1.0.1"), Query.to("172.16.2.9").from("10.2.0.1"),
            Query.to("10.1.0.2").oif("h1"));
        compare(queries);
        network.batch(List.of("link set h1 down", "address del 10.2.0.1/24 dev h2"));
        compare(queries);
        network.batch(List.of("link set h1 up"));
        compare(queries);
        assertNoDifference();
    }

    @Test
    void shouldMatchTheKernelForEveryNeighbourState() throws Exception
    {
        final List<String> states = List.of("permanent", "noarp", "reachable", "stale", "delay", "probe", "failed",
            "incomplete");
        final List<String> commands = new ArrayList<>();
        final List<Query> queries = new ArrayList<>();
        for (int i = 0; i < states.size(); i++)
        {
            final String lladdr = states.get(i).equals("incomplete") ? "" : " lladdr 02:00:00:00:aa:" + (10 + i);
            commands.addAll(RandomConfiguration.neighbour("10.0.0." + (50 + i), lladdr, "h0", states.get(i)));
            commands.addAll(RandomConfiguration.neighbour("fd00::" + (50 + i), lladdr, "h0", states.get(i)));
            queries.add(Query.to("10.0.0." + (50 + i)));
            queries.add(Query.to("fd00::" + (50 + i)));
        }
        // a NOARP device resolves without a neighbour
        commands.add("link set h2 arp off");
        queries.add(Query.to("10.2.0.7"));
        network.batch(commands);
        final java.util.Set<Object> made = new java.util.TreeSet<>();
        for (final var entry : network.ipJson("neigh", "show", "nud", "all", "dev", "h0"))
        {
            made.add(String.valueOf(entry.get("state")));
        }
        System.out.println("neighbour states made on h0 (the kernel turns DELAY set directly into PROBE): " + made);
        kernel.readLinks();
        for (final Query query : queries)
        {
            compareNeighbour(query.destination(), "h0");
        }
        compare(queries);
        assertNoDifference();
    }

    /**
     * An IPv6 host (no forwarding) passes over a router whose neighbour entry is FAILED
     * ({@code rt6_check_neigh}): the route's answer follows a neighbour's state, which only a
     * neighbour notification tells.
     */
    @Test
    void shouldMatchTheKernelWhereANeighbourStateChoosesTheIpv6Router() throws Exception
    {
        network.batch(List.of("-6 route add fd10:7::/64 via fd00::3 metric 100",
            "-6 route add fd10:7::/64 via fd01::2 metric 200"));
        final List<Query> queries = List.of(Query.to("fd10:7::9"), Query.to("fd10:7::9").from("fd01::1"));
        compare(queries);
        network.batch(List.of("-6 neigh replace fd00::3 dev h0 nud failed"));
        compare(queries);
        network.batch(List.of("-6 neigh replace fd00::3 lladdr 02:00:00:00:00:03 dev h0 nud reachable"));
        compare(queries);
        network.batch(List.of("-6 neigh replace fd00::3 dev h0 nud failed"));
        compare(queries);
        assertNoDifference();
    }

    @Test
    void shouldMatchTheKernelForRandomConfigurations() throws Exception
    {
        final long seed = Long.getLong("differential.seed", System.nanoTime());
        System.out.println(getClass().getSimpleName() + " seed " + seed + " (replay: -Ddifferential.seed=" + seed + ")");
        final SplittableRandom random = new SplittableRandom(seed);
        for (int configuration = 0; configuration < RANDOM_CONFIGURATIONS; configuration++)
        {
            if (configuration > 0)
            {
                final String statistics = ours.routeCacheStatistics();
                if (statistics != null)
                {
                    System.out.println(getClass().getSimpleName() + " configuration " + (configuration - 1) + " " +
                        statistics);
                }
                ours.close();
                network.close();
                network = GeneratedNetwork.create();
                kernel = new KernelAnswers(network);
                ours = openOurs();
            }
            final RandomConfiguration generated = RandomConfiguration.generate(random);
            final String refused = network.batchForced(generated.commands());
            refusedLines += refused.lines().filter(line -> line.startsWith("Command failed")).count();
            final String where = "seed " + seed + " configuration " + configuration;
            kernel.readLinks();
            for (final Query neighbour : generated.neighbours())
            {
                compareNeighbour(neighbour.destination(), neighbour.outputDevice());
            }
            compare(generated.queries(), where, generated.commands(), refused);
            final String refusedChange = network.batchForced(generated.change());
            compare(generated.queries(), where + " after " + generated.change(), generated.commands(), refusedChange);
        }
        System.out.println(getClass().getSimpleName() + " compared " + differences.compared() + " answers in " + RANDOM_CONFIGURATIONS +
            " configurations; the kernel refused " + refusedLines + " generated lines (a route through a nexthop or a " +
            "link that is not there, a change that finds nothing to remove)");
        assertNoDifference();
    }

    void compare(final List<Query> queries) throws Exception
    {
        differences.compare(kernel, ours, queries);
    }

    void compare(final List<Query> queries, final String where, final List<String> commands, final String refused)
        throws Exception
    {
        differences.compare(kernel, ours, queries, where, commands, refused);
    }

    void compareNeighbour(final InetAddress address, final String device) throws Exception
    {
        differences.compareNeighbour(kernel, ours, address, device);
    }

    void assertNoDifference()
    {
        differences.assertNone();
    }

    static boolean isIpv4(final InetAddress address)
    {
        return address instanceof Inet4Address;
    }
}
