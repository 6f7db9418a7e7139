package dev.rdmacm.conformance;

import dev.rdmacm.sa.testing.SimulatedFabric;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's command lines, run as printed. The fabric example: the {@code ```sh} block that begins
 * with {@code rdmacm fabric start}, each line run by {@code sh} with an {@code rdmacm} on the PATH that
 * starts this build's CLI and a {@code XDG_RUNTIME_DIR} of the test's own. The two command lines for
 * its API example: the {@code ```java} block saved as
 * {@code ResolveExample.java}, each {@code java ...} line of a {@code ```sh} block started from the
 * checkout with this JDK's launcher, against 127.0.0.1. The jars are what the build left in
 * {@code rdma-cm/target/lib}; this module's tests run after that module is packaged. A JVM that lacks a
 * flag prints a warning (native access) or fails (Agrona's export), so an empty stderr is part of the
 * check.
 */
class ReadmeCommandLinesTest
{
    private static final Pattern JAVA_BLOCK = Pattern.compile("(?s)```java\\n(.*?)```");
    private static final Pattern SHELL_BLOCK = Pattern.compile("(?s)```sh\\n(.*?)```");
    private static final String EXAMPLE_FILE = "ResolveExample.java";

    private static final String FABRIC_EXAMPLE = "rdmacm fabric start\n";

    @TempDir
    Path dir;

    /** The fabric example's processes, should a line after its start have failed: stopped by their recorded PIDs. */
    @AfterEach
    void stopTheExamplesFabric() throws IOException
    {
        final Path state = dir.resolve("run/rdmacm-fabric/fabric.properties");
        if (!Files.exists(state))
        {
            return;
        }
        final Properties recorded = new Properties();
        try (var in = Files.newBufferedReader(state))
        {
            recorded.load(in);
        }
        for (final String key : List.of("opensm_pid", "ibsim_pid"))
        {
            ProcessHandle.of(Long.parseLong(recorded.getProperty(key))).ifPresent(ProcessHandle::destroy);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldRunTheReadmeFabricExampleAsPrinted() throws Exception
    {
        SimulatedFabric.requirePeers();
        final String readme = Files.readString(repositoryRoot().resolve("README.md"), StandardCharsets.UTF_8);
        String example = null;
        final Matcher block = SHELL_BLOCK.matcher(readme);
        while (block.find())
        {
            if (block.group(1).startsWith(FABRIC_EXAMPLE))
            {
                example = block.group(1);
            }
        }
        assertNotNull(example, "README.md has a ```sh block that begins with " + FABRIC_EXAMPLE);
        final Path bin = Files.createDirectories(dir.resolve("bin"));
        final Path launcher = Files.writeString(bin.resolve("rdmacm"), "#!/bin/sh\nexec '"
            + Path.of(System.getProperty("java.home"), "bin", "java") + "' --enable-native-access=ALL-UNNAMED "
            + "--add-exports java.base/jdk.internal.misc=ALL-UNNAMED -cp '" + System.getProperty("java.class.path")
            + "' dev.rdmacm.cli.Main \"$@\"\n");
        assertTrue(launcher.toFile().setExecutable(true));
        final Path runtime = Files.createDirectories(dir.resolve("run"));

        final List<String> lines = example.lines().toList();
        final List<String> outputs = new ArrayList<>();
        for (final String line : lines)
        {
            final ProcessBuilder builder = new ProcessBuilder("sh", "-c", line).directory(dir.toFile())
                .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
            builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
            builder.environment().put("XDG_RUNTIME_DIR", runtime.toString());
            final Process process = builder.start();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the line ended: " + line);
            final String out = Files.readString(dir.resolve("out"));
            assertEquals(0, process.exitValue(), line + "\n" + out + Files.readString(dir.resolve("err")));
            outputs.add(out);
        }

        // the values the resolve-route line passes are those fabric start printed as its last line
        final List<String> started = outputs.get(0).lines().toList();
        final String route = lines.get(1).replace("$XDG_RUNTIME_DIR", runtime.toString());
        assertTrue(route.endsWith(" " + started.get(started.size() - 1)), route + " ends with: " + started);
        assertTrue(outputs.get(1).contains("  dlid                       5\n"), outputs.get(1));
        assertTrue(outputs.get(2).contains("  dlid                       6\n"), outputs.get(2));
        assertTrue(outputs.get(lines.size() - 1).startsWith("stopped 2 processes"), outputs.get(lines.size() - 1));
        assertFalse(Files.exists(runtime.resolve("rdmacm-fabric")), "stop removed the state directory");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"-cp", "--module-path"})
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldRunTheReadmeExampleWithTheReadmeCommandLine(final String pathOption) throws Exception
    {
        final Path root = repositoryRoot();
        final String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
        final Matcher example = JAVA_BLOCK.matcher(readme);
        assertTrue(example.find(), "README.md has a ```java block");
        final Path source = Files.writeString(dir.resolve(EXAMPLE_FILE), example.group(1), StandardCharsets.UTF_8);

        final List<String> command = commandLine(readme, pathOption);
        command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.set(command.indexOf(EXAMPLE_FILE), source.toString());

        final Process process = new ProcessBuilder(command).directory(root.toFile())
            .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile()).start();
        assertTrue(process.waitFor(90, TimeUnit.SECONDS), "the example ended: " + command);
        final String out = Files.readString(dir.resolve("out")).strip();
        final String err = Files.readString(dir.resolve("err")).strip();

        assertEquals(0, process.exitValue(), "exit status of " + command + "; stderr: " + err);
        assertEquals("", err, "nothing on stderr (no missing-flag warning)");
        if (hasRdmaDevices())
        {
            assertFalse(out.startsWith("no address"), out);
        }
        else
        {
            assertEquals("no address (errno 19): ADDR_ERROR status -19 (ENODEV): no RDMA device for a loopback " +
                "destination", out);
        }
    }

    /** The one {@code java} line of a {@code ```sh} block that names {@code pathOption}, split as sh would. */
    private static List<String> commandLine(final String readme, final String pathOption)
    {
        final Matcher block = SHELL_BLOCK.matcher(readme);
        List<String> found = null;
        while (block.find())
        {
            for (final String line : block.group(1).split("\n"))
            {
                final List<String> words = shellWords(line);
                if (!words.isEmpty() && words.get(0).equals("java") && words.contains(pathOption))
                {
                    assertTrue(found == null, "one README command line with " + pathOption);
                    found = words;
                }
            }
        }
        assertNotNull(found, "README.md has a ```sh line `java ... " + pathOption + " ...`");
        assertTrue(found.contains(EXAMPLE_FILE), "the command line runs " + EXAMPLE_FILE + ": " + found);
        return found;
    }

    /** Words separated by blanks; single quotes keep a word whole (the class path's {@code *}). */
    private static List<String> shellWords(final String line)
    {
        final List<String> words = new ArrayList<>();
        final StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean inWord = false;
        for (final char c : line.strip().toCharArray())
        {
            if (c == '\'')
            {
                quoted = !quoted;
                inWord = true;
            }
            else if (c == ' ' && !quoted)
            {
                if (inWord)
                {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            }
            else
            {
                word.append(c);
                inWord = true;
            }
        }
        assertFalse(quoted, "balanced quotes in: " + line);
        if (inWord)
        {
            words.add(word.toString());
        }
        return words;
    }

    private static Path repositoryRoot()
    {
        Path directory = Path.of("").toAbsolutePath();
        while (directory != null && !Files.exists(directory.resolve("README.md")))
        {
            directory = directory.getParent();
        }
        assertNotNull(directory, "the repository root (README.md) above " + Path.of("").toAbsolutePath());
        return directory;
    }

    /** What the kernel would resolve loopback with: an RDMA device in sysfs ({@code $SYSFS_PATH} or /sys). */
    private static boolean hasRdmaDevices() throws IOException
    {
        final Path devices = Path.of(System.getenv().getOrDefault("SYSFS_PATH", "/sys"), "class", "infiniband");
        if (!Files.isDirectory(devices))
        {
            return false;
        }
        try (var entries = Files.list(devices))
        {
            return entries.findAny().isPresent();
        }
    }
}
