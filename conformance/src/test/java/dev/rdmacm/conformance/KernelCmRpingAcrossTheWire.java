package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.time.Duration;
import java.util.List;

import static dev.rdmacm.conformance.RpingAcrossTheWire.collect;
import static dev.rdmacm.conformance.RpingAcrossTheWire.java;
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

        final GuestResult loaded = ours.run(JOB, "modprobe rdma_ucm || exit 97\n[ -e /sys/module/ib_cm ] || exit 96\n"
            + "[ -e /dev/infiniband/rdma_cm ] || exit 95");
        final GuestResult kernelServer = loaded.succeeded() ? RpingAcrossTheWire.startKernelServer(kernel, KERNEL_SERVER_PORT,
            "kernel-cm-rping-s") : loaded;
        final GuestResult ourClient = kernelServer.succeeded()
            ? ours.run(RPING, java(ours, "rping-c-kernel-cm", "rping", "-c", "-a", kernelAddress, "-p", Integer.toString(KERNEL_SERVER_PORT),
                "-C", Integer.toString(PINGS), "-v", "-V", "--cm", "kernel", "--trace"))
            : kernelServer;
        final GuestResult kernelServed = kernel.run(JOB, collect("kernel-cm-rping-s"));

        final GuestResult ourServer = loaded.succeeded() ? RpingAcrossTheWire.startOurServer(ours, OUR_SERVER_PORT, "rping-s-kernel-cm",
            "kernel-cm-our-rping-s", "-C", Integer.toString(PINGS), "--cm", "kernel") : loaded;
        final GuestResult kernelClient = ourServer.succeeded() ? RpingAcrossTheWire.kernelClient(kernel, OUR_SERVER_PORT) : ourServer;
        final GuestResult ourServed = ours.run(Duration.ofSeconds(60), collect("kernel-cm-our-rping-s"));
        final GuestResult unloaded = ours.run(JOB, "modprobe -r rdma_ucm rdma_cm iw_cm ib_cm || exit 98\n[ ! -e /sys/module/ib_cm ]");

        return List.of(
            dynamicTest("shouldPingTheKernelsRpingServerAcrossTheWireWithRdmacmRpingThroughTheKernelsCm()", () ->
            {
                assertEquals(0, loaded.exitStatus(), loaded.describe());
                RpingAcrossTheWire.assertPinged(kernelServer, ourClient, kernelServed);
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
                RpingAcrossTheWire.assertPinged(ourServer, kernelClient, ourServed)),
            dynamicTest("shouldUnloadTheKernelsCmFromTheUserspaceGuestAfterRpingThroughIt()", () ->
                assertEquals(0, unloaded.exitStatus(), unloaded.describe())));
    }
}
