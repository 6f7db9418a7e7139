package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.libc.ProcFile;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static dev.rdmacm.cm.kernel.KernelCmGuest.BLACKHOLE_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.JUMBO_OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.JUMBO_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.JUMBO_PEER_IPV6;
import static dev.rdmacm.cm.kernel.KernelCmGuest.MID_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.MID_PEER_IPV6;
import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV6;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_IPV6;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_LINK_LOCAL;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PLAIN_OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PLAIN_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PRIO_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PRIO_VLAN_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PROHIBIT_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.ROUTED_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.ROUTED_IPV6;
import static dev.rdmacm.cm.kernel.KernelCmGuest.ROUTED_JUMBO_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.SECOND_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.SECOND_PEER_IPV6;
import static dev.rdmacm.cm.kernel.KernelCmGuest.SECOND_SILENT_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.SILENT_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.SILENT_IPV6;
import static dev.rdmacm.cm.kernel.KernelCmGuest.STILL_BOND_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.TINY_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.UNCONFIGURED_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.UNREACHABLE_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.UNROUTED_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.VLAN_OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.VLAN_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.VLAN_PEER_IPV6;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * {@code rdma_resolve_addr} and {@code rdma_resolve_route}, ours against the real kernel CM through
 * the real librdmacm, case by case in the same guest ({@link KernelCmGuest}): the event or the
 * synchronous errno of each step, the device, port, addresses with ports, GIDs and P_Key, and every
 * field of {@code id->route.path_rec}, as text, field by field.
 * <p>
 * Two fields differ by design from run to run, on both sides alike, and are compared by their rule:
 * an ephemeral source port reads {@code ephemeral} when it lies in the guest's
 * {@code ip_local_port_range}; a flow label reads {@code hash^X} where X is what is left once
 * {@code (src_port * 31 + dst_port) & 0xFFFFF} of that side's own ports is taken out (the RawTraffic
 * bit 23 that a byte of the destination MAC sets).
 */
public class ResolutionAgainstKernelCmInGuest
{
    private static final int SHORT = 1000;
    private static final int LONG = 2000;

    /** Added to k0 by {@link #askTheKernel} once our CM is open; their GIDs then appear in rxe0's table. */
    private static final String ADDED_IPV4 = "10.20.0.50";
    private static final String ADDED_IPV6 = "2001:db8:20::50";

