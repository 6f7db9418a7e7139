package dev.rdmacm.conformance;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@code *InGuest} class runs only when a guest suite lists it, and an {@code *AcrossTheWire} class
 * only when {@link AcrossTheWire#CASES} does: nothing else finds them (Surefire runs {@code *Test}
 * classes). So this scans the checkout's source trees for every class of those names and fails for one
 * that no suite lists ({@link KernelGuestSuite#IN_GUEST}, {@link KernelGuestSuite#BESIDE}, {@link UserspaceGuestSuite#IN_GUEST},
 * {@link AcrossTheWire#CASES}) and that {@link #LEFT_OUT} does not name with its reason; or that the
 * conformance module cannot load, as its module's test jar is not one of conformance's dependencies.
 */
class GuestSuiteMembershipTest
{
    /** The classes of those names that no suite lists on purpose, with the reason. */
    static final Map<String, String> LEFT_OUT = Map.of(
        "dev.rdmacm.conformance.AcrossTheWire",
        "the suite of the cases across the wire itself: SoftRoceGuestsTest runs it once both guests are done",
        "dev.rdmacm.conformance.SilentPeerAcrossTheWire",
        "runs beside both guests' suites, not after them: SoftRoceGuestsTest starts it as each guest comes up "
            + "(about 100 s of REQs to nobody) and checks it once both are done");

    private static final List<String> SUFFIXES = List.of("InGuest", "AcrossTheWire");

    private static Set<String> found;

    @BeforeAll
    static void scanTheCheckout()
    {
        found = guestClassesUnder(checkout());
    }

    @Test
    void shouldFindTheGuestClassesOfEveryModule()
    {
        // a scan that found nothing would pass everything below: the tree has classes of both kinds in several modules
        assertTrue(found.contains("dev.rdmacm.verbs.UdTrafficInGuest"), found.toString());
        assertTrue(found.contains("dev.rdmacm.cm.kernel.ResolutionAgainstKernelCmInGuest"), found.toString());
        assertTrue(found.contains("dev.rdmacm.conformance.RpingAcrossTheWire"), found.toString());
    }

    @Test
    void shouldFindBothSuffixesInMainAndTestSourcesOfAnyModuleAndNothingElse(@TempDir final Path checkout) throws IOException
    {
        for (final String file : List.of("a/src/test/java/x/y/NewInGuest.java", "b/src/main/java/z/OtherAcrossTheWire.java",
            "b/src/test/java/z/NewInGuestTest.java", "b/src/test/resources/z/ResourceInGuest.java", "c/NoModuleInGuest.java"))
        {
            Files.createDirectories(checkout.resolve(file).getParent());
            Files.writeString(checkout.resolve(file), "");
        }
        assertEquals(Set.of("x.y.NewInGuest", "z.OtherAcrossTheWire"), guestClassesUnder(checkout));
    }

    @Test
    void shouldListEveryGuestClassInASuiteOrSayWhyNot()
    {
        final Set<String> listed = listed();
        final List<String> orphans = found.stream().filter(name -> !listed.contains(name) && !LEFT_OUT.containsKey(name)).toList();
        assertEquals(List.of(), orphans, "classes that no suite runs: add each *InGuest class to KernelGuestSuite.IN_GUEST "
            + "or UserspaceGuestSuite.IN_GUEST, each *AcrossTheWire class to AcrossTheWire.CASES, or name it in "
            + "GuestSuiteMembershipTest.LEFT_OUT with the reason (docs/testing.md)");
    }

    @Test
    void shouldNameOnlyExistingClassesAsLeftOutAndNoneThatASuiteLists()
    {
        final Set<String> listed = listed();
        for (final String name : LEFT_OUT.keySet())
        {
            assertTrue(found.contains(name), name + " is named as left out but there is no such class in the checkout");
            assertFalse(listed.contains(name), name + " is named as left out but a suite lists it");
        }
    }

    @Test
    void shouldLoadEveryGuestClassFromTheConformanceClassPath()
    {
        final List<String> missing = new ArrayList<>();
        for (final String name : found)
        {
            try
            {
                Class.forName(name, false, GuestSuiteMembershipTest.class.getClassLoader());
            }
            catch (final ClassNotFoundException ex)
            {
                missing.add(name);
            }
        }
        assertEquals(List.of(), missing, "guest classes whose module's test jar is not a test dependency of conformance");
    }

    @Test
    void shouldListNoClassTwice()
    {
        final List<String> all = Stream.of(KernelGuestSuite.IN_GUEST, UserspaceGuestSuite.IN_GUEST,
            AcrossTheWire.CASES.stream().<Class<?>>map(AcrossTheWire.Case::type).toList()).flatMap(List::stream).map(Class::getName).toList();
        assertEquals(all.size(), Set.copyOf(all).size(), all.toString());
    }

    private static Set<String> listed()
    {
        return Stream.of(KernelGuestSuite.IN_GUEST.stream(), KernelGuestSuite.BESIDE.stream(), UserspaceGuestSuite.IN_GUEST.stream(),
            AcrossTheWire.CASES.stream().map(AcrossTheWire.Case::type)).flatMap(s -> s).map(Class::getName).collect(Collectors.toSet());
    }

    /** Every {@code *InGuest} and {@code *AcrossTheWire} class of every module's main and test sources, by name. */
    static Set<String> guestClassesUnder(final Path checkout)
    {
        final Set<String> names = new TreeSet<>();
        try (Stream<Path> modules = Files.list(checkout))
        {
            for (final Path module : modules.filter(Files::isDirectory).toList())
            {
                for (final String tree : List.of("src/main/java", "src/test/java"))
                {
                    final Path root = module.resolve(tree);
                    if (!Files.isDirectory(root))
                    {
                        continue;
                    }
                    try (Stream<Path> files = Files.walk(root))
                    {
                        files.map(root::relativize).map(Path::toString).filter(file -> file.endsWith(".java"))
                            .map(file -> file.substring(0, file.length() - ".java".length()).replace('/', '.'))
                            .filter(name -> SUFFIXES.stream().anyMatch(name::endsWith))
                            .forEach(names::add);
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot scan the checkout " + checkout, ex);
        }
        return names;
    }

    /** The checkout's root: Surefire's {@code RDMACM_TEST_ROOT}, else the parent of the module directory. */
    private static Path checkout()
    {
        final String root = System.getenv("RDMACM_TEST_ROOT");
        return root != null && !root.isBlank() ? Path.of(root) : Path.of("").toAbsolutePath().getParent();
    }
}
