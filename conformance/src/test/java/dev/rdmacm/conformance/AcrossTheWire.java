package dev.rdmacm.conformance;

import dev.rdmacm.testing.CProgram;
import dev.rdmacm.testing.guest.GuestResult;
import org.junit.jupiter.api.DynamicTest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * What needs both guests: first that the wire carries IP and RoCE between them, with rdma-core's own
 * {@code ibv_rc_pingpong} on both ends (an RC QP per guest set up over a TCP exchange, so a failure
 * there is the fixture's and not the code under test's); then this project's CM against the kernel's
 * ({@link #CASES}).
 */
final class AcrossTheWire
{
    private static final Duration JOB = Duration.ofSeconds(30);
    private static final Duration PINGPONG = Duration.ofSeconds(90);
    private static final int ITERATIONS = 10;
    /** {@code ibv_rc_pingpong}'s default TCP port. */
    private static final int PINGPONG_PORT = 18515;

    /**
     * The CM cases that need both guests, run in this order after the wire's own checks (a new
     * {@code *AcrossTheWire} class goes here; GuestSuiteMembershipTest checks that none is left out), each
     * {@link When when} it may. CmtimeAcrossTheWire loads the kernel's CM in the userspace guest for a while;
     * KernelCmRpingAcrossTheWire then loads it again for our rping through it, and BesideKernelCmAcrossTheWire
     * last, for what ours can do as the active side beside it.
     */
    static final List<Case> CASES = List.of(
        new Case(RpingAcrossTheWire.class, RpingAcrossTheWire::checks, When.BESIDE_KERNEL_SUITE),
        new Case(CmFaultsAcrossTheWire.class, CmFaultsAcrossTheWire::checks, When.BESIDE_KERNEL_SUITE),
        new Case(ClientsAcrossTheWire.class, ClientsAcrossTheWire::checks, When.BESIDE_KERNEL_SUITE),
        new Case(McKeyAcrossTheWire.class, McKeyAcrossTheWire::checks, When.BESIDE_KERNEL_SUITE),
        new Case(ListenBacklogAcrossTheWire.class, ListenBacklogAcrossTheWire::checks, When.BESIDE_KERNEL_SUITE),
        new Case(CmtimeAcrossTheWire.class, CmtimeAcrossTheWire::checks, When.BESIDE_KERNEL_SUITE),
        new Case(KernelCmRpingAcrossTheWire.class, KernelCmRpingAcrossTheWire::checks, When.BESIDE_KERNEL_SUITE),
        new Case(BesideKernelCmAcrossTheWire.class, BesideKernelCmAcrossTheWire::checks, When.BESIDE_KERNEL_SUITE),
        new Case(UdaddyAcrossTheWire.class, UdaddyAcrossTheWire::checks, When.AFTER_KERNEL_SUITE));

    /**
     * When a case may run. The cases start once the userspace guest's own suite is done, while the kernel guest's
     * ({@link KernelGuestSuite}) may still run in that guest's background: a case's kernel-side peers then use only
     * the wire's device and address, and ports of their own, which the suite's classes leave alone (their
     * {@code rdma resource} counts leave the wire's devices out).
     */
    enum When
    {
        /** Beside the kernel guest's suite: its peers in the kernel guest bind the wire's address. */
        BESIDE_KERNEL_SUITE,
        /**
         * Once the kernel guest's suite has ended: the kernel's {@code udaddy} server listens on the wildcard, which puts
         * a listening id on every device of the guest, in RDMA_PS_UDP at udaddy's fixed port 7174, the port the suite's
         * own udaddy cases listen on (UdaddyThroughKernelCmInGuest, KernelConnectionManagerInGuest).
         */
        AFTER_KERNEL_SUITE
    }

    /** One case across the wire: its class, the checks it runs on the two guests, and when they may run. */
    record Case(Class<?> type, Function<GuestPair, List<DynamicTest>> checks, When when)
    {
    }

    private AcrossTheWire()
    {
    }

    /**
     * The kernel guest's C peers of the connection cases, compiled into its share while it boots: the
     * cases compile them again with the same command, and {@link CProgram#compile} then finds them built.
     */
    static void compileKernelPeers(final Path share)
    {
        for (final String program : List.of("connect_with_private_data", "accept_after_delay"))
        {
            CProgram.compile(AcrossTheWire.class, program + ".c", share, program, "-O0", "-Wall", "-lrdmacm", "-libverbs");
        }
    }

    /**
     * The wire's own checks, then the {@link When#BESIDE_KERNEL_SUITE} cases: from the end of the userspace guest's own
     * part, while the kernel guest's suite may still run.
     */
    static List<DynamicTest> besideKernelSuite(final GuestPair guests)
    {
        final GuestResult ping = guests.userspace().run(JOB, "busybox ping -c 1 -W 10 " + GuestWire.KERNEL_CM.address());
        final GuestResult server = guests.kernel().run(JOB, startServer(GuestWire.KERNEL_CM));
        final GuestResult client = server.succeeded()
            ? guests.userspace().run(PINGPONG, gidIndex(GuestWire.USERSPACE_CM) + "\n" + pingpong(GuestWire.USERSPACE_CM) + " "
                + GuestWire.KERNEL_CM.address())
            : server;
        final GuestResult served = guests.kernel().run(JOB, "i=0; while [ ! -s /run/rc-pingpong.status ] && [ $i -lt 40 ]; do "
            + "sleep 0.5; i=$((i+1)); done; cat /run/rc-pingpong.out; exit $(cat /run/rc-pingpong.status 2>/dev/null || echo 99)");
        final List<DynamicTest> tests = new ArrayList<>(List.of(
            dynamicTest("shouldPingTheKernelGuestOverTheWire()", () -> assertEquals(0, ping.exitStatus(), ping.toString())),
            dynamicTest("shouldCarryRcTrafficBetweenTheGuestsWithIbvRcPingpong()", () ->
            {
                assertEquals(0, client.exitStatus(), client.toString());
                assertTrue(client.stdout().contains(ITERATIONS + " iters in"), client.stdout());
                assertEquals(0, served.exitStatus(), served.toString());
            })));
        tests.addAll(cases(guests, When.BESIDE_KERNEL_SUITE));
        return tests;
    }

    /** The {@link When#AFTER_KERNEL_SUITE} cases, then that no QP or MR of any case is left in the userspace guest. */
    static List<DynamicTest> afterKernelSuite(final GuestPair guests)
    {
        final List<DynamicTest> tests = new ArrayList<>(cases(guests, When.AFTER_KERNEL_SUITE));
        // the JVM that ran the cases' mains ends first: what they left behind would otherwise still be its
        final GuestResult driver = GuestJavaMain.stopDrivers(guests.userspace());
        final GuestResult leftOver = guests.userspace().run(JOB,
            "rdma resource show qp | grep -c ' type RC ' ; rdma resource show mr | grep -c . ; true");
        tests.add(dynamicTest("shouldLeaveNoQpOrMrBehindInTheUserspaceGuest()", () ->
        {
            assertEquals(0, driver.exitStatus(), driver.describe());
            assertEquals("0\n0\n", leftOver.stdout(), leftOver.describe());
        }));
        return tests;
    }

    private static List<DynamicTest> cases(final GuestPair guests, final When when)
    {
        final List<DynamicTest> tests = new ArrayList<>();
        for (final Case next : CASES)
        {
            if (next.when() == when)
            {
                tests.addAll(next.checks().apply(guests));
            }
        }
        return tests;
    }

    /** The server in the background, once it listens. */
    private static String startServer(final GuestWire.End end)
    {
        return gidIndex(end) + "\nrm -f /run/rc-pingpong.status\nsetsid sh -c \"" + pingpong(end) + " > /run/rc-pingpong.out 2>&1; "
            + "echo \\$? > /run/rc-pingpong.status\" < /dev/null > /dev/null 2>&1 &\n"
            + "i=0; until ss -ltn | grep -q ':" + PINGPONG_PORT + " '; do i=$((i+1)); [ $i -gt 60 ] && exit 1; sleep 0.5; done";
    }

    /** {@code ibv_rc_pingpong} on the end's rxe device, with the GID index {@link #gidIndex} found. */
    private static String pingpong(final GuestWire.End end)
    {
        return "ibv_rc_pingpong -d " + end.rxe() + " -g $gid -n " + ITERATIONS;
    }

    /** A shell line that sets {@code gid} to the index of the end's IPv4 address as a RoCE v2 GID, or fails. */
    private static String gidIndex(final GuestWire.End end)
    {
        final String[] octets = end.address().split("\\.");
        final String mapped = String.format("0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", Integer.parseInt(octets[0]),
            Integer.parseInt(octets[1]), Integer.parseInt(octets[2]), Integer.parseInt(octets[3]));
        final String port = "/sys/class/infiniband/" + end.rxe() + "/ports/1";
        return "gid=$(for g in " + port + "/gids/*; do i=${g##*/}; [ \"$(cat $g)\" = " + mapped + " ] && "
            + "[ \"$(cat " + port + "/gid_attrs/types/$i 2>/dev/null)\" = 'RoCE v2' ] && echo $i && break; done)\n"
            + "[ -n \"$gid\" ] || { echo 'no RoCE v2 GID for " + end.address() + " on " + end.rxe() + "' >&2; exit 1; }";
    }
}