    static final List<CmCase> CASES = List.of(
        // families, scope and destination kinds
        new CmCase("onlink-ipv4", PEER_IPV4, null, LONG),
        new CmCase("onlink-ipv6", PEER_IPV6, null, LONG),
        new CmCase("link-local-scoped", PEER_LINK_LOCAL + "%k0", null, LONG),
        new CmCase("link-local-bound", PEER_LINK_LOCAL + "%k0", "fe80::1%k0", LONG),
        new CmCase("link-local-unscoped", PEER_LINK_LOCAL, null, SHORT),
        new CmCase("ipv4-mapped-ipv6", "::ffff:" + PEER_IPV4, null, SHORT),
        new CmCase("local-address", OWN_IPV4, null, LONG),
        new CmCase("local-address-ipv6", OWN_IPV6, null, LONG),
        new CmCase("local-address-on-vlan", VLAN_OWN_IPV4, null, LONG),
        new CmCase("loopback-ipv4", "127.0.0.1", null, SHORT),
        new CmCase("loopback-ipv6", "::1", null, SHORT),
        new CmCase("zero-ipv4", "0.0.0.0", null, SHORT),
        new CmCase("zero-ipv6", "::", null, SHORT),
        new CmCase("routed-ipv4", ROUTED_IPV4, null, LONG),
        new CmCase("routed-ipv6", ROUTED_IPV6, null, LONG),
        new CmCase("routed-over-jumbo", ROUTED_JUMBO_IPV4, null, LONG),
        new CmCase("routed-tos-16", ROUTED_IPV4, null, LONG).tos(16),
        // source binding
        new CmCase("bound-source-ipv4", PEER_IPV4, OWN_IPV4, LONG),
        new CmCase("bound-source-ipv6", PEER_IPV6, OWN_IPV6, LONG),
        new CmCase("wildcard-source-ipv4", PEER_IPV4, "0.0.0.0", LONG),
        new CmCase("wildcard-source-ipv6", PEER_IPV6, "::", LONG),
        new CmCase("loopback-bound-ipv4", "127.0.0.1", "127.0.0.1", SHORT),
        new CmCase("loopback-bound-ipv6", "::1", "::1", SHORT),
        new CmCase("loopback-from-wildcard", "127.0.0.1", "0.0.0.0", SHORT),
        new CmCase("source-not-configured", PEER_IPV4, UNCONFIGURED_IPV4, SHORT),
        new CmCase("source-on-another-netdev", PEER_IPV4, PLAIN_OWN_IPV4, SHORT),
        new CmCase("source-on-another-rdma-netdev", PEER_IPV4, JUMBO_OWN_IPV4, SHORT),
        // devices, links, MTUs, VLAN priorities
        new CmCase("netdev-without-rdma", PLAIN_PEER_IPV4, null, SHORT),
        new CmCase("mtu-9000-ipv4", JUMBO_PEER_IPV4, null, LONG),
        new CmCase("mtu-9000-ipv6", JUMBO_PEER_IPV6, null, LONG),
        new CmCase("mtu-4200-ipv4", MID_PEER_IPV4, null, LONG),
        new CmCase("mtu-4200-ipv6", MID_PEER_IPV6, null, LONG),
        new CmCase("mtu-340-leaves-no-ib-mtu", TINY_PEER_IPV4, null, LONG),
        new CmCase("onlink-tos-16", PEER_IPV4, null, LONG).tos(16),
        new CmCase("onlink-ipv6-tos-8", PEER_IPV6, null, LONG).tos(8),
        new CmCase("vlan-tos-unset", VLAN_PEER_IPV4, null, LONG),
        new CmCase("vlan-tos-0", VLAN_PEER_IPV4, null, LONG).tos(0),
        new CmCase("vlan-tos-4", VLAN_PEER_IPV4, null, LONG).tos(4),
        new CmCase("vlan-tos-8", VLAN_PEER_IPV4, null, LONG).tos(8),
        new CmCase("vlan-tos-16", VLAN_PEER_IPV4, null, LONG).tos(16),
        new CmCase("vlan-tos-24", VLAN_PEER_IPV4, null, LONG).tos(24),
        new CmCase("vlan-ipv6-tos-16", VLAN_PEER_IPV6, null, LONG).tos(16),
        // a netdev with traffic classes (mqprio, num_tc 4), and a VLAN over it whose egress-qos-map it overrules
        new CmCase("num-tc-tos-unset", PRIO_PEER_IPV4, null, LONG),
        new CmCase("num-tc-tos-0", PRIO_PEER_IPV4, null, LONG).tos(0),
        new CmCase("num-tc-tos-8", PRIO_PEER_IPV4, null, LONG).tos(8),
        new CmCase("num-tc-tos-16", PRIO_PEER_IPV4, null, LONG).tos(16),
        new CmCase("num-tc-tos-24", PRIO_PEER_IPV4, null, LONG).tos(24),
        new CmCase("num-tc-vlan-tos-unset", PRIO_VLAN_PEER_IPV4, null, LONG),
        new CmCase("num-tc-vlan-tos-8", PRIO_VLAN_PEER_IPV4, null, LONG).tos(8),
        new CmCase("num-tc-vlan-tos-24", PRIO_VLAN_PEER_IPV4, null, LONG).tos(24),
        new CmCase("bond-tos-16", STILL_BOND_PEER_IPV4, null, LONG).tos(16),
        new CmCase("ack-timeout-14", PEER_IPV4, null, LONG).options("ack=14"),
        new CmCase("ack-timeout-0", PEER_IPV4, null, LONG).options("ack=0"),
        // failures
        new CmCase("silent-peer", SILENT_IPV4, null, SHORT),
        new CmCase("silent-peer-ipv6", SILENT_IPV6, null, SHORT),
        new CmCase("no-route", UNROUTED_IPV4, null, SHORT),
        new CmCase("unreachable-route", UNREACHABLE_IPV4, null, SHORT),
        new CmCase("blackhole-route", BLACKHOLE_IPV4, null, SHORT),
        new CmCase("prohibit-route", PROHIBIT_IPV4, null, SHORT),
        // a neighbour entry set FAILED by hand just before the call: neigh_event_send probes it again
        new CmCase("neighbour-failed-peer-answers", SECOND_PEER_IPV4, null, LONG).options("failneigh=k0"),
        new CmCase("neighbour-failed-peer-answers-ipv6", SECOND_PEER_IPV6, null, LONG).options("failneigh=k0"),
        new CmCase("neighbour-failed-peer-silent", SECOND_SILENT_IPV4, null, SHORT).options("failneigh=k0"),
        // ports
        new CmCase("source-port", PEER_IPV4, OWN_IPV4 + "#5000", LONG),
        new CmCase("destination-port", PEER_IPV4 + "#7471", null, LONG),
        new CmCase("both-ports", PEER_IPV4 + "#7471", OWN_IPV4 + "#5001", LONG),
        new CmCase("wildcard-source-port", PEER_IPV4, "0.0.0.0#5002", LONG),
        new CmCase("ipv6-ports", PEER_IPV6 + "#7471", OWN_IPV6 + "#5003", LONG),
        new CmCase("privileged-port", PEER_IPV4, OWN_IPV4 + "#80", LONG),
        new CmCase("port-in-use", PEER_IPV4, OWN_IPV4 + "#6000", SHORT).options("hold=" + OWN_IPV4 + "#6000"),
        new CmCase("port-held-wildcard-asks", PEER_IPV4, "0.0.0.0#6001", SHORT).options("hold=" + OWN_IPV4 + "#6001"),
        new CmCase("port-held-by-wildcard", PEER_IPV4, OWN_IPV4 + "#6002", SHORT).options("hold=0.0.0.0#6002"),
        new CmCase("port-reused-by-both", PEER_IPV4, OWN_IPV4 + "#6003", LONG)
            .options("hold=" + OWN_IPV4 + "#6003", "holdreuse", "reuse"),
        new CmCase("port-reused-by-one", PEER_IPV4, OWN_IPV4 + "#6004", SHORT).options("hold=" + OWN_IPV4 + "#6004", "reuse"),
        new CmCase("port-afonly-both", PEER_IPV6, "::#6005", LONG).options("hold=0.0.0.0#6005", "holdafonly", "afonly"),
        new CmCase("port-afonly-defaults", PEER_IPV6, "::#6006", SHORT).options("hold=0.0.0.0#6006"),
        new CmCase("port-afonly-ipv6-only", PEER_IPV6, "::#6007", LONG).options("hold=0.0.0.0#6007", "afonly"),
        new CmCase("port-other-address", PEER_IPV4, OWN_IPV4 + "#6008", LONG).options("hold=" + VLAN_OWN_IPV4 + "#6008"),
        // RDMA_OPTION_IB_PATH instead of rdma_resolve_route
        new CmCase("ib-path-ipv4", PEER_IPV4, null, LONG).options("ibpath"),
        new CmCase("ib-path-ipv6", PEER_IPV6, null, LONG).options("ibpath"),
        new CmCase("ib-path-routed", ROUTED_IPV4, null, LONG).options("ibpath"),
        new CmCase("ib-path-without-primary-flags", PEER_IPV4, null, LONG).options("ibpathflags0"),
        new CmCase("ib-path-on-loopback", "127.0.0.1", null, SHORT).options("ibpath"),
        // addresses added after our RdmaCm opened (and read the GID tables)
        new CmCase("source-added-after-open", PEER_IPV4, ADDED_IPV4, LONG),
        new CmCase("source-added-after-open-ipv6", PEER_IPV6, ADDED_IPV6, LONG),
        // AF_IB (struct sockaddr_ib) on a RoCE-only machine: librdmacm's af_ib_support probe succeeds
        // (the calls below reach the kernel rather than being EINVAL); RoCE ports have the AF_IB
        // capability, so a GID of a local subnet resolves (and its route finds no netdev)
        new CmCase("af-ib-on-roce", "ib:" + PEER_LINK_LOCAL, null, SHORT).options("ps=ib"),
        new CmCase("af-ib-tcp-sid-on-roce", "ib:" + PEER_LINK_LOCAL + "/0xffff/0x1061d2f/0xffffffffffffffff", null, SHORT),
        new CmCase("af-ib-no-local-subnet", "ib:2001:db8:99::1", null, SHORT).options("ps=ib"),
        new CmCase("af-ib-pkey-no-port-holds", "ib:" + PEER_LINK_LOCAL + "/0x7001", null, SHORT).options("ps=ib"),
        new CmCase("af-ib-zero-gid-is-loopback", "ib:::", null, SHORT).options("ps=ib"),
        new CmCase("af-ib-source-roce-gid", "ib:::ffff:" + PEER_IPV4, "ib:::ffff:" + OWN_IPV4, SHORT).options("ps=ib"),
        new CmCase("af-ib-tcp-sid-on-udp-id", "ib:" + PEER_LINK_LOCAL, "ib:::/0xffff/0x1060000/0xffffffffffff0000", SHORT)
            .options("ps=udp"),
        new CmCase("af-ib-ipv4-source", "ib:" + PEER_LINK_LOCAL, OWN_IPV4, SHORT).options("ps=ib"),
        new CmCase("ps-ib-ipv4", PEER_IPV4, null, LONG).options("ps=ib"));


