package dev.rdmacm.conformance;

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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The README's two command lines for its API example, run as printed: the {@code ```java} block saved as
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

    @TempDir
    Path dir;

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
