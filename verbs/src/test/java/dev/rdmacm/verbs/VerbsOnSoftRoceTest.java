package dev.rdmacm.verbs;

import dev.rdmacm.testing.guest.GuestJUnit;
import dev.rdmacm.testing.guest.GuestTestOutcome;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The binding against real devices: Debian's kernel with two Soft-RoCE devices ({@link SoftRoceGuest})
 * booted once under QEMU, every {@code *InGuest} class of this module run in one JVM inside it, and
 * each of their outcomes replayed here under its own name.
 */
class VerbsOnSoftRoceTest
{
    /** The guest's JVM start alone takes seconds under TCG; the tests themselves well under a minute. */
    private static final Duration IN_GUEST_LIMIT = Duration.ofMinutes(4);

    @TestFactory
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    Stream<DynamicTest> shouldPassEveryVerbsTestOnSoftRoce()
    {
        final List<GuestTestOutcome> outcomes;
        try (KernelGuest guest = KernelGuest.boot(SoftRoceGuest.spec()))
        {
            final long started = System.nanoTime();
            outcomes = GuestJUnit.run(guest, IN_GUEST_LIMIT,
                DeviceQueriesInGuest.class,
                PortQueriesInGuest.class,
                ResourceCreationInGuest.class,
                QueuePairStatesInGuest.class,
                UdTrafficInGuest.class,
                PrivilegedQkeyInGuest.class,
                ResourceCleanupInGuest.class);
            // the time budget of this module's guest is watched from here
            System.out.printf("soft-RoCE guest (%s): booted in %.1f s, its JUnit JVM ran %d tests in %.1f s%n", guest.accelerator(),
                guest.bootTime().toMillis() / 1000.0, outcomes.size(), (System.nanoTime() - started) / 1e9);
        }
        return outcomes.stream().map(GuestTestOutcome::dynamicTest);
    }
}