    private static Map<String, Map<String, String>> kernel;
    private static RdmaCm cm;
    private static int lowPort;
    private static int highPort;

    @BeforeAll
    static void askTheKernel() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        final String[] range = ProcFile.read(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
        lowPort = Integer.parseInt(range[0]);
        highPort = Integer.parseInt(range[1]);
        // The defaults, as an application would open it: the guest's real devices, read through libibverbs.
        final long start = System.nanoTime();
        cm = RdmaCm.open();
        final long opened = System.nanoTime();
        addAfterOpen();
        final long added = System.nanoTime();
        kernel = KernelCmOracle.run(Path.of(share, "cm_oracle"), CASES);
        // the set-up is the suite's largest (docs/testing.md, "The time budget"): where it goes, in the JVM's stderr
        System.err.printf("ResolutionAgainstKernelCmInGuest: set-up: RdmaCm.open %d ms, addresses %d ms, librdmacm's %d cases %d ms%n",
            (opened - start) / 1_000_000, (added - opened) / 1_000_000, CASES.size(), (System.nanoTime() - added) / 1_000_000);
    }

    /**
     * librdmacm's answers to {@link #CASES}, as this class asked them once the addresses were added after open,
     * for another class of the same guest JVM that compares with them (run after this one).
     */
    static Map<String, Map<String, String>> librdmacmAnswers()
    {
        return kernel;
    }

