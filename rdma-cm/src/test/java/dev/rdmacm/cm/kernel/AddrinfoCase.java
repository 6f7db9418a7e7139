package dev.rdmacm.cm.kernel;

import java.util.List;

/**
 * One case of {@link AddrinfoAgainstLibrdmacmInGuest}: steps on one fresh id and channel, in the
 * oracle's language ({@code addrinfo_oracle.c} describes it), run by the oracle and by {@link OurAddrinfo}.
 */
record AddrinfoCase(String name, List<String> steps)
{
    /** The name of the {@code /etc/hosts} entry the class adds in the guest, for {@link KernelCmGuest#PEER_IPV4}. */
    static final String HOSTS_NAME = "rdma-peer.rdmacm.test";
    /** A name no file has, asked of the DNS server the busy case plays. */
    static final String DNS_NAME = "pending.rdmacm.test";
    static final int USER = 18;

    String line()
    {
        return name + " " + String.join(" ", steps);
    }

    private static AddrinfoCase of(final String name, final String... steps)
    {
        return new AddrinfoCase(name, List.of(steps));
    }

    /** rdma_getaddrinfo's inputs as a step: "-" for null, hints null when {@code flags} is null. */
    private static String inputs(final String kind, final String node, final String service, final String flags, final int family)
    {
        return kind + "," + node + "," + service + "," + (flags == null ? "-" : flags) + "," + family;
    }

    /** A resolution expected to succeed: rdma_getaddrinfo first, so the comparison has its list. */
    private static AddrinfoCase resolving(final String name, final String node, final String service, final String flags,
        final int family, final String... after)
    {
        final String[] steps = new String[2 + after.length];
        steps[0] = inputs("gai", node, service, flags, family);
        steps[1] = inputs("resolve", node, service, flags, family);
        System.arraycopy(after, 0, steps, 2, after.length);
        return new AddrinfoCase(name, List.of(steps));
    }

    static List<AddrinfoCase> matrix()
    {
        return List.of(
            resolving("numeric_ipv4", KernelCmGuest.PEER_IPV4, "-", null, 0, "event", "query", "query"),
            resolving("numeric_ipv6_port", KernelCmGuest.PEER_IPV6, "7471", "2", 10, "query", "event"),
            resolving("numeric_ipv4_rc", KernelCmGuest.OWN_IPV4, "18515", "0", 2, "query", "event"),
            resolving("hosts_name", HOSTS_NAME, "-", null, 0, "event", "query"),
            resolving("passive_service", "-", "7471", "1", 2, "query", "event"),
            of("numeric_host_not_numeric", inputs("resolve", "not-an-address", "-", "2", 0), "query", "event"),
            of("bad_service", inputs("resolve", KernelCmGuest.PEER_IPV4, "no-such-service", null, 0), "query"),
            of("unknown_name", inputs("resolve", "unknown.rdmacm.test", "-", null, 0), "query"),
            of("all_null", inputs("resolve", "-", "-", null, 0), "query"),
            of("sa_and_dns", inputs("resolve", "-", "1", "30", 0)),
            of("sa_with_node", inputs("resolve", KernelCmGuest.PEER_IPV4, "1", "10", 0)),
            of("sa_without_service", inputs("resolve", "-", "-", "10", 0)),
            of("query_before_resolve", "query"),
            of("retry_after_failure", inputs("resolve", "not-an-address", "-", "2", 0),
                inputs("gai", KernelCmGuest.PEER_IPV4, "-", null, 0), inputs("resolve", KernelCmGuest.PEER_IPV4, "-", null, 0), "query"),
            of("write_user", "write," + USER + ",7,1122334455667788", "event"),
            of("write_user_negative_status", "write," + USER + ",-110,ffffffffffffffff", "event"),
            of("write_addr_resolved", "write,0,0,1", "event"),
            of("write_addrinfo_resolved", "write,16,0,0", "event"),
            of("write_internal", "write,19,0,16", "event"),
            of("busy_while_resolving", "busy," + DNS_NAME, "query", "event"),
            // librdmacm looks at no id state: the same answers on an id bound to an address
            of("resolve_on_bound_id", "bind," + KernelCmGuest.OWN_IPV4, inputs("gai", KernelCmGuest.PEER_IPV4, "-", null, 0),
                inputs("resolve", KernelCmGuest.PEER_IPV4, "-", null, 0), "event", "query"),
            of("write_user_on_bound_id", "bind," + KernelCmGuest.OWN_IPV6, "write," + USER + ",0,2a", "event"));
    }
}
