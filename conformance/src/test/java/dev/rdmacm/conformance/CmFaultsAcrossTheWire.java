package dev.rdmacm.conformance;

import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * Faults against the kernel's CM, with {@link CmFaultsPeer} in the userspace guest and librdmacm
 * programs in the kernel guest, the wire captured on the userspace guest's NIC:
 * <ul>
 *   <li>a duplicate REQ: the kernel's REQ goes again while our listener delays its answer; our CM
 *       answers it with rdma_cm's delayed MRA, and it makes no second connection;</li>
 *   <li>a lost DREP, both ways: ours lost (the kernel's DREQ retries on the Max CM Retries and response
 *       timeout of our REQ, then librdmacm reports DISCONNECTED -110), and the kernel's lost (our DREQ
 *       retries, the kernel answers each, and our id reports DISCONNECTED -110 and TIMEWAIT_EXIT).</li>
 * </ul>
 * tshark decodes every CM MAD of both sides as our decoders do.
 */
final class CmFaultsAcrossTheWire
{
    private static final Duration JOB = Duration.ofSeconds(30);
    private static final Duration RUN = Duration.ofSeconds(120);
    private static final int LISTEN_PORT = 7181;
    private static final int IN_PORT = 7182;
    private static final int OUT_PORT = 7183;
    /** Longer than the kernel's 6144 ms REQ wait, so that its REQ goes again. */
    private static final int DELAY_SECONDS = 8;
    private static final String NAME = "faults";

    private CmFaultsAcrossTheWire()
    {
    }

