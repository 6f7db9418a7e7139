package dev.rdmacm.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code ./rdmacm} launcher and {@code --version}: the launcher run through a symlink (as from a
 * directory on the PATH) finds its checkout, and {@code --version} names the version and the commit the
 * jar was built from, as {@code git describe} names it, or says that there is none.
 */
@Timeout(120)
class LauncherTest
{
    @TempDir
    Path dir;

    @Test
    void shouldRunThroughASymlink() throws IOException, InterruptedException
    {
        final Path tree = launcherTree();
        final Path bin = Files.createDirectories(dir.resolve("bin"));
        final Path link = Files.createSymbolicLink(bin.resolve("rdmacm"), tree.resolve("rdmacm"));

        final Result result = run(dir, link.toString(), "--version");

        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().startsWith("rdmacm-java "), result.out());
        assertEquals("", result.err());
    }

    @Test
    void shouldPrintTheVersionAndTheCommitGitDescribes() throws IOException, InterruptedException
    {
        final Path root = root();
        final Result describe = run(root, "git", "-C", root.toString(), "describe", "--always", "--dirty", "--abbrev=12");
        assertEquals(0, describe.exit(), "git describe in " + root + ": " + describe.err());

        final CommandRun run = CommandRun.run("--version");

        assertEquals(0, run.exit(), run.err());
        // the jar's commit is the one of its build: this test's classes were built from the tree as it is now
        assertEquals("rdmacm-java " + projectVersion(root) + " (commit " + describe.out().strip() + ")", run.out().lines().findFirst().orElseThrow());
    }

    @Test
    void shouldSayThereIsNoCommitOutsideAGitCheckout() throws IOException, InterruptedException
    {
        final Path scripts = Files.createDirectories(dir.resolve("tarball").resolve("scripts"));
        Files.copy(root().resolve("scripts/build-info"), scripts.resolve("build-info"));
        final Path output = dir.resolve("build-info.properties");

        final Result result = run(dir, scripts.resolve("build-info").toString(), output.toString(), "1.2.3");
        final Properties build = new Properties();
        try (var in = Files.newInputStream(output))
        {
            build.load(in);
        }

        assertEquals(0, result.exit(), result.err());
        assertEquals(Map.of("version", "1.2.3", "commit", ""), Map.copyOf(build));
        assertEquals("rdmacm-java 1.2.3 (commit unknown: not built from a git checkout)", VersionProvider.line(build));
    }

    /**
     * A checkout as the launcher sees it: the launcher and {@code scripts/jdk.sh}, and {@code cli/target/rdmacm.jar}
     * a jar of nothing but a manifest whose class path is this test's (the CLI as built now); no sources, so it is
     * never stale, and the AOT training marked as failed, so the launcher goes straight to the JVM.
     */
    private Path launcherTree() throws IOException
    {
        final Path root = root();
        final Path tree = dir.resolve("checkout");
        Files.createDirectories(tree.resolve("scripts"));
        Files.copy(root.resolve("rdmacm"), tree.resolve("rdmacm"));
        Files.copy(root.resolve("scripts/jdk.sh"), tree.resolve("scripts/jdk.sh"));
        Files.copy(root.resolve("scripts/cli-jvm-options.sh"), tree.resolve("scripts/cli-jvm-options.sh"));
        final Path target = Files.createDirectories(tree.resolve("cli/target"));
        final Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        final List<String> classPath = new ArrayList<>();
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator))
        {
            classPath.add(Path.of(entry).toUri().toString());
        }
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
        final Path jar = target.resolve("rdmacm.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest))
        {
            // the manifest is the whole jar
        }
        final Path failed = Files.createFile(target.resolve("rdmacm.aot.failed"));
        Files.setLastModifiedTime(failed, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));
        return tree;
    }

    private static String projectVersion(final Path root) throws IOException
    {
        final String pom = Files.readString(root.resolve("pom.xml"), StandardCharsets.UTF_8);
        final int start = pom.indexOf("<version>") + "<version>".length();
        return pom.substring(start, pom.indexOf("</version>", start));
    }

    /** The checkout's root: Surefire's {@code RDMACM_TEST_ROOT}, else the parent of the module directory. */
    static Path root()
    {
        final String root = System.getenv("RDMACM_TEST_ROOT");
        return root != null ? Path.of(root).toAbsolutePath() : Path.of("").toAbsolutePath().getParent();
    }

    private record Result(int exit, String out, String err)
    {
    }

    private Result run(final Path directory, final String... command) throws IOException, InterruptedException
    {
        final ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
            .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        final Process process = builder.start();
        try
        {
            process.getOutputStream().close();
            assertTrue(process.waitFor(90, TimeUnit.SECONDS), "ended: " + List.of(command));
            return new Result(process.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}
