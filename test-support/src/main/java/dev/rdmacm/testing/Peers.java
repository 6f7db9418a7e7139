package dev.rdmacm.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How a test asks for a real peer (gcc, tshark, ibsim, OpenSM, root for namespaces...).
 * <p>
 * With {@code CI=true} a missing peer fails the test: CI installs and starts every peer, so a missing
 * one is a broken build, never a silent skip. Outside CI the test is skipped with the reason.
 */
public final class Peers
{
    private Peers()
    {
    }

    public static boolean inCi()
    {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /** Requires {@code condition}; {@code why} says what is missing and how to get it. */
    public static void require(final boolean condition, final String why)
    {
        if (condition)
        {
            return;
        }
        if (inCi())
        {
            Assertions.fail("peer missing in CI (CI=true): " + why);
        }
        Assumptions.abort("skipped, peer missing: " + why);
    }

    /** Requires an executable on the PATH, e.g. {@code gcc} or {@code tshark}. */
    public static Path requireCommand(final String command, final String debianPackage)
    {
        final Path found = findCommand(command);
        require(found != null, command + " not on PATH (Debian package " + debianPackage + "; scripts/setup installs it)");
        return found;
    }

    /** Requires a file, e.g. a C header. */
    public static void requireFile(final String path, final String debianPackage)
    {
        require(Files.exists(Path.of(path)), path + " missing (Debian package " + debianPackage + ")");
    }

    /** Requires uid 0, for network namespaces and raw netlink writes. */
    public static void requireRoot(final String forWhat)
    {
        require("root".equals(System.getProperty("user.name")), forWhat + " needs root");
    }

    public static Path findCommand(final String command)
    {
        final String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (final String dir : (path + ":/usr/sbin:/sbin").split(":"))
        {
            final Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return null;
    }
}