    /**
     * Adds {@link #ADDED_IPV4} and {@link #ADDED_IPV6} to k0 and waits (bounded) until roce_gid_mgmt
     * has put their GIDs into rxe0's table, which it does a moment after the address, for both CMs.
     */
    private static void addAfterOpen() throws Exception
    {
        HostCommand.run(Duration.ofSeconds(30), "ip", "address", "add", ADDED_IPV4 + "/24", "dev", "k0").orFail("ip address add");
        HostCommand.run(Duration.ofSeconds(30), "ip", "address", "add", ADDED_IPV6 + "/64", "dev", "k0", "nodad")
            .orFail("ip address add");
        final List<String> wanted = List.of("0000:0000:0000:0000:0000:ffff:0a14:0032", "2001:0db8:0020:0000:0000:0000:0000:0050");
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!gidsOfRxe0().containsAll(wanted))
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("rxe0 has no GIDs for " + ADDED_IPV4 + " and " + ADDED_IPV6 + " after 30 s: " +
                    gidsOfRxe0());
            }
            Thread.sleep(50);
        }
    }

    private static List<String> gidsOfRxe0() throws IOException
    {
        try (Stream<Path> files = Files.list(Path.of("/sys/class/infiniband/rxe0/ports/1/gids")))
        {
            final List<String> gids = new ArrayList<>();
            for (final Path file : files.toList())
            {
                gids.add(ProcFile.read(file).strip());
            }
            return gids;
        }
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
    void shouldResolveAsTheKernelCmDoes(final CmCase which) throws Exception
    {
        final Map<String, String> theirs = kernel.get(which.name());
        assertNotNull(theirs, "the oracle printed nothing for " + which);
        final Map<String, String> expected = new LinkedHashMap<>(theirs);
        expected.remove("end");

        assertEquals(byRule(which, expected, lowPort, highPort), byRule(which, OurCm.resolve(cm, which), lowPort, highPort),
            "kernel said " + theirs);
    }

    /**
     * The run-dependent fields replaced by the rule they follow (see the class comment), with the
     * guest's {@code ip_local_port_range}.
     */
    static Map<String, String> byRule(final CmCase which, final Map<String, String> fields, final int lowPort,
        final int highPort)
    {
        final Map<String, String> ruled = new LinkedHashMap<>(fields);
        final boolean portGiven = which.source() != null && which.source().contains("#");
        final String sourcePort = fields.get("src_port");
        if (sourcePort != null && !portGiven)
        {
            final int port = Integer.parseInt(sourcePort);
            ruled.put("src_port", port >= lowPort && port <= highPort ? "ephemeral" : sourcePort);
        }
        final String sid = fields.get("src_sid");
        if (sid != null && sourcePort != null && !ruled.get("src_port").equals(sourcePort))
        {
            // an AF_IB source's Service ID ends in the ephemeral port
            ruled.put("src_sid", Long.toHexString(Long.parseUnsignedLong(sid.substring(2), 16) & ~0xffffL) + "|ephemeral");
        }
        final String flowLabel = fields.get("flow_label");
        if (flowLabel != null && sourcePort != null)
        {
            final int hash = (Integer.parseInt(sourcePort) * 31 + Integer.parseInt(fields.get("dst_port"))) & 0xfffff;
            final int label = Integer.parseInt(flowLabel);
            if ((label & 0xfffff) == hash)
            {
                ruled.put("flow_label", "hash^0x" + Integer.toHexString(label ^ hash));
            }
        }
        return ruled;
    }
}
