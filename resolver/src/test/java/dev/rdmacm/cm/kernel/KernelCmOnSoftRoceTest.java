package dev.rdmacm.cm.kernel;

import dev.rdmacm.testing.guest.GuestJUnit;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Our resolver against the real kernel RDMA CM: the {@link KernelCmGuest} booted once with the kernel's
 * own CM (rdma_ucm), the librdmacm oracle compiled here into its share, and the {@code *InGuest}
 * comparisons run in one JVM inside, each replayed here under its own name.
 */
class KernelCmOnSoftRoceTest
{
    private static final Duration IN_GUEST_LIMIT = Duration.ofMinutes(4);

    @TestFactory
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    Stream<DynamicTest> shouldResolveAsTheKernelCmDoes()
    {
        return GuestJUnit.inNewGuest(KernelCmGuest.spec(), IN_GUEST_LIMIT, guest -> KernelCmOracle.compile(guest.sharedDirectory()),
            ResolutionAgainstKernelCmInGuest.class);
    }
}
