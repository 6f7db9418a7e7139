package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.time.Duration;
import java.util.List;

import static dev.rdmacm.conformance.RpingAcrossTheWire.background;
import static dev.rdmacm.conformance.RpingAcrossTheWire.collect;
import static dev.rdmacm.conformance.RpingAcrossTheWire.expectedPings;
import static dev.rdmacm.conformance.RpingAcrossTheWire.java;
import static dev.rdmacm.conformance.RpingAcrossTheWire.pingLines;
import static dev.rdmacm.conformance.RpingAcrossTheWire.untilListening;
import static dev.rdmacm.conformance.RpingAcrossTheWire.untilListeningIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * {@code rdmacm rping --cm kernel} across the wire: the userspace guest loads the kernel's CM ({@code rdma_ucm},
 * which brings {@code ib_cm}) for this case, as an ordinary host has it, and our rping runs its connections
 * through {@code /dev/infiniband/rdma_cm} against the real librdmacm {@code rping} in the kernel guest, both ways:
 * our client to its server, its client to our server. Each side's {@code ping data} lines are its verdict. Our
 * client's {@code --trace} shows its id's states with the kernel's answers beside ours, and no field where they
 * differ. The kernel's CM is unloaded again after.
 */
final class KernelCmRpingAcrossTheWire
{
    private static final Duration JOB = Duration.ofSeconds(30);
    private static final Duration RPING = Duration.ofSeconds(150);
    private static final int PINGS = RpingAcrossTheWire.PINGS;
    private static final int KERNEL_SERVER_PORT = 7184;
    private static final int OUR_SERVER_PORT = 7185;

    private KernelCmRpingAcrossTheWire()
    {
    }

    static List<DynamicTest> checks(final GuestPair guests)
    {
        final KernelGuest ours = guests.userspace();
        final KernelGuest kernel = guests.kernel();
        final String kernelAddress = GuestWire.KERNEL_CM.address();
        final String ourAddress = GuestWire.USERSPACE_CM.address();

        final GuestResult loaded = ours.run(JOB, "modprobe rdma_ucm || exit 97\n[ -e /sys/module/ib_cm ] || exit 96\n"
            + "[ -e /dev/infiniband/rdma_cm ] || exit 95");
        final GuestResult kernelServer = loaded.succeeded()
            ? kernel.run(JOB, background("rping -s -a " + kernelAddress + " -p " + KERNEL_SERVER_PORT + " -C " + PINGS + " -v",
                "kernel-cm-rping-s") + "\n" + untilListening(kernelAddress, KERNEL_SERVER_PORT))
            : loaded;
        final GuestResult ourClient = kernelServer.succeeded()
            ? ours.run(RPING, java(ours, "rping-c-kernel-cm", "rping", "-c", "-a", kernelAddress, "-p", Integer.toString(KERNEL_SERVER_PORT),
                "-C", Integer.toString(PINGS), "-v", "-V", "--cm", "kernel", "--trace"))
            : kernelServer;
        final GuestResult kernelServed = kernel.run(JOB, collect("kernel-cm-rping-s"));

        final GuestResult ourServer = loaded.succeeded()
            ? ours.run(RpingAcrossTheWire.LISTENER_START, background(java(ours, "rping-s-kernel-cm", "rping", "-s", "-a", ourAddress,
                "-p", Integer.toString(OUR_SERVER_PORT), "-C", Integer.toString(PINGS), "-v", "-d", "--cm", "kernel"), "kernel-cm-our-rping-s")
                + "\n" + untilListeningIn("kernel-cm-our-rping-s"))
            : loaded;
        final GuestResult kernelClient = ourServer.succeeded()
            ? kernel.run(RPING, "rping -c -a " + ourAddress + " -p " + OUR_SERVER_PORT + " -C " + PINGS + " -v -V")
            : ourServer;
        final GuestResult ourServed = ours.run(Duration.ofSeconds(60), collect("kernel-cm-our-rping-s"));
        final GuestResult unloaded = ours.run(JOB, "modprobe -r rdma_ucm rdma_cm iw_cm ib_cm || exit 98\n[ ! -e /sys/module/ib_cm ]");

        return List.of(
            dynamicTest("shouldPingTheKernelsRpingServerAcrossTheWireWithRdmacmRpingThroughTheKernelsCm()", () ->
            {
                assertEquals(0, loaded.exitStatus(), loaded.describe());
                assertEquals(0, kernelServer.exitStatus(), kernelServer.describe());
                assertEquals(0, ourClient.exitStatus(), ourClient.describe() + "\n" + kernelServed.describe());
                assertEquals(expectedPings("ping data: "), pingLines(ourClient.stdout(), "ping data: "), ourClient.describe());
                assertEquals(0, kernelServed.exitStatus(), kernelServed.describe());
                assertEquals(expectedPings("server ping data: "), pingLines(kernelServed.stdout(), "server ping data: "),
                    kernelServed.describe());
            }),
            dynamicTest("shouldTraceTheKernelsAnswersBesideOursWithNoDifferenceAcrossTheWire()", () ->
            {
                final String trace = ourClient.stderr();
                assertTrue(trace.contains("through the kernel's CM (KERNEL)"), trace);
                assertTrue(trace.lines().anyMatch(line -> line.contains(" ADDR_RESOLVED: the kernel's rxew0/1 ")), trace);
                assertTrue(trace.lines().anyMatch(line -> line.contains(" ROUTE_RESOLVED: the kernel's path ")), trace);
                assertTrue(trace.lines().anyMatch(line -> line.contains("-> ESTABLISHED ")), trace);
                assertEquals(List.of(), trace.lines().filter(line -> line.startsWith("kernel difference: ")).toList(), trace);
            }),
            dynamicTest("shouldServeTheKernelsRpingClientAcrossTheWireWithRdmacmRpingThroughTheKernelsCm()", () ->
            {
                assertEquals(0, ourServer.exitStatus(), ourServer.describe());
                assertEquals(0, kernelClient.exitStatus(), kernelClient.describe() + "\n" + ourServed.describe());
                assertEquals(expectedPings("ping data: "), pingLines(kernelClient.stdout(), "ping data: "), kernelClient.describe());
                assertEquals(0, ourServed.exitStatus(), ourServed.describe());
                assertEquals(expectedPings("server ping data: "), pingLines(ourServed.stdout(), "server ping data: "),
                    ourServed.describe());
            }),
            dynamicTest("shouldUnloadTheKernelsCmFromTheUserspaceGuestAfterRpingThroughIt()", () ->
                assertEquals(0, unloaded.exitStatus(), unloaded.describe())));
    }
}
