package dev.rdmacm.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a user of the library from another Maven project meets first (issue 31): the licence, in
 * {@code LICENSE} and in the poms every artifact inherits; the coordinates and the BOM the README gives;
 * and the README's one-line install, whose build skips the tests ({@code -Dmaven.test.skip=true}): it is
 * run here as {@code package} (an install would write into the local repository that every checkout on
 * the machine shares), offline, in a copy of the tree, and must leave each library module's jar with its
 * sources and javadoc jars, and no test jar.
 */
@Timeout(60)
class LibraryPackagingTest
{
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");
    /** The reactor modules that are no library: the tests' peers, the tests, the benchmarks, the command, its packages, the BOM itself. */
    private static final Set<String> NOT_LIBRARY = Set.of("test-support", "conformance", "benchmarks", "cli", "dist", "bom");

    private final Path root = ProjectLayoutTest.root();

    @TempDir
    Path dir;

    @Test
    void shouldShipTheApacheLicenceTextAtTheRoot() throws IOException
    {
        final String licence = Files.readString(root.resolve("LICENSE"), StandardCharsets.UTF_8);

        assertTrue(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004")
            && licence.contains("END OF TERMS AND CONDITIONS"), "LICENSE is the whole Apache License 2.0");
    }

    @Test
    void shouldNameTheLicenceInTheParentPom() throws IOException
    {
        final String pom = Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8);

        assertTrue(pom.matches("(?s).*<licenses>\\s*(<!--.*?-->\\s*)?<license>\\s*<name>Apache-2.0</name>\\s*"
            + "<url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>.*"), "the parent pom's <licenses>");
    }

    @Test
    void shouldListEveryLibraryModuleInTheBomAtTheReactorsVersion() throws IOException
    {
        final String bom = Files.readString(root.resolve("bom/pom.xml"), StandardCharsets.UTF_8);
        final Set<String> library = new TreeSet<>(ProjectLayoutTest.modules(root));
        library.removeAll(NOT_LIBRARY);
        final Matcher artifacts = ARTIFACT.matcher(bom.substring(bom.indexOf("<dependencyManagement>")));
        final Set<String> listed = new TreeSet<>();
        while (artifacts.find())
        {
            listed.add(artifacts.group(1));
        }

        assertEquals(library, listed, "bom/pom.xml's dependencyManagement against the reactor's library modules");
        assertTrue(bom.contains("<groupId>dev.rdmacm</groupId>\n  <artifactId>rdmacm-bom</artifactId>\n  <version>" + version() + "</version>"),
            "the BOM's coordinates at the reactor's version " + version());
        assertFalse(bom.contains("<parent>"), "an imported BOM brings its parent's dependencyManagement too");
        assertEquals(listed.size(), countOf(bom, "<version>" + version() + "</version>") - 1, "every entry at the reactor's version");
    }

    @Test
    void shouldGiveTheCoordinatesTheBomAndTheInstallInTheReadme() throws IOException
    {
        final String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);

        assertTrue(readme.contains("<groupId>dev.rdmacm</groupId>\n      <artifactId>rdmacm-bom</artifactId>\n      <version>" + version()
            + "</version>\n      <type>pom</type>\n      <scope>import</scope>"), "the README imports the BOM at " + version());
        assertTrue(readme.contains("`dev.rdmacm:MODULE:" + version() + "`"), "the README names the coordinates");
        assertTrue(installLine(readme).contains("-Dmaven.test.skip=true"), installLine(readme));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void shouldBuildTheLibraryWithTheReadmesInstallLineTestsSkipped() throws Exception
    {
        final Path mvn = Peers.requireCommand("mvn", "maven");
        final Path copy = Files.createDirectories(dir.resolve("tree"));
        copyTree(root, copy);
        final List<String> command = new ArrayList<>(List.of(installLine(Files.readString(root.resolve("README.md"))).split(" ")));
        command.set(0, mvn.toString());
        command.set(command.indexOf("install"), "package");
        command.add("-o");

        final ProcessBuilder builder = new ProcessBuilder(command).directory(copy.toFile()).redirectErrorStream(true)
            .redirectOutput(dir.resolve("build.log").toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        final Process process = builder.start();
        final boolean ended = process.waitFor(25, TimeUnit.MINUTES);
        process.destroyForcibly();

        assertTrue(ended, "the build ended: " + command);
        assertEquals(0, process.exitValue(), command + ":\n" + Files.readString(dir.resolve("build.log")));
        final Set<String> library = new TreeSet<>(ProjectLayoutTest.modules(root));
        library.removeAll(NOT_LIBRARY);
        for (final String module : library)
        {
            for (final String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar"))
            {
                final Path jar = copy.resolve(module).resolve("target").resolve(module + "-" + version() + suffix);
                assertTrue(Files.isRegularFile(jar), jar + " built");
            }
            assertFalse(Files.exists(copy.resolve(module).resolve("target").resolve(module + "-" + version() + "-tests.jar")),
                module + ": no test jar with the tests skipped");
        }
        assertFalse(Files.exists(copy.resolve("conformance/target")), "the test-only modules are left out");
    }

    /** The README's one {@code mvn ... install ...} line. */
    private static String installLine(final String readme)
    {
        final List<String> lines = readme.lines().filter(line -> line.startsWith("mvn ") && line.contains(" install")).toList();
        assertEquals(1, lines.size(), "one README line `mvn ... install ...`: " + lines);
        return lines.get(0).strip();
    }

    private String version() throws IOException
    {
        final String pom = Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8);
        final int start = pom.indexOf("<version>") + "<version>".length();
        return pom.substring(start, pom.indexOf("</version>", start));
    }

    private static int countOf(final String text, final String part)
    {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1))
        {
            count++;
        }
        return count;
    }

    /** The checkout as a user has it: every file but what builds and version control leave. */
    private static void copyTree(final Path from, final Path to) throws IOException
    {
        try (Stream<Path> files = Files.walk(from))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                final Path relative = from.relativize(file);
                if (relative.toString().isEmpty() || excluded(relative))
                {
                    continue;
                }
                final Path target = to.resolve(relative.toString());
                if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS))
                {
                    Files.createDirectories(target);
                }
                else if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
                {
                    Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static boolean excluded(final Path relative)
    {
        for (final Path name : relative)
        {
            if (name.toString().equals("target") || name.toString().equals(".git"))
            {
                return true;
            }
        }
        return false;
    }
}
