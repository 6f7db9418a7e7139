package dev.rdmacm.testing.guest;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fixture itself, on one guest: Debian's kernel boots with the topology asked for, a job's exit
 * status and outputs come back, a job that outlives its limit is killed in the guest, a JUnit
 * selection runs inside, and closing the guest (the last test) stops QEMU.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KernelGuestTest
{
    private static KernelGuest guest;
    private static KernelPackage kernel;

    @BeforeAll
    static void boot()
    {
        kernel = KernelPackage.ofTheDay();
        guest = KernelGuest.boot(GuestSpec.named("fixture").topology(GuestTopology.create()
            .veth("e0", "e1", "peer").address("e0", "10.77.0.1/24").address("peer", "e1", "10.77.0.2/24")
            .rxe("rxe0", "e0")));
    }

    @AfterAll
    static void powerOff()
    {
        if (guest != null)
        {
            guest.close();
        }
    }

    @Test
    void shouldBootDebiansKernelPackage()
    {
        final GuestResult uname = guest.run(Duration.ofSeconds(20), "uname -r").orFail();

        assertEquals(kernel.release() + "\n", uname.stdout());
    }

    @Test
    void shouldBuildTheRequestedTopology()
    {
        final GuestResult link = guest.run(Duration.ofSeconds(20), "rdma link show rxe0/1; ip -n peer -br address show e1").orFail();

        assertTrue(link.stdout().startsWith("link rxe0/1 state ACTIVE physical_state LINK_UP netdev e0"), link.stdout());
        assertTrue(link.stdout().contains("10.77.0.2/24"), link.stdout());
    }

    @Test
    void shouldReturnTheExitStatusAndBothOutputs()
    {
        final GuestResult result = guest.run(Duration.ofSeconds(20), "echo to-stdout; echo to-stderr >&2; exit 3");

        assertEquals(3, result.exitStatus());
        assertEquals("to-stdout\n", result.stdout());
        assertEquals("to-stderr\n", result.stderr());
    }

    @Test
    void shouldKillAJobThatOutlivesItsLimit()
    {
        final GuestResult result = guest.run(Duration.ofSeconds(1), "sleep 60");

        assertEquals(GuestResult.TIMED_OUT, result.exitStatus());
        assertEquals(0, guest.run(Duration.ofSeconds(20), "true").exitStatus());
    }

    @Test
    void shouldRunAJUnitSelectionInsideTheGuest()
    {
        final List<GuestTestOutcome> outcomes = GuestJUnit.run(guest, Duration.ofMinutes(2), FixtureInGuest.class);

        assertEquals(List.of("shouldRunInTheGuestKernel()"), outcomes.stream().map(GuestTestOutcome::displayName).toList());
        assertEquals(GuestTestOutcome.Status.SUCCESSFUL, outcomes.get(0).status(), outcomes.get(0).detail());
    }

    @Test
    @Order(Integer.MAX_VALUE)
    void shouldStopQemuWhenClosed()
    {
        final long pid = guest.qemuPid();

        guest.close();

        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "QEMU pid " + pid + " still runs");
    }
}
