package dev.rdmacm.resolver.engine;

import dev.rdmacm.resolver.engine.KernelAnswers.Query;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One random configuration of a {@link GeneratedNetwork}'s host, drawn from a seeded generator: routes
 * in the main table and in tables 100 and 101 (unicast through a gateway or a device, with a hop limit,
 * scoped, with a preferred source, blackhole, prohibit, unreachable, throw, multipath, through nexthop
 * objects and groups, a second IPv6 router at a higher metric), policy rules (uidrange, fwmark, tos,
 * oif, to, from, and rule actions),
 * secondary addresses of every scope, neighbour entries in every state that can be set, a NOARP link;
 * then one change (a link or an address going down, a route, rule or nexthop removed, a neighbour's
 * state changed) and the queries
 * to ask before and after it.
 *
 * @param commands the configuration, as {@code ip -batch} lines ({@code -6} first for IPv6 ones).
 * @param change   what changes between the two rounds of queries.
 * @param queries  the lookups to compare, IPv4 and IPv6.
 * @param neighbours the neighbour entries the configuration set: address and device ({@code oif}).
 */
record RandomConfiguration(List<String> commands, List<String> change, List<Query> queries, List<Query> neighbours)
{
    private static final int PREFIXES = 6;
    private static final int[] TABLES = {254, 100, 101};
    private static final String[] ERROR_TYPES = {"blackhole", "prohibit", "unreachable", "throw"};
    private static final String[] RULE_ACTIONS = {"prohibit", "unreachable", "blackhole"};
    private static final String[] NEIGHBOUR_STATES = {"permanent", "noarp", "reachable", "stale", "delay", "probe",
        "failed", "incomplete"};

