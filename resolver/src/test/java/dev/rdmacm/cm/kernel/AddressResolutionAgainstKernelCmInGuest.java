package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * {@code rdma_resolve_addr}, ours against the real kernel CM through the real librdmacm, case by case
 * in the same guest ({@link KernelCmGuest}): the event or the synchronous errno, and on success the
 * device, port, source and destination, GIDs and P_Key, as text, field by field.
 * <p>
 * The first step of issue 12: every case here agrees. Still to compare there: ports (the kernel binds a
 * random source port; we have none yet), the route fields, and an IPv4-mapped IPv6 destination, which
 * the kernel refuses with ENETUNREACH while Java's {@code InetAddress} turns it into IPv4 before our
 * resolver sees it.
 */
class AddressResolutionAgainstKernelCmInGuest
{
    static final List<CmCase> CASES = List.of(
        new CmCase("onlink-ipv4", KernelCmGuest.PEER_IPV4, null, 2000),
        new CmCase("onlink-ipv6", KernelCmGuest.PEER_IPV6, null, 2000),
        new CmCase("bound-source-ipv4", KernelCmGuest.PEER_IPV4, KernelCmGuest.OWN_IPV4, 2000),
        new CmCase("bound-source-ipv6", KernelCmGuest.PEER_IPV6, KernelCmGuest.OWN_IPV6, 2000),
        new CmCase("local-address", KernelCmGuest.OWN_IPV4, null, 2000),
        new CmCase("silent-peer", KernelCmGuest.SILENT_IPV4, null, 1000),
        new CmCase("no-route", KernelCmGuest.UNROUTED_IPV4, null, 1000),
        new CmCase("unreachable-route", KernelCmGuest.UNREACHABLE_IPV4, null, 1000),
        new CmCase("source-not-configured", KernelCmGuest.PEER_IPV4, KernelCmGuest.UNCONFIGURED_IPV4, 1000),
        new CmCase("wildcard-source-ipv4", KernelCmGuest.PEER_IPV4, "0.0.0.0", 2000),
        new CmCase("wildcard-source-ipv6", KernelCmGuest.PEER_IPV6, "::", 2000),
        new CmCase("source-on-another-netdev", KernelCmGuest.PEER_IPV4, KernelCmGuest.PLAIN_OWN_IPV4, 1000),
        new CmCase("netdev-without-rdma", KernelCmGuest.PLAIN_PEER_IPV4, null, 1000),
        new CmCase("blackhole-route", KernelCmGuest.BLACKHOLE_IPV4, null, 1000),
        new CmCase("prohibit-route", KernelCmGuest.PROHIBIT_IPV4, null, 1000),
        new CmCase("loopback-ipv4", "127.0.0.1", null, 1000),
        new CmCase("loopback-ipv6", "::1", null, 1000),
        new CmCase("zero-ipv4", "0.0.0.0", null, 1000),
        new CmCase("zero-ipv6", "::", null, 1000));

    private static Map<String, Map<String, String>> kernel;
    private static RdmaCm cm;

    @BeforeAll
    static void askTheKernel() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (KernelCmOnSoftRoceTest)");
        kernel = KernelCmOracle.run(Path.of(share, "cm_oracle"), CASES);
        // The defaults, as an application would open it: the guest's real devices, read from sysfs.
        cm = RdmaCm.open();
    }

    @AfterAll
    static void close()
    {
        if (cm != null)
        {
            cm.close();
        }
    }

    static List<CmCase> cases()
    {
        return CASES;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldResolveTheAddressAsTheKernelCmDoes(final CmCase which) throws Exception
    {
        final Map<String, String> ours = OurCm.resolveAddress(cm, which);
        final Map<String, String> theirs = kernel.get(which.name());
        assertNotNull(theirs, "the oracle printed nothing for " + which);

        final Map<String, String> expected = new LinkedHashMap<>();
        for (final String key : ours.keySet())
        {
            expected.put(key, theirs.get(key));
        }
        assertEquals(expected, ours, "kernel said " + theirs);
        assertEquals(keysOfTheAddressPart(theirs), List.copyOf(ours.keySet()), "kernel said " + theirs);
    }

    /** The oracle's keys up to the route part: what {@link OurCm#resolveAddress} must produce too. */
    private static List<String> keysOfTheAddressPart(final Map<String, String> theirs)
    {
        return theirs.keySet().stream()
            .filter(k -> !k.startsWith("route_") && !k.equals("end") && !k.endsWith("_port") && !k.equals("num_paths")
                && !k.startsWith("path_") && !List.of("dlid", "slid", "raw_traffic", "flow_label", "hop_limit", "traffic_class",
                    "reversible", "numb_path", "pkey", "sl", "mtu_selector", "mtu", "rate_selector", "rate",
                    "packet_life_time_selector", "packet_life_time", "preference").contains(k))
            .toList();
    }
}
