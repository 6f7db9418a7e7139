package dev.rdmacm.cm.kernel;

import dev.rdmacm.libc.ProcFile;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.ucma.UcmaChannel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.rdmacm.cm.kernel.KernelCmGuest.JUMBO_OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.JUMBO_PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV6;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_IPV6;
import static dev.rdmacm.cm.kernel.KernelCmGuest.ROUTED_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.SILENT_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.UNCONFIGURED_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.UNROUTED_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.VLAN_OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.VLAN_PEER_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The kernel's CM driven by the ucma module (create id in RDMA_PS_TCP, bind to the guest's rxe
 * address, resolve the address, then the route, and the queries librdmacm makes after each event)
 * against the same kernel driven by the real librdmacm ({@code cm_oracle.c}) for the same case, in the
 * same guest: the events and statuses, the synchronous errnos, the device, port, addresses with
 * ports, GIDs and P_Key, and every field of the path, as text, field by field. The sources are bound
 * to fixed ports, the same on both sides, so that even the flow label (a hash of the ports) is equal;
 * the one case without a source compares its ephemeral port and flow label by rule, as
 * {@link ResolutionAgainstKernelCmInGuest} does. Two cases give the route instead of resolving it:
 * SET_OPTION {@code RDMA_OPTION_IB_PATH} with the oracle's fixed record, then the path the kernel
 * holds, read back with QUERY PATH (and the kernel's EINVAL for a record without the 0x2b flags).
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
public class UcmaAgainstLibrdmacmInGuest
{
    private static final int TIMEOUT_MS = 2000;

    static final List<CmCase> CASES = List.of(
        new CmCase("ucma-onlink-ipv4", PEER_IPV4 + "#7471", OWN_IPV4 + "#20001", TIMEOUT_MS),
        new CmCase("ucma-onlink-ipv6", PEER_IPV6 + "#7472", OWN_IPV6 + "#20002", TIMEOUT_MS),
        new CmCase("ucma-jumbo-ipv4", JUMBO_PEER_IPV4 + "#7473", JUMBO_OWN_IPV4 + "#20003", TIMEOUT_MS),
        new CmCase("ucma-vlan-ipv4", VLAN_PEER_IPV4 + "#7474", VLAN_OWN_IPV4 + "#20004", TIMEOUT_MS),
        new CmCase("ucma-routed-ipv4", ROUTED_IPV4 + "#7475", OWN_IPV4 + "#20005", TIMEOUT_MS),
        new CmCase("ucma-ephemeral-source", PEER_IPV4 + "#7476", null, TIMEOUT_MS),
        new CmCase("ucma-unconfigured-source", PEER_IPV4 + "#7477", UNCONFIGURED_IPV4 + "#20007", TIMEOUT_MS),
        new CmCase("ucma-unrouted", UNROUTED_IPV4 + "#7478", null, TIMEOUT_MS),
        new CmCase("ucma-silent-peer", SILENT_IPV4 + "#7479", OWN_IPV4 + "#20009", 1000),
        new CmCase("ucma-ib-path", PEER_IPV4 + "#7480", OWN_IPV4 + "#20010", TIMEOUT_MS).options("ibpath"),
        new CmCase("ucma-ib-path-flags-0", PEER_IPV4 + "#7481", OWN_IPV4 + "#20011", TIMEOUT_MS).options("ibpathflags0"));

    private static final AtomicLong UIDS = new AtomicLong(0x5543_4d41_0000_0000L);

    private static Map<String, Map<String, String>> librdmacm;
    private static UcmaChannel channel;
    private static int lowPort;
    private static int highPort;

    @BeforeAll
    static void askLibrdmacm() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        final String[] range = ProcFile.read(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
        lowPort = Integer.parseInt(range[0]);
        highPort = Integer.parseInt(range[1]);
        librdmacm = KernelCmOracle.run(Path.of(share, "cm_oracle"), CASES);
        channel = UcmaChannel.open();
    }

    @AfterAll
    static void close()
    {
        if (channel != null)
        {
            channel.close();
        }
    }

    static List<CmCase> cases()
    {
        return CASES;
    }

    @Test
    void shouldCompareWholeRoutesNotJustTheirAbsence()
    {
        final Map<String, String> onlink = librdmacm.get("ucma-onlink-ipv4");
        assertEquals("RDMA_CM_EVENT_ROUTE_RESOLVED", onlink.get("route_event"), onlink::toString);
        assertEquals("1", onlink.get("num_paths"), onlink::toString);
        assertEquals("43", onlink.get("preference"), "the path data flags 0x2b: " + onlink);
        assertEquals("RDMA_CM_EVENT_ROUTE_RESOLVED", librdmacm.get("ucma-ib-path").get("route_event"),
            () -> "the route set with RDMA_OPTION_IB_PATH: " + librdmacm.get("ucma-ib-path"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void shouldGetFromTheKernelWhatLibrdmacmGets(final CmCase which) throws Exception
    {
        final Map<String, String> theirs = librdmacm.get(which.name());
        assertNotNull(theirs, "the oracle printed nothing for " + which);
        final Map<String, String> expected = new LinkedHashMap<>(theirs);
        expected.remove("end");

        final Map<String, String> ours = UcmaAnswers.resolve(channel, which, UIDS.incrementAndGet());

        assertEquals(ResolutionAgainstKernelCmInGuest.byRule(which, expected, lowPort, highPort),
            ResolutionAgainstKernelCmInGuest.byRule(which, ours, lowPort, highPort), "librdmacm said " + theirs);
    }
}
