package dev.rdmacm.dist;

import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two distributions of {@code rdmacm} (issue 31), as {@code dist/package --no-build} makes them from
 * this build's jars: the .deb installed by the real dpkg into an empty root of its own (a database with
 * nothing in it, so only the package's own files are there), and the tarball unpacked elsewhere and run
 * through a symlink. What they are checked against is the installed command itself: its {@code --help}
 * names the commands and options that man(1) and bash's completion must know.
 */
@Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class PackagesTest
{
    private static final Duration LIMIT = Duration.ofMinutes(1);
    private static final Path ROOT = checkout();
    private static final Path TARGET = ROOT.resolve("dist/target");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])(--[a-z][a-z0-9-]+)");
    /** Debian 12 essentials the launcher runs on (bash, readlink, dirname); nothing of a JDK. */
    private static final String SYSTEM_PATH = "/usr/bin:/bin";

    private static Path dpkgRoot;
    private static Path unpacked;
    private static String version;

    @BeforeAll
    static void build() throws IOException
    {
        Peers.requireCommand("dpkg-deb", "dpkg");
        Peers.requireCommand("asciidoctor", "asciidoctor");
        Peers.requireCommand("man", "man-db");
        Peers.requireRoot("dpkg --root");
        Peers.require(Files.exists(ROOT.resolve("cli/target/rdmacm.jar")), "cli/target/rdmacm.jar is missing: run with `mvn verify`, which packages cli first");
        HostCommand.run(Duration.ofMinutes(8), ROOT, List.of(ROOT.resolve("dist/package").toString(), "--no-build"))
            .orFail("dist/package --no-build");
        final Properties info = new Properties();
        try (InputStream in = Files.newInputStream(ROOT.resolve("cli/target/classes/dev/rdmacm/cli/build-info.properties")))
        {
            info.load(in);
        }
        version = info.getProperty("version");

        dpkgRoot = Files.createTempDirectory("rdmacm-dpkg-root");
        for (final String dir : List.of("var/lib/dpkg/info", "var/lib/dpkg/updates", "var/log"))
        {
            Files.createDirectories(dpkgRoot.resolve(dir));
        }
        Files.createFile(dpkgRoot.resolve("var/lib/dpkg/status"));
        Files.createFile(dpkgRoot.resolve("var/lib/dpkg/available"));
        // --force-depends: the empty root has none of the host's packages (libc6, libibverbs1) in its database
        HostCommand.run(LIMIT, null, List.of("dpkg", "--root=" + dpkgRoot, "--force-depends", "-i", deb().toString()))
            .orFail("dpkg -i into an empty root");

        unpacked = Files.createTempDirectory("rdmacm-tarball");
        HostCommand.run(LIMIT, null, List.of("tar", "-C", unpacked.toString(), "-xzf", tarball().toString()))
            .orFail("tar -xzf");
    }

    @AfterAll
    static void clean()
    {
        for (final Path dir : new Path[] {dpkgRoot, unpacked})
        {
            if (dir != null)
            {
                HostCommand.run(LIMIT, null, List.of("rm", "-rf", dir.toString()));
            }
        }
    }

    @Test
    void shouldRegisterThePackageInDpkgsDatabase()
    {
        final String status = HostCommand.run(LIMIT, null, List.of("dpkg-query", "--admindir=" + dpkgRoot.resolve("var/lib/dpkg"),
            "-W", "-f=${Status} ${Version}", "rdmacm")).orFail("dpkg-query").output();

        assertEquals("install ok installed " + version.replace('-', '~') + "-1", status);
    }

    @Test
    void shouldPrintTheVersionFromThePathWithItsOwnRuntime()
    {
        final String out = installed("--version").orFail("rdmacm --version").output();

        assertTrue(out.startsWith("rdmacm-java " + version + " "), out);
        assertTrue(out.contains("Java 25"), "the bundled runtime, not the host's: " + out);
    }

    @Test
    void shouldStartWithTheAotCacheItWasPackagedWith()
    {
        final Path home = dpkgRoot.resolve("usr/lib/rdmacm");
        final List<String> command = new ArrayList<>(List.of(home.resolve("runtime/bin/java").toString()));
        command.addAll(jvmOptions());
        // AOTMode=on: the JVM exits with an error instead of running without a cache it refuses
        final boolean linked = !Files.exists(home.resolve("lib/rdmacm.aot.unlinked"));
        command.addAll(List.of(linked ? "-XX:+AOTClassLinking" : "-XX:-AOTClassLinking", "-XX:AOTMode=on",
            "-XX:AOTCache=" + home.resolve("lib/rdmacm.aot"), "-jar",
            home.resolve("lib/rdmacm.jar").toString(), "--version"));

        final HostCommand.Outcome outcome = HostCommand.run(LIMIT, null, command);

        assertEquals(0, outcome.exitStatus(), "the cache made in the stage is taken where dpkg put it: " + outcome.output());
    }

    @Test
    void shouldHaveAManPageForEveryCommandThatNamesEveryOptionOfItsHelp()
    {
        final List<String> commands = subcommands();
        assertTrue(commands.contains("resolve-addr") && commands.size() >= 10, commands::toString);

        for (final String command : commands)
        {
            final String page = HostCommand.run(LIMIT, null, List.of("man", "-M", dpkgRoot.resolve("usr/share/man").toString(),
                "-P", "cat", "rdmacm-" + command)).orFail("man rdmacm-" + command).output();
            final TreeSet<String> missing = options(installed(command, "--help").output());
            missing.removeAll(options(page));
            assertEquals(new TreeSet<>(), missing, "options of `rdmacm " + command + " --help` that man rdmacm-" + command + " lacks");
        }
    }

    @Test
    void shouldCompleteSubcommandsWithTab()
    {
        final List<String> expected = subcommands().stream().filter(c -> c.startsWith("resolve-")).sorted().toList();

        assertEquals(expected, complete("rdmacm", "resolve-"));
    }

    @Test
    void shouldCompleteTheOptionsOfASubcommandWithTab()
    {
        final TreeSet<String> expected = options(installed("resolve-addr", "--help").output());
        expected.removeIf(o -> !o.startsWith("--t"));

        assertEquals(List.copyOf(expected), complete("rdmacm", "resolve-addr", "--t"));
    }

    @Test
    void shouldRunTheTarballThroughASymlinkFromAnotherDirectory() throws IOException
    {
        final Path bin = Files.createDirectories(unpacked.resolve("elsewhere/bin"));
        final Path link = Files.createSymbolicLink(bin.resolve("rdmacm"), unpacked.resolve("rdmacm-" + version + "/bin/rdmacm"));

        final String out = HostCommand.run(LIMIT, null, List.of("env", "-i", "PATH=" + SYSTEM_PATH, link.toString(), "--version"))
            .orFail("the tarball's rdmacm through a symlink").output();

        assertTrue(out.startsWith("rdmacm-java " + version + " "), out);
    }

    @Test
    void shouldShipTheSamePagesAndCompletionInTheTarballAsInTheDeb() throws IOException
    {
        final Path tarballHome = unpacked.resolve("rdmacm-" + version);

        assertEquals(names(dpkgRoot.resolve("usr/share/man/man1")), names(tarballHome.resolve("share/man/man1")));
        assertEquals(Files.readString(dpkgRoot.resolve("usr/share/bash-completion/completions/rdmacm")),
            Files.readString(tarballHome.resolve("share/bash-completion/completions/rdmacm")));
    }

    /** The installed command, found through the PATH as a user runs it, with no JAVA_HOME. */
    private static HostCommand.Outcome installed(final String... args)
    {
        final List<String> command = new ArrayList<>(List.of("env", "-i", "PATH=" + dpkgRoot.resolve("usr/bin") + ":" + SYSTEM_PATH,
            "rdmacm"));
        command.addAll(List.of(args));
        return HostCommand.run(LIMIT, null, command);
    }

    /** The subcommands `rdmacm --help` lists under Commands, help aside. */
    private static List<String> subcommands()
    {
        final String help = installed("--help").orFail("rdmacm --help").output();
        final List<String> names = new ArrayList<>();
        boolean inCommands = false;
        for (final String line : help.lines().toList())
        {
            if (line.startsWith("Commands:"))
            {
                inCommands = true;
                continue;
            }
            if (inCommands && line.matches("^ {2}[a-z][a-z-]+.*"))
            {
                names.add(line.trim().split("\\s+")[0]);
            }
            else if (inCommands && !line.isBlank() && !line.startsWith("  "))
            {
                inCommands = false;
            }
        }
        names.remove("help");
        return names;
    }

    private static TreeSet<String> options(final String text)
    {
        final TreeSet<String> options = new TreeSet<>();
        // man pages hyphenate long words at line ends; join them back before looking
        final Matcher matcher = OPTION.matcher(text.replace("\u2010", "-").replaceAll("-\\n\\s*", "-"));
        while (matcher.find())
        {
            options.add(matcher.group(1));
        }
        return options;
    }

    /** What bash's completion offers after {@code words}, the last one being completed, from the installed script. */
    private static List<String> complete(final String... words)
    {
        final String line = String.join(" ", words);
        final StringBuilder array = new StringBuilder();
        for (final String word : words)
        {
            array.append('\'').append(word).append("' ");
        }
        final String script = "source " + dpkgRoot.resolve("usr/share/bash-completion/completions/rdmacm") + " 2>/dev/null; " +
            "COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1) + "; COMP_LINE='" + line + "'; " +
            "COMP_POINT=${#COMP_LINE}; _complete_rdmacm 2>/dev/null; printf '%s\\n' \"${COMPREPLY[@]}\"";
        return HostCommand.run(LIMIT, null, List.of("bash", "-c", script)).orFail("bash completion").output().lines()
            .filter(s -> !s.isBlank()).sorted().toList();
    }

    private static List<String> jvmOptions()
    {
        final String options = HostCommand.run(LIMIT, null, List.of("bash", "-c",
            "source " + dpkgRoot.resolve("usr/lib/rdmacm/lib/jvm-options.sh") + "; printf '%s\\n' \"${rdmacm_jvm_options[@]}\""))
            .orFail("the installed JVM options").output();
        return options.lines().toList();
    }

    private static List<String> names(final Path dir) throws IOException
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static Path deb() throws IOException
    {
        return only("rdmacm_*_amd64.deb");
    }

    private static Path tarball() throws IOException
    {
        return only("rdmacm-*-linux-x86_64.tar.gz");
    }

    private static Path only(final String glob) throws IOException
    {
        try (var found = Files.newDirectoryStream(TARGET, glob))
        {
            final List<Path> paths = new ArrayList<>();
            found.forEach(paths::add);
            assertEquals(1, paths.size(), "one " + glob + " in " + TARGET + ": " + paths);
            return paths.getFirst();
        }
    }

    private static Path checkout()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("dist/package")))
        {
            dir = dir.getParent();
        }
        if (dir == null)
        {
            throw new IllegalStateException("no checkout with dist/package above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
