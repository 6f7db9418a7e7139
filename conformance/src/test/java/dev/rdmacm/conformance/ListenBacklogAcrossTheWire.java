package dev.rdmacm.conformance;

import dev.rdmacm.cm.ReqFloodPeer;
import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The flood of {@code ListenBacklogInGuest} (10,000 REQs with distinct comm IDs from a raw CM peer, no
 * other MAD) against the kernel's own listener, as the oracle of what a listener keeps and sends: the
 * kernel guest's {@code listen_backlog} (librdmacm, {@code rdma_listen} with a backlog of
 * {@value #BACKLOG}, taking no event while the flood comes) and, in the userspace guest, where no
 * ib_cm holds the CM class, {@link ReqFloodPeer} on the wire's rxe. Afterwards the listener takes what
 * its channel holds. Ours, for the same flood, kept {@value #BACKLOG} and sent nothing
 * (ListenBacklogInGuest); the kernel must do the same. The report line (REQs the kernel's rxe received,
 * by its counters, and the flood's time) goes to the build log.
 */
final class ListenBacklogAcrossTheWire
{
    private static final Duration JOB = Duration.ofSeconds(30);
    private static final Duration FLOOD = Duration.ofSeconds(240);
    private static final int PORT = 7192;
    private static final int BACKLOG = 8;
    private static final int REQUESTS = 10_000;
    private static final String NAME = "kernel-backlog";

    private ListenBacklogAcrossTheWire()
    {
    }

    static List<DynamicTest> checks(final GuestPair guests)
    {
        final KernelGuest ours = guests.userspace();
        final KernelGuest kernel = guests.kernel();
        final String kernelAddress = GuestWire.KERNEL_CM.address();
        final Path listener = CProgram.compile(ListenBacklogAcrossTheWire.class, "listen_backlog.c", kernel.sharedDirectory(),
            "listen_backlog", "-O0", "-Wall", "-lrdmacm");
        final String counters = "rdma statistic show link " + GuestWire.KERNEL_CM.rxe() + "/1";
        final GuestResult listening = kernel.run(JOB, RpingAcrossTheWire.background(kernel.guestPathOf(listener) + " " + kernelAddress
            + " " + PORT + " " + BACKLOG, NAME) + "\n" + RpingAcrossTheWire.untilListeningIn(NAME) + "\n" + counters);
        final GuestResult flood = listening.succeeded()
            ? ours.run(FLOOD, RpingAcrossTheWire.javaCommand(ours, "req-flood", ReqFloodPeer.class.getName(), GuestWire.USERSPACE_CM.rxe(),
                GuestWire.USERSPACE_CM.address(), kernelAddress, Integer.toString(PORT), Integer.toString(REQUESTS)))
            : listening;
        final GuestResult kept = kernel.run(JOB, counters + "\necho kernel cm_ids=$(rdma resource show cm_id | grep -c 'src-addr "
            + kernelAddress + ":" + PORT + "')\nkill -USR1 $(sed -n 's/^listening pid=//p' /run/" + NAME + ".err)\n"
            + RpingAcrossTheWire.collect(NAME));
        System.out.println("listen backlog " + BACKLOG + " of the kernel's listener, " + REQUESTS + " REQs:\n" + listening.stdout()
            + flood.stdout() + kept.stdout());
        final String all = listening.describe() + "\n" + flood.describe() + "\n" + kept.describe();
        return List.of(
            dynamicTest("shouldKeepTheBacklogOfTheKernelsListenerAsOursKeepsIt()", () ->
            {
                assertEquals(0, kept.exitStatus(), all);
                assertEquals(List.of("connect_requests=" + BACKLOG, "other_events=0"),
                    kept.stdout().lines().filter(line -> line.contains("_events=") || line.startsWith("connect_requests=")).toList(), all);
            }),
            dynamicTest("shouldSendNothingBackForTheFloodAsOursSendsNothing()", () ->
            {
                assertEquals(0, flood.exitStatus(), all);
                assertEquals(List.of("flood sent=" + REQUESTS, "flood received none=0"),
                    flood.stdout().lines().filter(line -> line.startsWith("flood sent=") || line.startsWith("flood received")).toList(),
                    all);
            }));
    }
}
