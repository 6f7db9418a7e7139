package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.testing.PreloadedAcmServer;
import dev.rdmacm.libc.ProcFile;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.VLAN_PEER_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * librdmacm 44's ACM-first route, in the guest: our acm-server listens where librdmacm looks for
 * ibacm ({@code /run/ibacm.sock}, no {@code /run/ibacm.port}) and holds, from an OpenSM path dump, a
 * route from rxe0's 10.20.0.1 to its peer 10.20.0.2 with an SL, MTU and rate the RoCE synthesis would
 * never choose. The real librdmacm ({@code cm_oracle}, a process of its own, started while the server
 * runs) resolves the route through the kernel CM: it asks ACM first (rxe's transport is
 * IBV_TRANSPORT_IB), sets the answer as RDMA_OPTION_IB_PATH, and the kernel keeps ACM's path, its
 * L2 fields replaced by the destination MAC. Our RdmaCm, with its defaults, asks the same server and
 * must print the same; a destination the server has no route for falls back to the kernel's route on
 * both sides. Without the server (every case of {@link ResolutionAgainstKernelCmInGuest}, which runs
 * before this class, and every case after it) both sides take the kernel's route.
 */
public class AcmRouteAgainstKernelCmInGuest
{
    private static final int LONG = 2000;
    private static final int DUMP_SL = 4;
    private static final int DUMP_MTU = 2;
    private static final int DUMP_RATE = 6;

    static final List<CmCase> CASES = List.of(
        new CmCase("acm-onlink-ipv4", PEER_IPV4, null, LONG),
        new CmCase("acm-onlink-ipv4-ports", PEER_IPV4 + "#7471", OWN_IPV4 + "#5100", LONG),
        new CmCase("acm-no-route-there", VLAN_PEER_IPV4, null, LONG));

    /** rxe0's RoCE GIDs for 10.20.0.1 and 10.20.0.2, as port GUIDs of OpenSM's dump (subnet prefix 0). */
    private static final String ENDPOINTS = "# address device port pkey gid lid\n" +
        OWN_IPV4 + " rxe0 1 0xffff ::ffff:" + OWN_IPV4 + " 1\n";
    private static final String HOSTS = PEER_IPV4 + " ::ffff:" + PEER_IPV4 + "\n";
    private static final String PATH_DUMP = """
        Channel Adapter 0x0000ffff0a140001, base LID 1, "rxe0", port 1
        # LID  : SL : MTU : RATE
        0x0001 : 0  : 3   : 3
        0x0002 : %d  : %d   : %d

        Channel Adapter 0x0000ffff0a140002, base LID 2, "peer", port 1
        # LID  : SL : MTU : RATE
        0x0002 : 0  : 3   : 3
        """.formatted(DUMP_SL, DUMP_MTU, DUMP_RATE);

    private static PreloadedAcmServer acm;
    private static RdmaCm cm;
    private static Map<String, Map<String, String>> kernel;

    @BeforeAll
    static void startAcmAndAskTheKernel() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        assertFalse(Files.exists(Path.of("/run/ibacm.port")), "librdmacm would prefer a TCP port file");
        acm = PreloadedAcmServer.start(Files.createTempDirectory("rdmacm-acm"), Path.of("/run"), ENDPOINTS, HOSTS, PATH_DUMP);
        assertEquals(Path.of("/run/ibacm.sock"), acm.librdmacmSocket());
        cm = RdmaCm.open();
        kernel = KernelCmOracle.run(Path.of(share, "cm_oracle"), CASES);
    }

    @AfterAll
    static void stop()
    {
        if (cm != null)
        {
            cm.close();
        }
        if (acm != null)
        {
            acm.close();
        }
    }

    private static Map<String, String> theirs(final String name)
    {
        final Map<String, String> fields = kernel.get(name);
        assertNotNull(fields, "the oracle printed nothing for " + name);
        final Map<String, String> copy = new LinkedHashMap<>(fields);
        copy.remove("end");
        return copy;
    }

    private static CmCase which(final String name)
    {
        return CASES.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void shouldHaveTheKernelKeepAcmsPath()
    {
        final Map<String, String> path = theirs("acm-onlink-ipv4");
        assertEquals(List.of(Integer.toString(DUMP_SL), Integer.toString(DUMP_MTU), Integer.toString(DUMP_RATE), "18"),
            List.of(path.get("sl"), path.get("mtu"), path.get("rate"), path.get("packet_life_time")),
            "the SL, MTU, rate and packet lifetime of the dump's route, as acmp builds it: " + path + "\n" + acm.log());
    }

    @Test
    void shouldTakeAcmsPathAsTheKernelDoes() throws Exception
    {
        final CmCase which = which("acm-onlink-ipv4");
        assertEquals(rule(which, theirs(which.name())), rule(which, OurCm.resolve(cm, which)));
    }

    @Test
    void shouldTakeAcmsPathWithPortsAsTheKernelDoes() throws Exception
    {
        assertEquals(theirs("acm-onlink-ipv4-ports"), OurCm.resolve(cm, which("acm-onlink-ipv4-ports")));
    }

    @Test
    void shouldFallBackToTheKernelsRouteWhenAcmHasNone() throws Exception
    {
        final CmCase which = which("acm-no-route-there");
        final Map<String, String> expected = theirs(which.name());
        assertEquals(rule(which, expected), rule(which, OurCm.resolve(cm, which)), "kernel said " + expected);
    }

    /** The run-dependent fields by their rule, as {@link ResolutionAgainstKernelCmInGuest} compares them. */
    private static Map<String, String> rule(final CmCase which, final Map<String, String> fields) throws Exception
    {
        final String[] range = ProcFile.read(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
        return ResolutionAgainstKernelCmInGuest.byRule(which, fields, Integer.parseInt(range[0]), Integer.parseInt(range[1]));
    }
}