    static RandomConfiguration generate(final SplittableRandom random)
    {
        final List<String> commands = new ArrayList<>();
        final List<String> change = new ArrayList<>();
        final List<Query> queries = new ArrayList<>();
        final List<Query> neighbours = new ArrayList<>();

        // secondary addresses, of any scope: candidates for the preferred source
        for (int link = 0; link < GeneratedNetwork.LINKS; link++)
        {
            if (random.nextInt(3) == 0)
            {
                // this kernel refuses an IPv4 address of scope link or host on a non-loopback device
                commands.add("address add 10." + link + ".0.100/24 dev h" + link);
            }
            if (random.nextInt(3) == 0)
            {
                commands.add("-6 address add fd0" + link + "::100/64 dev h" + link + " nodad scope " +
                    (random.nextBoolean() ? "global" : "link"));
            }
        }
        // nexthop objects and groups, IPv4 ids 1-3 and 10, IPv6 ids 21-23 and 30
        for (int link = 0; link < GeneratedNetwork.LINKS; link++)
        {
            commands.add("nexthop add id " + (1 + link) + " via 10." + link + ".0." + gatewayHost(random) + " dev h" + link);
            commands.add("nexthop add id " + (21 + link) + " via fd0" + link + "::" + gatewayHost(random) + " dev h" + link);
        }
        commands.add("nexthop add id 10 group 1/" + (2 + random.nextInt(2)) + "," + (1 + random.nextInt(4)));
        commands.add("nexthop add id 30 group 21/" + (22 + random.nextInt(2)));

        for (int prefix = 0; prefix < PREFIXES; prefix++)
        {
            final int routes = 1 + random.nextInt(2);
            for (int r = 0; r < routes; r++)
            {
                final int table = TABLES[random.nextInt(TABLES.length)];
                commands.add(route(random, "172.16." + prefix + ".0/24", table, false));
                commands.add("-6 " + route(random, "fd10:" + prefix + "::/64", table, true));
            }
            if (random.nextInt(3) == 0)
            {
                // a second IPv6 router at a higher metric: taken when the first one's neighbour is FAILED
                final int link = random.nextInt(GeneratedNetwork.LINKS);
                commands.add("-6 route add fd10:" + prefix + "::/64 via fd0" + link + "::" + gatewayHost(random) +
                    " metric 2048 table " + TABLES[random.nextInt(TABLES.length)]);
            }
            queries.add(Query.to("172.16." + prefix + "." + (1 + random.nextInt(250))));
            queries.add(Query.to("fd10:" + prefix + "::" + Integer.toHexString(1 + random.nextInt(0xfff))));
        }
        if (random.nextBoolean())
        {
            commands.add("route add default via 10." + random.nextInt(GeneratedNetwork.LINKS) + ".0.2");
        }
        final int rules = random.nextInt(5);
        for (int r = 0; r < rules; r++)
        {
            commands.add(rule(random, 100 + r, false));
            commands.add("-6 " + rule(random, 100 + r, true));
        }
        // neighbours in a chosen state, for gateways and for destinations on the links
        for (int n = 0; n < 4; n++)
        {
            final int link = random.nextInt(GeneratedNetwork.LINKS);
            final int host = 3 + random.nextInt(4);
            final String state = pick(random, NEIGHBOUR_STATES);
            final String lladdr = state.equals("incomplete") ? "" : " lladdr 02:00:00:00:" + link + "" + n + ":0" + host;
            commands.addAll(neighbour("10." + link + ".0." + host, lladdr, "h" + link, state));
            commands.addAll(neighbour("fd0" + link + "::" + host, lladdr, "h" + link, state));
            neighbours.add(Query.to("10." + link + ".0." + host).oif("h" + link));
            neighbours.add(Query.to("fd0" + link + "::" + host).oif("h" + link));
        }
        if (random.nextInt(4) == 0)
        {
            commands.add("link set h" + random.nextInt(GeneratedNetwork.LINKS) + " arp off");
        }

        // destinations on the links, local ones, unrouted ones; some with a source or an output device
        for (int link = 0; link < GeneratedNetwork.LINKS; link++)
        {
            queries.add(Query.to("10." + link + ".0." + (2 + random.nextInt(5))));
            queries.add(Query.to("fd0" + link + "::" + (2 + random.nextInt(5))));
        }
        queries.add(Query.to("10." + random.nextInt(GeneratedNetwork.LINKS) + ".0.1"));
        queries.add(Query.to("10." + random.nextInt(GeneratedNetwork.LINKS) + ".0.100"));
        queries.add(Query.to("fd0" + random.nextInt(GeneratedNetwork.LINKS) + "::1"));
        queries.add(Query.to("198.18." + random.nextInt(256) + ".1"));
        queries.add(Query.to("2001:db8:" + Integer.toHexString(random.nextInt(0xffff)) + "::1"));
        queries.add(Query.to("fe80::" + random.nextInt(GeneratedNetwork.LINKS) + ":2").oif("h" + random.nextInt(GeneratedNetwork.LINKS)));
        final int decorated = queries.size();
        for (int q = 0; q < 6; q++)
        {
            final Query base = queries.get(random.nextInt(decorated));
            final boolean ipv4 = RouteDifferentialNamespaceTest.isIpv4(base.destination());
            final int link = random.nextInt(GeneratedNetwork.LINKS);
            Query query = base;
            if (random.nextBoolean())
            {
                final String[] sources = ipv4 ? new String[]{"10." + link + ".0.1", "10." + link + ".0.100", "10.9.9.9"} :
                    new String[]{"fd0" + link + "::1", "fd0" + link + "::100", "fd09::9"};
                query = query.from(pick(random, sources));
            }
            if (random.nextBoolean() || query == base)
            {
                query = query.oif("h" + link);
            }
            queries.add(query);
        }

        final int link = random.nextInt(GeneratedNetwork.LINKS);
        switch (random.nextInt(7))
        {
            case 0 -> change.add("link set h" + link + " down");
            case 1 -> change.add("address del 10." + link + ".0.1/24 dev h" + link);
            case 2 -> change.add("-6 address del fd0" + link + "::1/64 dev h" + link);
            case 3 -> change.add("nexthop del id " + (1 + link));
            case 4 -> change.add("rule add pref 90 uidrange 0-0 table " + TABLES[1 + random.nextInt(2)]);
            case 5 ->
            {
                final int host = 3 + random.nextInt(4);
                final String state = pick(random, NEIGHBOUR_STATES);
                final String lladdr = state.equals("incomplete") ? "" : " lladdr 02:00:00:00:" + link + "9:0" + host;
                change.addAll(neighbour("fd0" + link + "::" + host, lladdr, "h" + link, state));
                change.addAll(neighbour("10." + link + ".0." + host, lladdr, "h" + link, state));
            }
            default ->
            {
                final int prefix = random.nextInt(PREFIXES);
                change.add("route del 172.16." + prefix + ".0/24");
                change.add("-6 route del fd10:" + prefix + "::/64");
            }
        }
        return new RandomConfiguration(List.copyOf(commands), List.copyOf(change), List.copyOf(queries), List.copyOf(neighbours));
    }

