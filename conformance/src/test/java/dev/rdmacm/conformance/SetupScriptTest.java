package dev.rdmacm.conformance;

import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code scripts/setup}'s two sets (issue 30): {@code ./rdmacm} installs only what the CLI and its demo
 * need at run time, and the tests' peers come with {@code scripts/test}. Which package holds a file is
 * asked of dpkg's own database, for the files the CLI opens or starts and for the peers' commands.
 */
@Timeout(60)
class SetupScriptTest
{
    private static final Duration LIMIT = Duration.ofSeconds(30);
    /** The uid and gid of {@code nobody}: a user with no privilege and no group. */
    private static final String NOBODY = "65534";

    private final Path setup = ProjectLayoutTest.root().resolve("scripts/setup");

    @Test
    void shouldHoldEveryFileTheCliOpensOrStartsInTheRuntimeSet()
    {
        final List<String> runtime = list("runtime");
        // what the verbs binding dlopens (LibIbverbs.LIBRARY), the SA client's ibsim shim, the demo's two
        // daemons and the build of the CLI
        final List<String> files = List.of(library("libibverbs.so.1"), library("libumad2sim.so"),
            command("ibsim"), command("opensm"), command("mvn"));

        for (final String file : files)
        {
            final String owner = owner(file);
            assertTrue(runtime.contains(owner), file + " comes with " + owner + ", which the runtime set " + runtime + " lacks");
        }
    }

    @Test
    void shouldLeaveTheTestsPeersOutOfTheRuntimeSet()
    {
        final List<String> runtime = list("runtime");
        final List<String> tests = list("tests");

        for (final String peer : List.of("qemu-system-x86_64", "tshark", "gcc", "rping", "saquery", "busybox"))
        {
            final String owner = owner(command(peer));
            assertFalse(runtime.contains(owner), peer + " (" + owner + ") is a test peer, not a runtime package");
            assertTrue(tests.contains(owner), peer + " (" + owner + ") is missing from the tests set " + tests);
        }
    }

    @Test
    void shouldIncludeTheRuntimeSetInTheTestsSet()
    {
        assertTrue(list("tests").containsAll(list("runtime")));
    }

    @Test
    void shouldListInTheReadmeThePackagesOfEachSet() throws IOException
    {
        final String readme = Files.readString(ProjectLayoutTest.root().resolve("README.md"), StandardCharsets.UTF_8)
            .replaceAll("\\s+", " ");
        final List<String> runtime = list("runtime");
        final List<String> tests = list("tests");

        assertTrue(readme.contains("`" + String.join(" ", runtime) + "`"), "the README lists the runtime set " + runtime);
        assertTrue(readme.contains("`" + String.join(" ", tests.subList(runtime.size(), tests.size())) + "`"),
            "the README lists what the tests set adds to runtime " + tests.subList(runtime.size(), tests.size()));
    }

    @Test
    void shouldLetAUserWithoutPrivilegeCheckTheRuntimeSet()
    {
        Peers.requireRoot("switching to the user nobody with setpriv");
        final List<String> runtime = list("runtime");
        final List<String> missing = runtime.stream().filter(p -> !installed(p)).toList();
        Peers.require(missing.isEmpty(), "runtime packages not installed here: " + missing + " (scripts/setup installs them)");

        final HostCommand.Outcome outcome = HostCommand.run(LIMIT, null, List.of(Peers.findCommand("setpriv").toString(),
            "--reuid", NOBODY, "--regid", NOBODY, "--clear-groups", setup.toString(), "runtime"));

        assertEquals(0, outcome.exitStatus(), "as nobody, with every runtime package installed: " + outcome.output());
    }

    @Test
    void shouldRefuseAnUnknownSetAndNameTheSets()
    {
        final HostCommand.Outcome outcome = HostCommand.run(LIMIT, null, List.of(setup.toString(), "everything"));

        assertEquals(2, outcome.exitStatus());
        assertTrue(outcome.output().contains("unknown set 'everything': the sets are runtime and tests"), outcome.output());
    }

    private List<String> list(final String set)
    {
        return HostCommand.run(LIMIT, null, List.of(setup.toString(), "--list", set)).orFail("setup --list " + set)
            .output().lines().toList();
    }

    /**
     * The Debian package that installed {@code file}, from {@code dpkg -S} (without an architecture
     * suffix). dpkg may know the file by another name: Debian 12 merges /usr (/bin/busybox for
     * /usr/bin/busybox, /usr/lib/... for /lib/...), and /usr/bin/mvn is an alternatives link to maven's
     * script; the names are asked in that order.
     */
    private static String owner(final String file)
    {
        final List<String> names = List.of(file, file.startsWith("/usr/") ? file.substring(4) : "/usr" + file, realPath(file));
        for (final String name : names)
        {
            final HostCommand.Outcome outcome = HostCommand.run(LIMIT, null, List.of("dpkg", "-S", name));
            if (outcome.succeeded())
            {
                final String line = outcome.output().lines().findFirst().orElseThrow();
                final String first = line.substring(0, line.indexOf(": ")).split(", ")[0];
                final int colon = first.indexOf(':');
                return colon < 0 ? first : first.substring(0, colon);
            }
        }
        throw new AssertionError("dpkg -S knows none of " + names);
    }

    private static String realPath(final String file)
    {
        try
        {
            return Path.of(file).toRealPath().toString();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot follow " + file + ": " + ex.getMessage(), ex);
        }
    }

    private static boolean installed(final String debianPackage)
    {
        return HostCommand.run(LIMIT, null, List.of("dpkg-query", "-W", "-f=${db:Status-Status}", debianPackage))
            .output().equals("installed");
    }

    /** The path of a library, as the dynamic loader's cache ({@code ldconfig -p}) or the shim's directory has it. */
    private static String library(final String name)
    {
        final String cache = HostCommand.run(LIMIT, null, List.of("/sbin/ldconfig", "-p")).orFail("ldconfig -p").output();
        return cache.lines().filter(l -> l.trim().startsWith(name + " ")).map(l -> l.substring(l.indexOf("=> ") + 3).trim())
            .findFirst().orElseGet(() -> HostCommand.run(LIMIT, null, List.of("dpkg", "-S", "*/" + name))
                .orFail("no " + name + " in ldconfig's cache nor in dpkg's database").output().lines().findFirst()
                .map(l -> l.substring(l.indexOf(": ") + 2)).orElseThrow());
    }

    private static String command(final String name)
    {
        final Path path = Peers.findCommand(name);
        Peers.require(path != null, name + " is not on PATH (scripts/setup tests installs it)");
        return path.toString();
    }
}
