package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestJUnit;
import dev.rdmacm.testing.guest.GuestTestOutcome;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A developer's run of some of {@link KernelGuestSuite}'s classes, not part of the test suite (its name
 * is not one surefire picks up; name it with {@code -Dtest}): the kernel guest booted alone, its oracles
 * compiled, and only the classes {@code -Drdmacm.kernel-guest.classes=SimpleName,...} names, in the
 * suite's order ({@code BESIDE}'s in the background, as the suite runs them), so that working on one class
 * does not cost the whole pair's run.
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
        final List<Class<?>> known = Stream.concat(KernelGuestSuite.IN_GUEST.stream(), KernelGuestSuite.BESIDE.stream()).toList();
        final Class<?>[] classes = KernelGuestSuite.IN_GUEST.stream().filter(type -> names.contains(type.getSimpleName()))
            .toArray(Class<?>[]::new);
        final List<Class<?>> beside = KernelGuestSuite.BESIDE.stream().filter(type -> names.contains(type.getSimpleName())).toList();
        if (classes.length + beside.size() != names.size())
        {
            throw new IllegalArgumentException("-Drdmacm.kernel-guest.classes=" + names + ": each must be the simple name of a class in "
                + "KernelGuestSuite.IN_GUEST or BESIDE " + known.stream().map(Class::getSimpleName).toList());
        }
        try (KernelGuest guest = KernelGuest.boot(GuestPair.forSuites(KernelGuestSuite.spec(GuestWire.onFreePorts())), KernelGuestSuite::prepare))
        {
            final GuestJUnit.Background besides = beside.isEmpty() ? null : GuestJUnit.start(guest, LIMIT, beside.toArray(Class<?>[]::new));
            final List<DynamicTest> tests = new ArrayList<>();
            if (classes.length > 0)
            {
                GuestJUnit.run(guest, LIMIT, classes).stream().map(GuestTestOutcome::dynamicTest).forEach(tests::add);
            }
            if (besides != null)
            {
                tests.addAll(KernelGuestSuite.finishBeside(besides));
            }
            return tests.stream();
        }
    }
}
