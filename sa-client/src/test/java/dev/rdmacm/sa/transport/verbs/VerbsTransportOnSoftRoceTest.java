package dev.rdmacm.sa.transport.verbs;

import dev.rdmacm.sa.testing.TestSaOverUmad;
import dev.rdmacm.testing.guest.GuestJUnit;
import dev.rdmacm.testing.guest.GuestSpec;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The verbs MAD transport on Debian's own kernel with Soft-RoCE: one guest with {@link SoftRoceLan},
 * the umad SA test double compiled here into the guest's share, and {@link VerbsTransportInGuest} run
 * in one JVM inside it, each of its tests replayed here under its own name.
 * <p>
 * About 90 s on an idle machine: boot 20-30 s, the guest JVM's start 15 s, the tests themselves about
 * 20 s (three of them wait out one-second retry intervals).
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class VerbsTransportOnSoftRoceTest
{
    private static final Duration GUEST_JUNIT_LIMIT = Duration.ofMinutes(5);

    @TestFactory
    Stream<DynamicTest> shouldPassTheVerbsTransportTestsOnSoftRoce()
    {
        final GuestSpec spec = GuestSpec.named("sa-verbs").modules(SoftRoceLan.MODULES).topology(SoftRoceLan.topology());
        return GuestJUnit.inNewGuest(spec, GUEST_JUNIT_LIMIT, guest -> TestSaOverUmad.compile(guest.sharedDirectory()),
            VerbsTransportInGuest.class);
    }
}
