package dev.rdmacm.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The re-emission of picocli's Java 5 classes, on the picocli jar the CLI is built with: the versions
 * are read from the class files as the JVM specification lays them out (u4 magic, u2 minor, u2 major).
 */
@Timeout(120)
class LegacyBytecodeUpgradeTest
{
    @TempDir
    static Path directory;
    private static Path original;
    private static Path upgraded;
    private static int count;

    @BeforeAll
    static void upgradePicocli() throws IOException, URISyntaxException
    {
        original = Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        upgraded = directory.resolve("picocli-upgraded.jar");
        count = LegacyBytecodeUpgrade.upgrade(original, upgraded);
    }

    @Test
    void shouldReemitEveryClassBelowVersion50AsVersion52() throws IOException
    {
        final Map<String, Integer> before = majorVersions(original);
        final Map<String, Integer> after = majorVersions(upgraded);

        final long old = before.values().stream().filter(major -> major < 50).count();
        assertTrue(old > 100, "picocli " + original + " has " + old + " classes below version 50");
        assertEquals(old, count);
        assertEquals(before.keySet(), after.keySet());
        after.forEach((name, major) -> assertEquals(before.get(name) < 50 ? 52 : before.get(name), major, name));
    }

    @Test
    void shouldCopyEveryOtherEntryByteForByte() throws IOException
    {
        try (JarFile before = new JarFile(original.toFile()); JarFile after = new JarFile(upgraded.toFile()))
        {
            final List<String> copied = new ArrayList<>();
            for (final var entry : before.stream().toList())
            {
                final byte[] bytes = before.getInputStream(entry).readAllBytes();
                if (!entry.isDirectory() && !LegacyBytecodeUpgrade.isOldClass(entry.getName(), bytes))
                {
                    assertArrayEquals(bytes, after.getInputStream(after.getEntry(entry.getName())).readAllBytes(), entry.getName());
                    copied.add(entry.getName());
                }
            }
            assertTrue(copied.stream().anyMatch(name -> name.startsWith("META-INF/")), copied.toString());
        }
    }

    @Test
    void shouldPrintTheSameHelpWithTheUpgradedPicocliVerifiedByTheJvm() throws IOException, InterruptedException
    {
        final String others = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(entry -> !Path.of(entry).toAbsolutePath().equals(original.toAbsolutePath()))
            .collect(Collectors.joining(File.pathSeparator));

        // a child JVM verifies every class it loads from the class path, the upgraded picocli's too
        final String withOriginal = help(original + File.pathSeparator + others);
        final String withUpgraded = help(upgraded + File.pathSeparator + others);

        assertTrue(withOriginal.contains("getaddrinfo"), withOriginal);
        assertEquals(withOriginal, withUpgraded);
    }

    private static String help(final String classPath) throws IOException, InterruptedException
    {
        final Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", classPath, Main.class.getName(), "--help")
            .redirectErrorStream(true).start();
        final String out = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(java.waitFor(60, TimeUnit.SECONDS), "java --help did not end");
        assertEquals(0, java.exitValue(), out);
        return out;
    }

    private static Map<String, Integer> majorVersions(final Path jar) throws IOException
    {
        final Map<String, Integer> versions = new TreeMap<>();
        try (JarFile file = new JarFile(jar.toFile()))
        {
            for (final var entry : file.stream().filter(e -> e.getName().endsWith(".class")).toList())
            {
                final byte[] bytes = file.getInputStream(entry).readAllBytes();
                versions.put(entry.getName(), ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff));
            }
        }
        return versions;
    }
}