    static List<DynamicTest> checks(final GuestPair guests)
    {
        final KernelGuest ours = guests.userspace();
        final KernelGuest kernel = guests.kernel();
        final String kernelAddress = GuestWire.KERNEL_CM.address();
        final String ourAddress = GuestWire.USERSPACE_CM.address();
        final Path server = CProgram.compile(CmFaultsAcrossTheWire.class, "accept_after_delay.c", kernel.sharedDirectory(),
            "accept_after_delay", "-O0", "-Wall", "-lrdmacm", "-libverbs");
        final Path client = CProgram.compile(CmFaultsAcrossTheWire.class, "connect_with_private_data.c", kernel.sharedDirectory(),
            "connect_with_private_data", "-O0", "-Wall", "-lrdmacm", "-libverbs");
        final String serve = kernel.guestPathOf(server) + " " + kernelAddress + " ";
        final GuestResult servers = kernel.run(JOB, RpingAcrossTheWire.background(serve + IN_PORT + " 0", "drep-in") + "\n"
            + RpingAcrossTheWire.background(serve + OUT_PORT + " 0 first", "drep-out") + "\n"
            + RpingAcrossTheWire.untilListening(kernelAddress, IN_PORT) + "\n" + RpingAcrossTheWire.untilListening(kernelAddress, OUT_PORT));
        final Path wire = ours.sharedDirectory().resolve("faults.pcap");
        final String pcap = ours.guestPathOf(wire);
        final GuestResult peer = servers.succeeded() ? ours.run(RUN, RpingAcrossTheWire.startCapture(pcap, "udp port 4791 and host "
            + kernelAddress + " and " + SilentPeerAcrossTheWire.NEITHER_SILENT_PEER, NAME) + "\n"
            + RpingAcrossTheWire.background(RpingAcrossTheWire.javaCommand(ours, NAME, CmFaultsPeer.class.getName(), ourAddress,
                kernelAddress, Integer.toString(LISTEN_PORT), Integer.toString(DELAY_SECONDS), Integer.toString(IN_PORT),
                Integer.toString(OUT_PORT)), NAME) + "\n" + RpingAcrossTheWire.untilListeningIn(NAME)) : servers;
        final GuestResult connecter = peer.succeeded()
            ? kernel.run(JOB, kernel.guestPathOf(client) + " " + ourAddress + " " + LISTEN_PORT + " duplicate-request")
            : peer;
        final GuestResult faults = ours.run(RUN, RpingAcrossTheWire.collect(NAME, RUN));
        final GuestResult lostIn = kernel.run(JOB, RpingAcrossTheWire.collect("drep-in"));
        final GuestResult lostOut = kernel.run(JOB, RpingAcrossTheWire.collect("drep-out"));
        ours.run(JOB, RpingAcrossTheWire.stopCapture(NAME));
        final String all = faults.describe() + "\n" + connecter.describe();

        final List<DynamicTest> tests = new ArrayList<>();
        tests.add(dynamicTest("shouldMakeOneConnectionOfTheKernelsRepeatedRequest()", () ->
        {
            assertEquals(0, connecter.exitStatus(), all);
            assertEquals("event RDMA_CM_EVENT_ESTABLISHED status 0\nprivate_data \nevent RDMA_CM_EVENT_DISCONNECTED status 0\n",
                connecter.stdout(), all);
            assertEquals(List.of("CONNECT_REQUEST status 0", "ESTABLISHED status 0", "DISCONNECTED status 0"),
                lines(faults, "dup-req event"), all);
        }));
        tests.add(dynamicTest("shouldAnswerTheRepeatedRequestWithTheDelayedMraAsRdmaCmDoes()", () ->
            assertTrue(lines(faults, "dup-req cm").containsAll(List.of("REQ_RCVD -> MRA_REQ_SENT", "MRA_REQ_SENT -> REP_SENT")),
                all)));
        tests.add(dynamicTest("shouldReportTheKernelsDisconnectTimedOutWhenOurDrepIsLost()", () ->
        {
            assertEquals(0, lostOut.exitStatus(), lostOut.describe() + "\n" + all);
            assertEquals("event RDMA_CM_EVENT_CONNECT_REQUEST status 0\nevent RDMA_CM_EVENT_ESTABLISHED status 0\n"
                + "event RDMA_CM_EVENT_DISCONNECTED status -110\n", lostOut.stdout(), lostOut.describe());
            assertEquals(List.of("ADDR_RESOLVED status 0", "ROUTE_RESOLVED status 0", "ESTABLISHED status 0",
                "DISCONNECTED status 0", "TIMEWAIT_EXIT status 0"), lines(faults, "drep-lost-out event"), all);
        }));
        tests.add(dynamicTest("shouldRetryOurDisconnectAndReportTimedOutWhenTheKernelsDrepIsLost()", () ->
        {
            assertEquals(0, lostIn.exitStatus(), lostIn.describe() + "\n" + all);
            assertEquals("event RDMA_CM_EVENT_CONNECT_REQUEST status 0\nevent RDMA_CM_EVENT_ESTABLISHED status 0\n"
                + "event RDMA_CM_EVENT_DISCONNECTED status 0\n", lostIn.stdout(), lostIn.describe());
            assertEquals(List.of("ADDR_RESOLVED status 0", "ROUTE_RESOLVED status 0", "ESTABLISHED status 0",
                "DISCONNECTED status -110", "TIMEWAIT_EXIT status 0"), lines(faults, "drep-lost-in event"), all);
            assertEquals(List.of(Integer.toString(1 + CmFaultsPeer.MAX_CM_RETRIES)), lines(faults, "drep-lost-in dropped"), all);
        }));
        tests.add(dynamicTest("shouldSeeTheRepeatsOnTheWireAndDecodeThemAsTsharkDoes()", () ->
        {
            final List<String> attributes = new ArrayList<>();
            assertEquals(List.of(), KernelCmMadsCaptured.mismatches(wire, attributes), attributes.toString());
            final List<String> expected = new ArrayList<>(List.of("REQ", "REQ", "MRA", "REP", "RTU", "DREQ", "DREP"));
            // our DREQ and its retries, each answered by the kernel's DREP (which our filter then drops)
            expected.addAll(List.of("REQ", "REP", "RTU"));
            for (int i = 0; i <= CmFaultsPeer.MAX_CM_RETRIES; i++)
            {
                expected.addAll(List.of("DREQ", "DREP"));
            }
            // the kernel's DREQ and its retries, on our REQ's Max CM Retries; our DREPs never leave
            expected.addAll(List.of("REQ", "REP", "RTU"));
            for (int i = 0; i <= CmFaultsPeer.MAX_CM_RETRIES; i++)
            {
                expected.add("DREQ");
            }
            assertEquals(expected, attributes, all);
        }));
        return tests;
    }

    /** The lines of the run's output that start with {@code prefix} and a space, without them. */
    private static List<String> lines(final GuestResult run, final String prefix)
    {
        return run.stdout().lines().filter(line -> line.startsWith(prefix + " ")).map(line -> line.substring(prefix.length() + 1))
            .toList();
    }
}
