package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestJUnit;
import dev.rdmacm.testing.guest.GuestTestOutcome;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A developer's run of some of {@link KernelGuestSuite}'s classes, not part of the test suite (its name
 * is not one surefire picks up; name it with {@code -Dtest}): the kernel guest booted alone, its oracles
 * compiled, and only the classes {@code -Drdmacm.kernel-guest.classes=SimpleName,...} names, in the
 * suite's order, so that working on one class does not cost the whole pair's run.
 */
class KernelGuestAlone
{
    private static final Duration LIMIT = Duration.ofMinutes(20);

    @TestFactory
    @Timeout(value = GuestPair.LIMIT_MINUTES, unit = TimeUnit.MINUTES)
    Stream<DynamicTest> shouldRunTheNamedClassesOfTheKernelGuestSuite()
    {
        final Set<String> names = Stream.of(System.getProperty("rdmacm.kernel-guest.classes", "").split(",")).map(String::strip)
            .filter(name -> !name.isEmpty()).collect(Collectors.toSet());
        final Class<?>[] classes = KernelGuestSuite.IN_GUEST.stream().filter(type -> names.contains(type.getSimpleName()))
            .toArray(Class<?>[]::new);
        if (classes.length != names.size())
        {
            throw new IllegalArgumentException("-Drdmacm.kernel-guest.classes=" + names + ": each must be the simple name of a class in "
                + "KernelGuestSuite.IN_GUEST " + KernelGuestSuite.IN_GUEST.stream().map(Class::getSimpleName).toList());
        }
        try (KernelGuest guest = KernelGuest.boot(KernelGuestSuite.spec(GuestWire.onFreePorts()), KernelGuestSuite::prepare))
        {
            final List<GuestTestOutcome> outcomes = GuestJUnit.run(guest, LIMIT, classes);
            return outcomes.stream().map(GuestTestOutcome::dynamicTest).toList().stream();
        }
    }
}
