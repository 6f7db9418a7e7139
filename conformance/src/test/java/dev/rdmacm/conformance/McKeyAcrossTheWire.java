package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.time.Duration;
import java.util.List;

import static dev.rdmacm.conformance.RpingAcrossTheWire.background;
import static dev.rdmacm.conformance.RpingAcrossTheWire.collect;
import static dev.rdmacm.conformance.RpingAcrossTheWire.java;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * {@code rdmacm mckey} in the userspace-CM guest against librdmacm 44's {@code mckey} over the kernel CM
 * in the other, on RoCE, both ways at once on two groups: the kernel guest's mckey sends to
 * {@link #TO_OURS} while two of ours receive, in two processes on one host (the guest's two GuestMainDrivers; two memberships of one
 * group on one port, each QP attached), ours sends to {@link #TO_KERNEL} while the kernel's receives.
 * A receiver ends only when every datagram came ({@code poll_cqs} counts them), so its exit status and
 * lines are the verdict; each side's {@code joined} line for a group is compared with the other side's.
 */
final class McKeyAcrossTheWire
{
    private static final Duration JOB = Duration.ofSeconds(30);
    /** A guest JVM starts in 10-15 s under TCG, more on a busy host. */
    private static final Duration JVM_START = Duration.ofSeconds(90);
    private static final Duration EXCHANGE = Duration.ofSeconds(75);
    private static final int MESSAGES = 4;
    /**
     * A receiver waits for every datagram as long as it takes, as mckey does: {@code timeout} ends one whose
     * datagrams never come (status 124), so that nothing of this case runs on in the guests.
     */
    private static final String RECEIVER_LIMIT = "timeout 150 ";
    private static final String TO_OURS = "239.255.33.1";
    private static final String TO_KERNEL = "239.255.33.2";
    /** The Ethernet multicast addresses of the two groups (01:00:5e and the low 23 bits), as {@code ip maddr} lists them. */
    private static final String TO_KERNEL_MAC = "01:00:5e:7f:21:02";

    private McKeyAcrossTheWire()
    {
    }

    static List<DynamicTest> checks(final GuestPair guests)
    {
        final KernelGuest ours = guests.userspace();
        final String ourAddress = GuestWire.USERSPACE_CM.address();
        final String kernelAddress = GuestWire.KERNEL_CM.address();
        final String count = Integer.toString(MESSAGES);
        final long start = System.nanoTime();

        // the receivers first, until joined: ours say so on stdout, the kernel's mckey (stdout to a file, buffered) by
        // the group's Ethernet address on the netdev, which the kernel's join adds
        final GuestPair.Both<GuestResult> joined = guests.inBoth(
            guest -> guest.run(JVM_START, ourReceiver(ours, "our-mckey-r", ourAddress, count) + "\n" +
                ourReceiver(ours, "our-mckey-r2", ourAddress, count) + "\n" +
                until("grep -q 'mckey: joined' /run/our-mckey-r.out", "our-mckey-r") + "\n" +
                until("grep -q 'mckey: joined' /run/our-mckey-r2.out", "our-mckey-r2")),
            guest -> guest.run(JOB, background(RECEIVER_LIMIT + "mckey -m " + TO_KERNEL + " -b " + kernelAddress + " -C " + count,
                "kernel-mckey-r")
                + "\n" + until("ip maddr show dev " + GuestWire.NETDEV + " | grep -q " + TO_KERNEL_MAC, "kernel-mckey-r")));
        final boolean ready = joined.userspace().succeeded() && joined.kernel().succeeded();
        // then each sender, and each receiver's end
        final GuestPair.Both<GuestResult> sent = guests.inBoth(
            guest -> ready ? guest.run(JVM_START, java(ours, "mckey-s", "mckey", "-m", TO_KERNEL, "-b", ourAddress, "-s", "-C", count))
                : joined.userspace(),
            guest -> ready ? guest.run(JOB, "mckey -m " + TO_OURS + " -b " + kernelAddress + " -s -C " + count) : joined.kernel());
        final GuestPair.Both<GuestResult> received = guests.inBoth(
            guest -> guest.run(EXCHANGE, collect("our-mckey-r", EXCHANGE.minusSeconds(10))),
            guest -> guest.run(EXCHANGE, collect("kernel-mckey-r", EXCHANGE.minusSeconds(10))));
        final GuestResult ourSecondReceiver = ours.run(EXCHANGE, collect("our-mckey-r2", EXCHANGE.minusSeconds(10)));
        final long seconds = Duration.ofNanos(System.nanoTime() - start).toSeconds();
        System.out.println("McKeyAcrossTheWire: " + seconds + " s in the guests");

        final GuestResult ourReceiver = received.userspace();
        final GuestResult kernelReceiver = received.kernel();
        final GuestResult ourSender = sent.userspace();
        final GuestResult kernelSender = sent.kernel();
        return List.of(
            dynamicTest("shouldReceiveEveryDatagramTheKernelsMckeySendsWithRdmacmMckey()", () ->
            {
                assertEquals(0, kernelSender.exitStatus(), kernelSender.describe());
                assertEquals(0, ourReceiver.exitStatus(), ourReceiver.describe());
                assertMckeyLines("server", "receiving data transfers", ourReceiver);
                assertMckeyLines("client", "initiating data transfers", kernelSender);
                assertEquals(joinedLine(kernelSender), joinedLine(ourReceiver), "the group's dgid, mlid and sl");
            }),
            dynamicTest("shouldReceiveEveryDatagramTheKernelsMckeySendsWithASecondRdmacmMckeyOnTheSameHost()", () ->
            {
                assertEquals(0, kernelSender.exitStatus(), kernelSender.describe());
                assertEquals(0, ourSecondReceiver.exitStatus(), ourSecondReceiver.describe());
                assertMckeyLines("server", "receiving data transfers", ourSecondReceiver);
                assertEquals(joinedLine(kernelSender), joinedLine(ourSecondReceiver), "the group's dgid, mlid and sl");
            }),
            dynamicTest("shouldSendEveryDatagramTheKernelsMckeyReceivesWithRdmacmMckey()", () ->
            {
                assertEquals(0, ourSender.exitStatus(), ourSender.describe());
                assertEquals(0, kernelReceiver.exitStatus(), kernelReceiver.describe());
                assertMckeyLines("client", "initiating data transfers", ourSender);
                assertMckeyLines("server", "receiving data transfers", kernelReceiver);
                assertEquals(joinedLine(kernelReceiver), joinedLine(ourSender), "the group's dgid, mlid and sl");
            }));
    }

    /**
     * One of our receivers of {@link #TO_OURS}, in the background as {@code name}: the first in the guest's driver JVM
     * ({@link GuestMainDriver}), the second in its second, so that they are two processes.
     */
    private static String ourReceiver(final KernelGuest ours, final String name, final String ourAddress, final String count)
    {
        final String[] arguments = {"mckey", "-m", TO_OURS, "-b", ourAddress, "-C", count};
        final String main = name.replace("our-", "");
        return background(RECEIVER_LIMIT + (name.endsWith("2") ? RpingAcrossTheWire.javaSecondProcess(ours, main, arguments)
            : java(ours, main, arguments)), name);
    }

    /** mckey's lines from start to end: each one once, in mckey's order, the transfer's as its role prints it. */
    private static void assertMckeyLines(final String role, final String transfer, final GuestResult run)
    {
        final List<String> lines = run.stdout().lines().toList();
        assertEquals(7, lines.size(), run.describe());
        assertEquals(List.of("mckey: starting " + role, "mckey: joining"), lines.subList(0, 2), run.describe());
        assertTrue(lines.get(2).startsWith("mckey: joined dgid: "), run.describe());
        assertEquals(List.of(transfer, "data transfers complete", "test complete", "return status 0"), lines.subList(3, 7),
            run.describe());
    }

    private static String joinedLine(final GuestResult run)
    {
        return run.stdout().lines().filter(line -> line.startsWith("mckey: joined")).findFirst().orElse("no joined line");
    }

    /** Until {@code condition} holds, or the background job {@code name} has ended (its output then). */
    private static String until(final String condition, final String name)
    {
        return "i=0; until " + condition + "; do i=$((i+1)); if [ -s /run/" + name + ".status ] || [ $i -gt 250 ]; then "
            + "cat /run/" + name + ".out /run/" + name + ".err >&2; exit 1; fi; sleep 0.3; done";
    }
}
