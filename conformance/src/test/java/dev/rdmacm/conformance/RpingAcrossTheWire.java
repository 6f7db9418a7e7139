package dev.rdmacm.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rdmacm.cli.JsonVocabulary;
import dev.rdmacm.cli.Main;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * {@code rdmacm rping} in the userspace-CM guest against the real librdmacm {@code rping} over the
 * kernel's CM in the other guest, both ways, and the kernel's REJ for a port nobody listens on. The
 * kernel side's exit status and {@code ping data} lines are its own verdict that our REQ, REP, RTU and
 * DREQ (and our RC QP's reads, writes and sends) were what it expects. The first connection is captured
 * on the userspace guest's NIC ({@code wire.pcap} in its share), and every CM MAD of both sides in it
 * is decoded by our codecs and by tshark, which must agree. Our client records its CM MADs with
 * {@code --pcap} in the same run, and the wire is the oracle of that capture, MAD for MAD.
 */
final class RpingAcrossTheWire
{
    private static final Duration JOB = Duration.ofSeconds(30);
    /** A guest JVM's start until its listener says so: seconds under TCG, tens of them on a busy machine. */
    static final Duration LISTENER_START = Duration.ofSeconds(90);
    private static final Duration RPING = Duration.ofSeconds(150);
    static final int PINGS = 10;
    /**
     * Not rping's default 7174: this case runs beside the kernel guest's suite, whose udaddy cases wait for a kernel
     * listener at udaddy's fixed port 7174, and took this one for theirs when that wait matched any port space (a SIDR
     * REQ sent before udaddy listened came back SIDR_UNSUPPORTED, status 1, on 2026-12-06). The wait now matches the
     * port space and address too ({@code SoftRoceDevices.awaitKernelListener}); the port stays apart all the same.
     */
    private static final int KERNEL_SERVER_PORT = 7173;
    private static final int OUR_SERVER_PORT = 7175;
    private static final int SILENT_PORT = 7176;
    private static final int REJECT_PORT = 7177;
    private static final int DELAYED_PORT = 7178;
    private static final int FAILED_RTR_PORT = 7179;
    /** Longer than the REQ's 6144 ms wait, so that the REQ goes again and draws rdma_cm's MRA. */
    private static final int ACCEPT_DELAY_SECONDS = 9;
    private static final String REQUEST_TEXT = "hello-from-the-kernel-side";
    private static final String REJECT_TEXT = "no-thanks-from-the-java-cm";

    private RpingAcrossTheWire()
    {
    }

    static List<DynamicTest> checks(final GuestPair guests)
    {
        final KernelGuest ours = guests.userspace();
        final KernelGuest kernel = guests.kernel();
        final String kernelAddress = GuestWire.KERNEL_CM.address();
        final String ourAddress = GuestWire.USERSPACE_CM.address();
        final List<DynamicTest> tests = new ArrayList<>();

        final GuestResult kernelServer = startKernelServer(kernel, KERNEL_SERVER_PORT, "kernel-rping-s");
        final Path wire = ours.sharedDirectory().resolve("wire.pcap");
        final String pcap = ours.guestPathOf(wire);
        final Path recorded = ours.sharedDirectory().resolve("rping-c.pcap");
        ours.run(JOB, startCapture(pcap, "udp port 4791 and " + SilentPeerAcrossTheWire.NEITHER_SILENT_PEER, "wire"));
        final GuestResult ourClient = ours.run(RPING, java(ours, "rping-c", "rping", "-c", "-a", kernelAddress, "-p",
            Integer.toString(KERNEL_SERVER_PORT), "-C", Integer.toString(PINGS), "-v", "-V", "-d", "--trace", "--pcap",
            ours.guestPathOf(recorded)));
        ours.run(JOB, stopCapture("wire"));
        final GuestResult kernelServed = kernel.run(JOB, collect("kernel-rping-s"));
        tests.add(dynamicTest("shouldPingTheKernelsRpingServerWithRdmacmRping()", () ->
        {
            assertPinged(kernelServer, ourClient, kernelServed);
        }));
        tests.add(dynamicTest("shouldTraceTheActiveSidesStatesFromRequestToTimewait()", () ->
        {
            final List<String> states = ourClient.stderr().lines().filter(line -> line.startsWith("cm 0x"))
                .map(line -> line.replaceAll("^cm 0x[0-9a-f]+ (\\S+ -> \\S+) at .*$", "$1")).toList();
            // the REP MRA'd (delayed, as cma_ib_handler does) while the event thread moves the QP; then TIMEWAIT -> IDLE,
            // when the process lives until timewait ends or destroy cuts it short
            assertEquals(List.of("IDLE -> REQ_SENT", "REQ_SENT -> REP_RCVD", "REP_RCVD -> MRA_REP_SENT", "MRA_REP_SENT -> ESTABLISHED",
                "ESTABLISHED -> DREQ_SENT", "DREQ_SENT -> TIMEWAIT"), states.subList(0, Math.min(6, states.size())), ourClient.stderr());
        }));

        tests.add(dynamicTest("shouldDecodeEveryCmMadOfBothSidesAsTsharkDoes()", () ->
        {
            final List<String> attributes = new ArrayList<>();
            assertEquals(List.of(), KernelCmMadsCaptured.mismatches(wire, attributes), attributes.toString());
            assertEquals(List.of("REQ", "REP", "RTU", "DREQ", "DREP"), attributes);
        }));

        tests.add(dynamicTest("shouldRecordInItsPcapTheCmMadsTheWireCarried()", () ->
        {
            final List<String> attributes = new ArrayList<>();
            assertEquals(List.of(), CmMadsAgainstTheWire.differences(recorded, wire, ourAddress, attributes), attributes.toString());
            assertEquals(List.of("REQ", "REP", "RTU", "DREQ", "DREP"), attributes);
        }));
        tests.add(dynamicTest("shouldComputeTheIcrcRxePutOnEveryCmFrameOfTheWire()", () ->
            assertEquals(List.of(), CmMadsAgainstTheWire.icrcMismatches(wire))));

        // --json too: rping's summary on stdout, its own lines on stderr as without it
        final GuestResult rejected = ours.run(RPING, java(ours, "rping-silent", "rping", "-c", "-a", kernelAddress, "-p",
            Integer.toString(SILENT_PORT), "-C", "1", "-d", "--json"));
        tests.add(dynamicTest("shouldBeRejectedByTheKernelCmWithInvalidServiceIdWhenNoOneListens()", () ->
        {
            assertEquals(255, rejected.exitStatus(), rejected.describe()); // rping's exit(-1)
            assertTrue(rejected.stderr().contains("cma event RDMA_CM_EVENT_REJECTED, error 8"), rejected.describe());
        }));
        tests.add(dynamicTest("shouldSummariseTheRejectedPingAsDocsJsonMdsRpingObject()", () ->
        {
            final JsonVocabulary vocabulary = JsonVocabulary.ofThisCheckout();
            final JsonNode summary = vocabulary.check(vocabulary.resultOf("rping"), rejected.stdout().strip());
            assertEquals(0, summary.get("pings").asInt(), rejected.describe());
            assertEquals(false, summary.get("ok").asBoolean(), rejected.describe());
            assertEquals(kernelAddress, summary.get("address").asText(), rejected.describe());
        }));

        final GuestResult ourServer = startOurServer(ours, OUR_SERVER_PORT, "rping-s", "our-rping-s");
        final GuestResult refusedByUs = ourServer.succeeded()
            ? kernel.run(JOB, "rping -c -a " + ourAddress + " -p " + SILENT_PORT + " -C 1")
            : ourServer;
        final GuestResult kernelClient = ourServer.succeeded() ? kernelClient(kernel, OUR_SERVER_PORT) : ourServer;
        final GuestResult ourServed = ours.run(Duration.ofSeconds(60), collect("our-rping-s"));
        tests.add(dynamicTest("shouldServeTheKernelsRpingClientWithRdmacmRping()", () ->
        {
            assertPinged(ourServer, kernelClient, ourServed);
        }));
        tests.add(dynamicTest("shouldRejectTheKernelsRequestWithInvalidServiceIdWhenNoOneListensHere()", () ->
        {
            assertEquals(255, refusedByUs.exitStatus(), refusedByUs.describe());
            assertTrue(refusedByUs.stderr().contains("cma event RDMA_CM_EVENT_REJECTED, error 8"), refusedByUs.describe());
        }));
        final Path client = CProgram.compile(RpingAcrossTheWire.class, "connect_with_private_data.c", kernel.sharedDirectory(),
            "connect_with_private_data", "-O0", "-Wall", "-lrdmacm", "-libverbs");
        final GuestResult rejecter = ours.run(LISTENER_START, background(javaCommand(ours, "reject", RejectWithPrivateData.class.getName(),
            ourAddress, Integer.toString(REJECT_PORT), REJECT_TEXT), "reject") + "\n" + untilListeningIn("reject"));
        final GuestResult connecter = rejecter.succeeded()
            ? kernel.run(JOB, kernel.guestPathOf(client) + " " + ourAddress + " " + REJECT_PORT + " " + REQUEST_TEXT)
            : rejecter;
        final GuestResult rejectedHere = ours.run(JOB, collect("reject"));
        tests.add(dynamicTest("shouldCarryPrivateDataBothWaysWhenOurListenerRejectsTheKernelsRequest()", () ->
        {
            assertEquals(0, connecter.exitStatus(), connecter.describe() + "\n" + rejectedHere.describe());
            assertEquals("event RDMA_CM_EVENT_REJECTED status 28\nprivate_data " + REJECT_TEXT + "\n", connecter.stdout(),
                connecter.describe());
            assertEquals("request private_data " + REQUEST_TEXT + "\n", rejectedHere.stdout(), rejectedHere.describe());
        }));
        final Path server = CProgram.compile(RpingAcrossTheWire.class, "accept_after_delay.c", kernel.sharedDirectory(),
            "accept_after_delay", "-O0", "-Wall", "-lrdmacm", "-libverbs");
        final GuestResult delayed = kernel.run(JOB, background(kernel.guestPathOf(server) + " " + kernelAddress + " " + DELAYED_PORT
            + " " + ACCEPT_DELAY_SECONDS, "delayed") + "\n" + untilListening(kernelAddress, DELAYED_PORT));
        final GuestResult waited = delayed.succeeded()
            ? ours.run(RPING, javaCommand(ours, "connect", ConnectThenDisconnect.class.getName(), kernelAddress,
                Integer.toString(DELAYED_PORT)))
            : delayed;
        final GuestResult accepted = kernel.run(JOB, collect("delayed"));
        tests.add(dynamicTest("shouldWaitAsTheKernelsMraAsksWhenItsAcceptIsDelayed()", () ->
        {
            assertEquals(0, waited.exitStatus(), waited.describe() + "\n" + accepted.describe());
            // the REQ goes again after 6144 ms; rdma_cm's delayed MRA answers it; the REP comes after the delay
            assertEquals(List.of("cm IDLE -> REQ_SENT", "cm REQ_SENT -> MRA_REQ_RCVD", "cm MRA_REQ_RCVD -> REP_RCVD",
                "cm REP_RCVD -> MRA_REP_SENT", "cm MRA_REP_SENT -> ESTABLISHED", "event ESTABLISHED status 0"), waited.stdout().lines()
                .filter(line -> line.startsWith("cm ") || line.startsWith("event ESTABLISHED")).limit(6).toList(), waited.describe());
            assertEquals(0, accepted.exitStatus(), accepted.describe());
            assertEquals(List.of("event RDMA_CM_EVENT_CONNECT_REQUEST status 0", "event RDMA_CM_EVENT_ESTABLISHED status 0",
                "event RDMA_CM_EVENT_DISCONNECTED status 0"), accepted.stdout().lines().toList(), accepted.describe());
        }));
        tests.add(dynamicTest("shouldMoveTheQpOnTheApplicationsThreadAsLibrdmacmDoesNotOnTheConductor()", () ->
        {
            // rdma_create_qp's INIT, CONNECT_RESPONSE's RTR and RTS in rdma_get_cm_event, rdma_disconnect's ERR: all main's
            assertEquals(List.of("qp RESET -> INIT on main", "qp INIT -> RTR on main", "qp RTR -> RTS on main",
                "qp RTS -> ERR on main"), waited.stdout().lines().filter(line -> line.startsWith("qp ")).toList(), waited.describe());
        }));
        final GuestResult refusing = kernel.run(JOB, background(kernel.guestPathOf(server) + " " + kernelAddress + " "
            + FAILED_RTR_PORT + " 0", "refusing") + "\n" + untilListening(kernelAddress, FAILED_RTR_PORT));
        final GuestResult failed = refusing.succeeded()
            ? ours.run(RPING, javaCommand(ours, "connect", ConnectThenDisconnect.class.getName(), kernelAddress,
                Integer.toString(FAILED_RTR_PORT), "fail-rtr"))
            : refusing;
        final GuestResult refused = kernel.run(JOB, collect("refusing"));
        tests.add(dynamicTest("shouldReportConnectErrorMinusOneAndRejectWhenTheEventThreadsMoveToRtrFails()", () ->
        {
            // ucma_process_conn_resp: the failed move, the QP to ERR, CONNECT_ERROR with rdma_seterrno's -1; the id's
            // destroy then rejects the kernel's REP (consumer defined, 28), as ib_destroy_cm_id in MRA_REP_SENT does
            assertEquals(0, failed.exitStatus(), failed.describe() + "\n" + refused.describe());
            assertEquals(List.of("qp RESET -> INIT on main", "qp INIT -> ERR on main", "event CONNECT_ERROR status -1"), failed.stdout().lines().filter(line -> line.startsWith("qp ") || line.startsWith("event C"))
                .toList(), failed.describe());
            assertEquals(List.of("event RDMA_CM_EVENT_CONNECT_REQUEST status 0", "event RDMA_CM_EVENT_REJECTED status 28"),
                refused.stdout().lines().toList(), refused.describe());
        }));
        return tests;
    }

    /** The kernel's rping server on the wire's address, {@link #PINGS} pings, in the background of {@code kernel} (job {@code name}) once it listens. */
    static GuestResult startKernelServer(final KernelGuest kernel, final int port, final String name)
    {
        final String address = GuestWire.KERNEL_CM.address();
        return kernel.run(JOB, background("rping -s -a " + address + " -p " + port + " -C " + PINGS + " -v", name) + "\n"
            + untilListening(address, port));
    }

    /**
     * Our rping server ({@code rdmacm rping -s} in a guest JVM, main {@code main} for its AOT log, {@code options} after the
     * usual ones) on the wire's address, in the background of {@code ours} (job {@code name}) once it listens.
     */
    static GuestResult startOurServer(final KernelGuest ours, final int port, final String main, final String name, final String... options)
    {
        final List<String> arguments = new ArrayList<>(List.of("rping", "-s", "-a", GuestWire.USERSPACE_CM.address(), "-p",
            Integer.toString(port)));
        arguments.addAll(List.of(options));
        arguments.addAll(List.of("-v", "-d"));
        return ours.run(LISTENER_START, background(java(ours, main, arguments.toArray(String[]::new)), name) + "\n" + untilListeningIn(name));
    }

    /** The kernel's rping client to our server on {@code port}, {@link #PINGS} pings. */
    static GuestResult kernelClient(final KernelGuest kernel, final int port)
    {
        return kernel.run(RPING, "rping -c -a " + GuestWire.USERSPACE_CM.address() + " -p " + port + " -C " + PINGS + " -v -V");
    }

    /** That {@code server} started, then {@code client} and the server's end ({@code served}) each printed every ping's data. */
    static void assertPinged(final GuestResult server, final GuestResult client, final GuestResult served)
    {
        assertEquals(0, server.exitStatus(), server.describe());
        assertEquals(0, client.exitStatus(), client.describe() + "\n" + served.describe());
        assertEquals(expectedPings("ping data: "), pingLines(client.stdout(), "ping data: "), client.describe());
        assertEquals(0, served.exitStatus(), served.describe());
        assertEquals(expectedPings("server ping data: "), pingLines(served.stdout(), "server ping data: "), served.describe());
    }

    /**
     * rping's lines for {@link #PINGS} pings of the default 64 bytes: {@code rdma-ping-N: } and then
     * 'A'..'z' from a letter one further each ping, up to the 63rd byte. Built from rping.c's rule,
     * independently of the command under test.
     */
    static List<String> expectedPings(final String prefix)
    {
        final List<String> lines = new ArrayList<>();
        int start = 65;
        for (int ping = 0; ping < PINGS; ping++)
        {
            final StringBuilder text = new StringBuilder("rdma-ping-" + ping + ": ");
            for (int c = start; text.length() < 63; c = c + 1 > 122 ? 65 : c + 1)
            {
                text.append((char)c);
            }
            start = start + 1 > 122 ? 65 : start + 1;
            lines.add(prefix + text);
        }
        return lines;
    }

    static List<String> pingLines(final String output, final String prefix)
    {
        return output.lines().filter(line -> line.startsWith(prefix)).toList();
    }

    static String background(final String command, final String name)
    {
        return "rm -f /run/" + name + ".status\nsetsid sh -c '" + command + " > /run/" + name + ".out 2> /run/" + name + ".err; "
            + "echo $? > /run/" + name + ".status' < /dev/null > /dev/null 2>&1 &";
    }

    static String collect(final String name)
    {
        return collect(name, Duration.ofSeconds(45));
    }

    /** Waits at most {@code limit} for the background job {@code name}, then gives its output and status. */
    static String collect(final String name, final Duration limit)
    {
        return "i=0; while [ ! -s /run/" + name + ".status ] && [ $i -lt " + limit.toMillis() / 300 + " ]; do sleep 0.3; i=$((i+1)); done\n"
            + "cat /run/" + name + ".out; cat /run/" + name + ".err >&2\n"
            + "exit $(cat /run/" + name + ".status 2>/dev/null || echo 99)";
    }

    /** Until the background job {@code name} has written {@code listening} to its stderr (our listeners do). */
    static String untilListeningIn(final String name)
    {
        return "i=0; until grep -q 'listening' /run/" + name + ".err 2>/dev/null; do i=$((i+1)); [ $i -gt 300 ] && "
            + "{ cat /run/" + name + ".err >&2; exit 1; }; sleep 0.3; done";
    }

    /** dumpcap on the wire NIC into {@code pcap} (a guest path), in the background, until its file has begun. */
    static String startCapture(final String pcap, final String filter, final String name)
    {
        return "rm -f " + pcap + "\ndumpcap -q -P -i " + GuestWire.NETDEV + " -f '" + filter + "' -w " + pcap + " > /dev/null 2>&1 &\n"
            + "echo $! > /run/" + name + "-dumpcap.pid\n"
            + "i=0; until [ -s " + pcap + " ]; do i=$((i+1)); [ $i -gt 100 ] && exit 1; sleep 0.2; done";
    }

    /**
     * Stops {@link #startCapture}'s dumpcap {@code name}, which completes its file before it exits: until then (at most 5 s),
     * not a fixed second, as each capture's stop was on the guest part's path. An exited dumpcap may be left a zombie by
     * the guest's init, hence its state.
     */
    static String stopCapture(final String name)
    {
        return "pid=$(cat /run/" + name + "-dumpcap.pid)\nkill -INT $pid 2>/dev/null\n"
            + "i=0; while kill -0 $pid 2>/dev/null && ! grep -q '^State:.*Z' /proc/$pid/status 2>/dev/null && [ $i -lt 50 ]; do "
            + "sleep 0.1; i=$((i+1)); done; true";
    }

    static String untilListening(final String address, final int port)
    {
        return "i=0; until rdma resource show cm_id | grep -q 'src-addr " + address + ":" + port + "'; do i=$((i+1)); "
            + "[ $i -gt 100 ] && exit 1; sleep 0.2; done";
    }

    /** Runs the CLI's main in the guest with this test JVM's class path ({@link GuestJavaMain}). */
    static String java(final KernelGuest guest, final String name, final String... arguments)
    {
        return GuestJavaMain.command(guest, name, Main.class.getName(), arguments);
    }

    /** {@link #java} in the guest's second driver JVM ({@link GuestJavaMain#secondProcess}): a process apart from {@link #java}'s. */
    static String javaSecondProcess(final KernelGuest guest, final String name, final String... arguments)
    {
        return GuestJavaMain.secondProcess(guest, name, Main.class.getName(), arguments);
    }

    /** {@link #java}, as the guest's training run for the AOT cache of every later main ({@link GuestJavaMain#training}). */
    static String javaTraining(final KernelGuest guest, final String name, final String... arguments)
    {
        return GuestJavaMain.training(guest, name, Main.class.getName(), arguments);
    }

    /** {@code java MAIN ARGS...}: the first of {@code mainAndArguments} is the main class. */
    static String javaCommand(final KernelGuest guest, final String name, final String... mainAndArguments)
    {
        return GuestJavaMain.command(guest, name, mainAndArguments[0], Arrays.copyOfRange(mainAndArguments, 1, mainAndArguments.length));
    }
}
