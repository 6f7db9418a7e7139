package dev.rdmacm.cm.kernel;

import dev.rdmacm.testing.guest.GuestJUnit;
import dev.rdmacm.testing.guest.GuestTestOutcome;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Our resolver against the real kernel RDMA CM: the {@link KernelCmGuest} booted once with the kernel's
 * own CM (rdma_ucm), the librdmacm oracle compiled here into its share, and the {@code *InGuest}
 * comparisons run in one JVM inside, each replayed here under its own name. The cmtime figures the
 * guest wrote are printed into the build log.
 */
class KernelCmOnSoftRoceTest
{
    private static final Duration IN_GUEST_LIMIT = Duration.ofMinutes(5);

    @TestFactory
    @Timeout(value = 9, unit = TimeUnit.MINUTES)
    Stream<DynamicTest> shouldResolveAsTheKernelCmDoes() throws IOException
    {
        try (KernelGuest guest = KernelGuest.boot(KernelCmGuest.spec()))
        {
            KernelCmOracle.compile(guest.sharedDirectory());
            final List<GuestTestOutcome> outcomes = GuestJUnit.run(guest, IN_GUEST_LIMIT,
                ResolutionAgainstKernelCmInGuest.class, CmTimeAgainstKernelCmInGuest.class);
            final Path report = guest.sharedDirectory().resolve(CmTimeAgainstKernelCmInGuest.REPORT);
            if (Files.exists(report))
            {
                System.out.print(Files.readString(report));
            }
            return outcomes.stream().map(GuestTestOutcome::dynamicTest).toList().stream();
        }
    }
}
