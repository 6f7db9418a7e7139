package dev.rdmacm.cli;

import dev.rdmacm.testing.guest.GuestJUnit;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code rdmacm devices} on real devices: the {@link DevicesGuest} booted once, {@link DevicesCommandInGuest}
 * run in one JVM inside, each outcome replayed here under its own name.
 */
class DevicesOnSoftRoceTest
{
    private static final Duration IN_GUEST_LIMIT = Duration.ofMinutes(4);

    @TestFactory
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    Stream<DynamicTest> shouldShowWhatIbvDevinfoAndSysfsShow()
    {
        return GuestJUnit.inNewGuest(DevicesGuest.spec(), IN_GUEST_LIMIT, DevicesCommandInGuest.class);
    }
}
