package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.diagnostics.KernelDifference;
import dev.rdmacm.libc.ProcFile;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The 93 cases of {@link ResolutionAgainstKernelCmInGuest} through the KERNEL back-end
 * ({@link ConnectionManager#KERNEL}), in the same guest: our id resolves each case, and its answer is held to
 * librdmacm's over the kernel CM as there; then, once its route resolved, {@code rdma_connect} makes the kernel
 * id beside it, which the kernel resolves itself on RoCE (RESOLVE_ADDR to our source and destination), and the
 * back-end compares what the kernel answered (QUERY ADDR and GID: device, port, addresses, GIDs; QUERY PATH,
 * after our path was handed over with {@code RDMA_OPTION_IB_PATH}: every path field) with ours. No case may
 * report a {@link KernelDifference}, and the trace must show both of the kernel's answers, so that none passes
 * without the kernel having been asked. The connection itself is cut once the kernel id's route is compared:
 * most destinations have nobody listening.
 * <p>
 * A case whose resolution fails (for us and for librdmacm alike: a silent peer, no route, a source that is
 * not configured...) has no kernel id: the back-end makes one at {@code rdma_connect}, which needs a
 * ROUTE_RESOLVED id. The kernel's own answer for those is librdmacm's, which
 * {@link ResolutionAgainstKernelCmInGuest} compares.
 * <p>
 * After the cases, this process holds as many CM ids and QPs in {@code rdma resource} as before them: every
 * kernel id went with our id, every QP with its case.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class ResolutionThroughKernelCmInGuest
{
    /** Only a bound against a hang: the kernel id's resolution and QUERYs take milliseconds. */
    private static final Duration BESIDE = Duration.ofSeconds(30);
    private static final List<String> TRACE = new CopyOnWriteArrayList<>();
    private static final List<KernelDifference> DIFFERENCES = new CopyOnWriteArrayList<>();
    /** The cases whose route resolved, so that a kernel id was resolved beside ours; and those without one. */
    private static final List<String> WITH_KERNEL_ID = new CopyOnWriteArrayList<>();
    private static final List<String> WITHOUT_KERNEL_ID = new CopyOnWriteArrayList<>();

    private static final Pattern THIS_PROCESS = Pattern.compile("\\bpid " + ProcessHandle.current().pid() + "\\b");

    private static Map<String, Map<String, String>> librdmacm;
    private static List<Integer> resourcesBefore;
    private static RdmaCm cm;
    private static int lowPort;
    private static int highPort;

    @BeforeAll
    static void open() throws Exception
    {
        final String share = System.getenv("RDMACM_GUEST_SHARE");
        Peers.require(share != null, "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (SoftRoceGuestsTest)");
        final String[] range = ProcFile.read(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
        lowPort = Integer.parseInt(range[0]);
        highPort = Integer.parseInt(range[1]);
        resourcesBefore = resources();
        cm = RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL)
            .listener((id, from, to, reason) -> TRACE.add(from + " -> " + to + ": " + reason))
            .kernelDifferences(DIFFERENCES::add).build());
        // the answers ResolutionAgainstKernelCmInGuest got, once it added its addresses; asked again when it did not run
        librdmacm = ResolutionAgainstKernelCmInGuest.librdmacmAnswers();
        if (librdmacm == null)
        {
            librdmacm = KernelCmOracle.run(Path.of(share, "cm_oracle"), ResolutionAgainstKernelCmInGuest.CASES);
        }
    }

    @AfterAll
    static void close()
    {
        if (cm != null)
        {
            cm.close();
        }
        System.out.println("through the KERNEL back-end: " + WITH_KERNEL_ID.size() + " cases with a kernel id beside ours, "
            + WITHOUT_KERNEL_ID.size() + " without (no ROUTE_RESOLVED, for librdmacm either): " + WITHOUT_KERNEL_ID);
    }

    static List<CmCase> cases()
    {
        return ResolutionAgainstKernelCmInGuest.CASES;
    }

    /** This process's CM ids and QPs in {@code rdma resource}. */
    private static List<Integer> resources()
    {
        return List.of("cm_id", "qp").stream().map(kind -> (int)HostCommand.run(BESIDE, "rdma", "resource", "show", kind)
            .orFail("rdma resource show " + kind).output().lines().filter(line -> THIS_PROCESS.matcher(line).find()).count()).toList();
    }

    @Test
    @Order(2)
    void shouldLeaveNoKernelIdNorQpOfThisProcessBehindAfterTheCases() throws InterruptedException
    {
        final long deadline = System.nanoTime() + BESIDE.toNanos();
        List<Integer> now = resources();
        while (!now.equals(resourcesBefore) && System.nanoTime() - deadline < 0)
        {
            Thread.sleep(100);
            now = resources();
        }
        assertEquals(resourcesBefore, now, "this process's CM ids and QPs before the cases and after");
    }

    @ParameterizedTest(name = "{0}")
    @Order(1)
    @MethodSource("cases")
    void shouldResolveAsLibrdmacmAndFindTheKernelIdBesideItAnsweringTheSame(final CmCase which) throws Exception
    {
        final Map<String, String> theirs = librdmacm.get(which.name());
        assertNotNull(theirs, "the oracle printed nothing for " + which);
        final Map<String, String> expected = new LinkedHashMap<>(theirs);
        expected.remove("end");
        TRACE.clear();
        DIFFERENCES.clear();
        final boolean[] beside = new boolean[1];

        final Map<String, String> ours = OurCm.resolve(cm, which, (id, channel) ->
        {
            beside[0] = true;
            connectBeside(id);
        });

        assertEquals(ResolutionAgainstKernelCmInGuest.byRule(which, expected, lowPort, highPort),
            ResolutionAgainstKernelCmInGuest.byRule(which, ours, lowPort, highPort), "librdmacm said " + theirs);
        if (!beside[0])
        {
            // no ROUTE_RESOLVED, for librdmacm either (the maps are equal): no rdma_connect, no kernel id
            WITHOUT_KERNEL_ID.add(which.name());
            return;
        }
        WITH_KERNEL_ID.add(which.name());
        assertEquals(List.of(), List.copyOf(DIFFERENCES), "the kernel id's answers against ours; trace " + TRACE);
        assertTrue(TRACE.stream().anyMatch(line -> line.contains(" ADDR_RESOLVED: the kernel's ")),
            "the kernel's address answer in the trace: " + TRACE);
        assertTrue(TRACE.stream().anyMatch(line -> line.contains(" ROUTE_RESOLVED: the kernel's path ")),
            "the kernel's path in the trace: " + TRACE);
    }

    /**
     * {@code rdma_connect} through the kernel's CM, with a QP on our id's device, until the back-end compared the
     * kernel id's route with ours (or the kernel id failed, which is a difference); then the id is destroyed,
     * before its QP, and the kernel id with it.
     */
    private static void connectBeside(final RdmaCmId id) throws Exception
    {
        try (VerbsEndpoint endpoint = VerbsEndpoint.on(id.binding().device()))
        {
            id.attachQp(endpoint.qp());
            id.connect(ConnectionParameters.of(1, 1));
            final long deadline = System.nanoTime() + BESIDE.toNanos();
            while (TRACE.stream().noneMatch(line -> line.contains(" ROUTE_RESOLVED: the kernel's path "))
                && DIFFERENCES.stream().noneMatch(d -> d.field().equals("connection")))
            {
                if (System.nanoTime() - deadline > 0)
                {
                    throw new AssertionError("the kernel id beside " + id + " answered nothing within " + BESIDE + ": " + TRACE);
                }
                Thread.sleep(5);
            }
            id.destroy();
        }
    }
}