    /**
     * The lines that leave {@code address} on {@code device} in {@code state}. The kernel turns an entry
     * set to DELAY into PROBE at once; one gets there as traffic would take it: STALE, then used (NTF_USE).
     */
    static List<String> neighbour(final String address, final String lladdr, final String device, final String state)
    {
        final String family = address.contains(":") ? "-6 " : "";
        if (state.equals("delay"))
        {
            return List.of(family + "neigh replace " + address + lladdr + " dev " + device + " nud stale",
                family + "neigh change " + address + " dev " + device + " use");
        }
        return List.of(family + "neigh replace " + address + lladdr + " dev " + device + " nud " + state);
    }

    private static String route(final SplittableRandom random, final String prefix, final int table, final boolean ipv6)
    {
        final int link = random.nextInt(GeneratedNetwork.LINKS);
        final String gateway = ipv6 ? "fd0" + link + "::" + gatewayHost(random) : "10." + link + ".0." + gatewayHost(random);
        final String in = " table " + table;
        return switch (random.nextInt(8))
        {
            case 0 -> "route replace " + prefix + " via " + gateway + in;
            case 1 -> "route replace " + prefix + " via " + gateway + " hoplimit " + (1 + random.nextInt(255)) + in;
            case 2 -> "route replace " + prefix + " dev h" + link + (ipv6 ? "" : " scope link") + in;
            case 3 -> "route replace " + pick(random, ERROR_TYPES) + " " + prefix + in;
            case 4 ->
            {
                final int other = (link + 1 + random.nextInt(GeneratedNetwork.LINKS - 1)) % GeneratedNetwork.LINKS;
                final String second = ipv6 ? "fd0" + other + "::2" : "10." + other + ".0.2";
                yield "route replace " + prefix + in + " nexthop via " + gateway + " dev h" + link + " weight " +
                    (1 + random.nextInt(3)) + " nexthop via " + second + " dev h" + other;
            }
            case 5 -> "route replace " + prefix + " nhid " + (ipv6 ? 21 + link : 1 + link) + in;
            case 6 -> "route replace " + prefix + " nhid " + (ipv6 ? 30 : 10) + in;
            default -> "route replace " + prefix + " via " + gateway + (ipv6 ? " src fd0" + link + "::1" : " src 10." +
                link + ".0.1") + in;
        };
    }

    private static String rule(final SplittableRandom random, final int preference, final boolean ipv6)
    {
        final String table = " table " + TABLES[1 + random.nextInt(2)];
        final int prefix = random.nextInt(PREFIXES);
        final int link = random.nextInt(GeneratedNetwork.LINKS);
        final String to = ipv6 ? "fd10:" + prefix + "::/64" : "172.16." + prefix + ".0/24";
        final String from = ipv6 ? "fd0" + link + "::1" : "10." + link + ".0.1";
        final String pref = "rule add pref " + preference;
        return switch (random.nextInt(8))
        {
            case 0 -> pref + " uidrange 0-0" + table;
            case 1 -> pref + " uidrange 1000-2000" + table;
            case 2 -> pref + " fwmark " + (1 + random.nextInt(7)) + table;
            case 3 -> pref + " tos 0x10" + table;
            case 4 -> pref + " oif h" + link + table;
            case 5 -> pref + " to " + to + table;
            case 6 -> pref + " from " + from + " to " + to + table;
            default -> pref + " to " + to + " " + pick(random, RULE_ACTIONS);
        };
    }

    /** The peer (2), a host nobody answers for (3 to 6): gateways and neighbours the configuration may set. */
    private static int gatewayHost(final SplittableRandom random)
    {
        return 2 + random.nextInt(5);
    }

    private static String pick(final SplittableRandom random, final String[] values)
    {
        return values[random.nextInt(values.length)];
    }
}
