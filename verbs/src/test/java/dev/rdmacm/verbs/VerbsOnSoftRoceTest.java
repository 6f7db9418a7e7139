package dev.rdmacm.verbs;

import dev.rdmacm.testing.guest.GuestJUnit;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
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
        return GuestJUnit.inNewGuest(SoftRoceGuest.spec(), IN_GUEST_LIMIT,
            DeviceQueriesInGuest.class,
            PortQueriesInGuest.class,
            ResourceCreationInGuest.class,
            QueuePairStatesInGuest.class,
            UdTrafficInGuest.class,
            PrivilegedQkeyInGuest.class,
            ResourceCleanupInGuest.class);
    }
}
