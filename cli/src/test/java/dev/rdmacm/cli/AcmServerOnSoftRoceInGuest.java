package dev.rdmacm.cli;

import dev.rdmacm.cm.kernel.CmCase;
import dev.rdmacm.cm.kernel.KernelCmOracle;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.rdmacm.cli.AcmServerGuest.CLIENT_DEVICE;
import static dev.rdmacm.cli.AcmServerGuest.CLIENT_IPV4;
import static dev.rdmacm.cli.AcmServerGuest.SERVER_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Our acm-server as the guest's ibacm, on a RoCE port ({@link AcmServerGuest}, in the conformance
 * module's kernel guest), serving the real librdmacm 44 over the real kernel 6.1 CM:
 * <ul>
 *   <li>librdmacm's {@code rdma_resolve_route} asks it first ({@code ucma_set_ib_route}: rxe's transport
 *       is IBV_TRANSPORT_IB) and hands its path to the kernel with {@code RDMA_OPTION_IB_PATH};</li>
 *   <li>the path the kernel then holds equals the one it builds itself without the server, field by
 *       field, but for the flow label, which the server leaves 0 (the kernel's hashes the id's own ports);</li>
 *   <li>the real {@code rping} connects and pings over a route from it.</li>
 * </ul>
 * The server runs as a user starts it: {@code rdmacm acm-server --fabric verbs:rxe21}, no endpoint
 * file, files in the guest's own {@code /run}. It stops (and removes them) before the next class runs.
 */
public class AcmServerOnSoftRoceInGuest
{
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final int PINGS = 10;
    private static final Set<String> PATH_FIELDS = Set.of("dgid", "sgid", "dlid", "slid", "raw_traffic", "hop_limit",
        "traffic_class", "reversible", "numb_path", "pkey", "sl", "mtu_selector", "mtu", "rate_selector", "rate",
        "packet_life_time_selector", "packet_life_time", "preference", "num_paths");

    private static Map<String, String> kernelOwn;
    private static Map<String, String> throughAcm;
    private static AcmServerProcess server;
    private static Path oracle;

    @BeforeAll
    static void resolveWithoutAndWithTheServer() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        Peers.require(!Files.exists(Path.of("/run/ibacm-unix.sock")), "another ibacm already serves /run");
        oracle = Path.of(share, "cm_oracle");
        kernelOwn = resolve("kernel-own");
        final Path dir = Files.createTempDirectory("acm-in-guest");
        server = AcmServerProcess.start(dir, Path.of("/run"), "log_level 2\n", "-A", dir.resolve("none.cfg").toString(),
            "--fabric", "verbs:" + CLIENT_DEVICE);
        throughAcm = resolve("through-acm");
    }

    @AfterAll
    static void stopTheServer() throws Exception
    {
        if (server != null)
        {
            server.close();
        }
    }

    private static Map<String, String> resolve(final String name)
    {
        final Map<String, String> fields = KernelCmOracle.run(oracle, List.of(new CmCase(name, SERVER_IPV4, CLIENT_IPV4, 2000)))
            .get(name);
        assertEquals("RDMA_CM_EVENT_ROUTE_RESOLVED", fields.get("route_event"), name + ": " + fields);
        return fields;
    }

    private static Map<String, String> path(final Map<String, String> fields)
    {
        final Map<String, String> path = new LinkedHashMap<>();
        fields.forEach((key, value) ->
        {
            if (PATH_FIELDS.contains(key))
            {
                path.put(key, value);
            }
        });
        return path;
    }

    @Test
    void shouldBeAskedForTheRouteByLibrdmacm() throws Exception
    {
        assertTrue(server.log().contains("route 1->::ffff:" + SERVER_IPV4 + ": QUERYING -> READY"), server.log());
    }

    @Test
    void shouldHandTheKernelItsOwnRoceRouteButTheFlowLabel()
    {
        assertEquals(path(kernelOwn), path(throughAcm));
    }

    /**
     * The kernel's own flow label hashes the id's ports ({@code (src * 31 + dst) & 0xFFFFF}); the server's
     * path leaves it 0, and the kernel keeps what it was given. Bit 23, the RawTraffic bit a byte of the
     * destination MAC sets in both, is the kernel's artifact (see ResolutionAgainstKernelCmInGuest).
     */
    @Test
    void shouldLeaveTheFlowLabelZeroWhereTheKernelHashesTheIdsPorts()
    {
        final int own = Integer.parseInt(kernelOwn.get("flow_label"));
        final int hash = (Integer.parseInt(kernelOwn.get("src_port")) * 31 + Integer.parseInt(kernelOwn.get("dst_port"))) & 0xfffff;
        assertEquals(hash, own & 0xfffff, kernelOwn.toString());
        final int given = Integer.parseInt(throughAcm.get("flow_label"));
        assertEquals(0, given & 0xfffff, throughAcm.toString());
        assertEquals(own & ~0xfffff, given & ~0xfffff, "the bits above the label");
    }

    @Test
    void shouldCarryRpingOverARouteFromTheServer() throws Exception
    {
        final int requestsBefore = resolveRequests();
        final String rping = Peers.requireCommand("rping", "rdmacm-utils").toString();
        final Process pingServer = new ProcessBuilder(rping, "-s", "-a", SERVER_IPV4, "-C", Integer.toString(PINGS), "-v")
            .redirectErrorStream(true).start();
        try
        {
            Thread.sleep(1000);
            final HostCommand.Outcome client = HostCommand.run(LIMIT, rping, "-c", "-a", SERVER_IPV4, "-I", CLIENT_IPV4, "-C",
                Integer.toString(PINGS), "-v");
            assertEquals(0, client.exitStatus(), client.output());
            final Matcher pings = Pattern.compile("(?m)^ping data: rdma-ping-\\d+: ").matcher(client.output());
            assertEquals(PINGS, pings.results().count(), client.output());
        }
        finally
        {
            pingServer.destroy();
            pingServer.waitFor();
        }
        assertEquals(requestsBefore + 1, resolveRequests(), "rping's rdma_resolve_route asked the server once");
    }

    /**
     * The server's RESOLVEs of rping's addresses: any process of the guest that resolves a route on an IB-transport
     * device asks the server first, as librdmacm does, and the suite's other JVM runs librdmacm's tools meanwhile.
     */
    private static int resolveRequests() throws Exception
    {
        // as addresses or as their IPv4-mapped GIDs, whichever the request carries
        final Pattern rpings = Pattern.compile(" resolve (::ffff:)?" + Pattern.quote(CLIENT_IPV4) + " -> (::ffff:)?"
            + Pattern.quote(SERVER_IPV4));
        return (int)server.log().lines().filter(line -> rpings.matcher(line).find()).count();
    }
}
