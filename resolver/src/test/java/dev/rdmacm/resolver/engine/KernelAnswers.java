package dev.rdmacm.resolver.engine;

import dev.rdmacm.testing.HostCommand;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the kernel answers, as iproute2 prints it: {@code ip -j route get DST [from SRC] [oif DEV] uid 0}
 * (uid 0: the kernel CM's own lookup, {@code addr4_resolve}), {@code ip -j neigh show nud all},
 * {@code ip -j link} and {@code ip -j addr show to}. Then what the kernel CM's {@code addr_resolve}
 * makes of them: the netdev (the owner of a local destination), the next hop and the neighbour, valid
 * when its state is one of the kernel's {@code NUD_VALID} states.
 */
final class KernelAnswers
{
    /** include/net/neighbour.h: NUD_VALID, by the names iproute2 prints. */
    static final Set<String> NUD_VALID = Set.of("PERMANENT", "NOARP", "REACHABLE", "PROBE", "STALE", "DELAY");
    /** include/uapi/linux/rtnetlink.h: RTN_*, by the names iproute2 prints (no name: unicast). */
    private static final List<String> ROUTE_TYPES = List.of("unspec", "unicast", "local", "broadcast", "anycast",
        "multicast", "blackhole", "unreachable", "prohibit", "throw", "nat", "xresolve");
    private static final String ERROR_PREFIX = "RTNETLINK answers: ";

    private final GeneratedNetwork network;
    /** {@code ip -j link show} as of the last {@link #readLinks()}: links change only between rounds of queries. */
    private List<Map<String, Object>> links = List.of();

    KernelAnswers(final GeneratedNetwork network)
    {
        this.network = network;
    }

    /** {@code ip -j route get}; a refused lookup gives its error text (strerror of the errno). */
    RouteAnswer route(final Query query)
    {
        final List<String> args = new java.util.ArrayList<>(List.of("route", "get", query.destination().getHostAddress()));
        if (query.source() != null)
        {
            args.addAll(List.of("from", query.source().getHostAddress()));
        }
        if (query.outputDevice() != null)
        {
            args.addAll(List.of("oif", query.outputDevice()));
        }
        args.addAll(List.of("uid", "0"));
        final HostCommand.Outcome outcome = network.ask(args.toArray(String[]::new));
        if (!outcome.succeeded())
        {
            final String text = outcome.output().strip();
            if (!text.startsWith(ERROR_PREFIX))
            {
                throw new AssertionError("ip route get failed without a kernel errno: " + text);
            }
            return RouteAnswer.refused(text.substring(ERROR_PREFIX.length()));
        }
        @SuppressWarnings("unchecked")
        final Map<String, Object> route = ((List<Map<String, Object>>)dev.rdmacm.testing.EkJson.parse(outcome.output().strip()))
            .getFirst();
        final String type = (String)route.getOrDefault("type", "unicast");
        int hopLimit = 0;
        if (route.get("metrics") instanceof List<?> metrics)
        {
            for (final Object metric : metrics)
            {
                if (metric instanceof Map<?, ?> m && m.get("hoplimit") != null)
                {
                    hopLimit = Integer.parseInt((String)m.get("hoplimit"));
                }
            }
        }
        return new RouteAnswer(null, ROUTE_TYPES.indexOf(type), ifindex((String)route.get("dev")),
            address(route.get("gateway")), address(route.get("prefsrc")), hopLimit);
    }

    /** Reads the links again: before a round of queries, after the configuration changed. */
    void readLinks()
    {
        links = network.askJson("link", "show");
    }

    /** The kernel CM's findings for the query, given the kernel's {@code route} for it: netdev, next hop, neighbour. */
    ResolutionAnswer resolution(final Query query, final RouteAnswer route)
    {
        if (route.error() != null)
        {
            return ResolutionAnswer.failed(route.error());
        }
        final InetAddress source = query.source() != null ? query.source() : route.preferredSource();
        if (source == null)
        {
            return ResolutionAnswer.failed(dev.rdmacm.libc.Errno.description(dev.rdmacm.libc.Errno.EADDRNOTAVAIL));
        }
        final InetAddress nextHop = route.gateway() != null ? route.gateway() : query.destination();
        final Map<String, Object> outputLink = link(route.ifindex());
        if ("loopback".equals(outputLink.get("link_type")))
        {
            // rdma_set_src_addr_rcu: a local destination is reached through the netdev that owns it
            final Map<String, Object> owner = owner(query.destination());
            if (owner == null)
            {
                return ResolutionAnswer.failed(dev.rdmacm.libc.Errno.description(dev.rdmacm.libc.Errno.ENODEV));
            }
            final int ifindex = number(owner.get("ifindex"));
            return new ResolutionAnswer(null, ifindex, nextHop, source, "LOCAL", (String)link(ifindex).get("address"));
        }
        if (flags(outputLink).contains("NOARP"))
        {
            return new ResolutionAnswer(null, route.ifindex(), nextHop, source, "NOARP DEVICE", "");
        }
        final Neighbour neighbour = neighbour(nextHop, (String)outputLink.get("ifname"));
        final boolean valid = neighbour != null && neighbour.states().stream().anyMatch(NUD_VALID::contains);
        return new ResolutionAnswer(null, route.ifindex(), nextHop, source, valid ? "VALID" : "WAITING",
            valid ? neighbour.linkLayerAddress() : null);
    }

    /** {@code ip -j neigh show nud all to ADDR dev DEV}: the entry, or null when there is none. */
    Neighbour neighbour(final InetAddress address, final String device)
    {
        final List<Map<String, Object>> entries = network.askJson("neigh", "show", "nud", "all", "to",
            address.getHostAddress(), "dev", device);
        if (entries.isEmpty())
        {
            return null;
        }
        final Map<String, Object> entry = entries.getFirst();
        @SuppressWarnings("unchecked")
        final List<String> states = (List<String>)entry.getOrDefault("state", List.of());
        return new Neighbour(List.copyOf(states), (String)entry.get("lladdr"));
    }

    int ifindex(final String device)
    {
        for (final Map<String, Object> link : links)
        {
            if (device.equals(link.get("ifname")))
            {
                return number(link.get("ifindex"));
            }
        }
        throw new AssertionError("ip link show has no " + device);
    }

    private Map<String, Object> link(final int ifindex)
    {
        for (final Map<String, Object> link : links)
        {
            if (number(link.get("ifindex")) == ifindex)
            {
                return link;
            }
        }
        throw new AssertionError("ip link show has no ifindex " + ifindex);
    }

    /** The first interface that holds {@code address}, in the kernel's address-dump order. */
    private Map<String, Object> owner(final InetAddress address)
    {
        final String family = address instanceof java.net.Inet4Address ? "-4" : "-6";
        final String prefix = address.getHostAddress() + (address instanceof java.net.Inet4Address ? "/32" : "/128");
        final List<Map<String, Object>> owners = network.ipJson(family, "address", "show", "to", prefix);
        return owners.isEmpty() ? null : owners.getFirst();
    }

    @SuppressWarnings("unchecked")
    private static List<String> flags(final Map<String, Object> link)
    {
        return (List<String>)link.getOrDefault("flags", List.of());
    }

    private static int number(final Object text)
    {
        return Integer.parseInt((String)text);
    }

    private static InetAddress address(final Object text)
    {
        return text == null ? null : InetAddress.ofLiteral((String)text);
    }

    /** One lookup: {@code ip route get DESTINATION [from SOURCE] [oif OUTPUT_DEVICE]}. */
    record Query(InetAddress destination, InetAddress source, String outputDevice)
    {
        static Query to(final String destination)
        {
            return new Query(InetAddress.ofLiteral(destination), null, null);
        }

        Query from(final String source)
        {
            return new Query(destination, InetAddress.ofLiteral(source), outputDevice);
        }

        Query oif(final String device)
        {
            return new Query(destination, source, device);
        }

        @Override
        public String toString()
        {
            return destination.getHostAddress() + (source == null ? "" : " from " + source.getHostAddress()) +
                (outputDevice == null ? "" : " oif " + outputDevice);
        }
    }

    /**
     * A route lookup's answer: the error text of a refused one, else its type (RTN_*), output ifindex,
     * gateway, preferred source and RTAX_HOPLIMIT (0 when the route sets none).
     */
    record RouteAnswer(String error, int type, int ifindex, InetAddress gateway, InetAddress preferredSource, int hopLimit)
    {
        static RouteAnswer refused(final String error)
        {
            return new RouteAnswer(error, 0, 0, null, null, 0);
        }
    }

    /**
     * One attempt of {@code addr_resolve}: the error text of a failed one, else the netdev, next hop,
     * source, what became of the neighbour (VALID, WAITING, LOCAL, NOARP DEVICE) and the hardware
     * address it gives (null while waiting).
     */
    record ResolutionAnswer(String error, int ifindex, InetAddress nextHop, InetAddress source, String neighbour,
        String hardwareAddress)
    {
        static ResolutionAnswer failed(final String error)
        {
            return new ResolutionAnswer(error, 0, null, null, null, null);
        }
    }

    /** A neighbour entry: its state names and link-layer address (null when it has none). */
    record Neighbour(List<String> states, String linkLayerAddress)
    {
    }
}
