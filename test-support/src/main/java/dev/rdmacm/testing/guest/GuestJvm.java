package dev.rdmacm.testing.guest;

import dev.rdmacm.testing.HostCommand;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * The JVM command line that runs tests inside a guest, with an AOT cache (JDK 25, JEP 483/514) of the
 * classes every run loads. Under TCG a JVM is about ten times slower than on the host, and most of a
 * small run goes to loading, verifying and linking the JUnit launcher and engine; with the cache the
 * guest maps them ready-linked.
 * <p>
 * The cache needs a class path of jars only, and is valid for any class path that starts with the
 * one it was trained on. So the guest's class path is put in this order:
 * <pre>
 *   launcher jar | jars from outside the checkout (~/.m2) | the checkout's jars | directories
 *   '----------------------- trained prefix: the AOT cache -----------------'
 * </pre>
 * The launcher jar holds this package's in-guest classes ({@link GuestJUnitMain}, {@link GuestTestOutcome},
 * {@link GuestJvmTraining}); the training run is {@code GuestJUnitMain} on {@code GuestJvmTraining}, on
 * the host, once per prefix (keyed by the JDK, the options and each jar's path, size and mtime). It also
 * loads every class of the checkout's jars and of picocli's upgraded copy ({@link #upgraded}), and initialises
 * the native bindings' holders of downcalls ({@link GuestJvmTraining}). What it cannot hold is the foreign
 * linker's work per downcall at run time (some 440 classes it spins): the kernel suite's first {@code RdmaCm.open}
 * took 24 s under TCG on a loaded host with the cache (6 December, 13:25) and 26 s without. A prefix with the
 * checkout's jars changes with every build, so its cache goes in the module's {@code target}; one without them
 * is cached beside the kernel. A cache that cannot be built leaves the run without one, only slower.
 */
final class GuestJvm
{
    /** C1 only and the serial collector: under TCG a JVM spends its first seconds compiling, not testing. */
    static final List<String> OPTIONS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");
    private static final Duration TRAINING_LIMIT = Duration.ofMinutes(2);
    /** The first class-file version (Java 6) whose classes the AOT cache keeps linked. */
    private static final int CACHED_SINCE = 50;
    /** The CLI's re-emitter of older class files, on the class path of the modules whose guest JVMs start the CLI. */
    private static final String UPGRADE = "dev.rdmacm.cli.LegacyBytecodeUpgrade";
    /** With their nested classes. */
    private static final List<Class<?>> LAUNCHER_CLASSES = List.of(GuestJUnitMain.class, GuestTestOutcome.class,
        GuestJvmTraining.class);

    private GuestJvm()
    {
    }

    /** {@code java} options, class path and main class for {@code GuestJUnitMain} in the guest. */
    static synchronized List<String> commandLine(final String classPath, final String checkout)
    {
        final Path dir = Path.of(KernelPackage.cacheDirectory().toString(), "aot");
        final List<String> outside = new ArrayList<>();
        final List<String> built = new ArrayList<>();
        final List<String> rest = new ArrayList<>();
        for (final String entry : classPath.split(":"))
        {
            final boolean jar = entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry));
            (!jar ? rest : Path.of(entry).toAbsolutePath().startsWith(checkout) ? built : outside).add(entry);
        }
        final List<String> command = new ArrayList<>(OPTIONS);
        try
        {
            Files.createDirectories(dir);
            final Path launcher = launcherJar(dir);
            final List<String> prefix = new ArrayList<>(List.of(launcher.toString()));
            final List<String> loaded = new ArrayList<>(built);
            for (final String jar : outside)
            {
                final String upgraded = upgraded(jar, dir, classPath);
                prefix.add(upgraded);
                if (!upgraded.equals(jar))
                {
                    loaded.add(upgraded);
                }
            }
            prefix.addAll(built);
            // the checkout's jars change with every build: that cache goes with the build's output, not beside the kernel
            final Path cacheDir = built.isEmpty() ? dir : Files.createDirectories(Path.of("target", "guest-jvm-aot").toAbsolutePath());
            final Path cache = cacheDir.resolve(key(prefix) + ".aot");
            if (Files.exists(cache) || train(prefix, loaded, cache))
            {
                command.add("-XX:AOTCache=" + cache);
            }
            // the options so far again, for the JVMs a test starts in the guest (GuestJavaOptions)
            command.add("-D" + GuestJavaOptions.PROPERTY + "=" + String.join(GuestJavaOptions.SEPARATOR, command));
            final List<String> ordered = new ArrayList<>(prefix);
            ordered.addAll(rest);
            command.addAll(List.of("-cp", String.join(":", ordered), GuestJUnitMain.class.getName()));
            return command;
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot prepare the guest JVM's launcher jar or AOT cache in " + dir + ": " + ex, ex);
        }
    }

    /** The launcher jar, named by the digest of its classes so that a changed class gives a new one. */
    private static Path launcherJar(final Path dir) throws IOException
    {
        final MessageDigest digest = sha256();
        final List<byte[]> classes = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        for (final Class<?> type : LAUNCHER_CLASSES)
        {
            for (final Class<?> nested : withNested(type))
            {
                final String name = nested.getName().replace('.', '/') + ".class";
                try (InputStream in = nested.getClassLoader().getResourceAsStream(name))
                {
                    final byte[] bytes = in.readAllBytes();
                    names.add(name);
                    classes.add(bytes);
                    digest.update(bytes);
                }
            }
        }
        final Path jar = dir.resolve("launcher-" + HexFormat.of().formatHex(digest.digest()).substring(0, 16) + ".jar");
        if (!Files.exists(jar))
        {
            final Path partial = Files.createTempFile(dir, "launcher", ".partial");
            try
            {
                try (OutputStream file = Files.newOutputStream(partial); JarOutputStream out = new JarOutputStream(file))
                {
                    for (int i = 0; i < names.size(); i++)
                    {
                        out.putNextEntry(new JarEntry(names.get(i)));
                        out.write(classes.get(i));
                        out.closeEntry();
                    }
                }
                Files.move(partial, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            finally
            {
                Files.deleteIfExists(partial);
            }
        }
        return jar;
    }

    private static List<Class<?>> withNested(final Class<?> type)
    {
        final List<Class<?>> all = new ArrayList<>(List.of(type));
        all.addAll(List.of(type.getDeclaredClasses()));
        return all;
    }

    /**
     * {@code jar}, or a copy of it beside the kernel whose Java 5 classes (picocli's) the CLI's {@link #UPGRADE} re-emitted as
     * Java 8 ones with stack maps, when it has such classes and the class path has the CLI: the cache keeps no linked Java 5
     * class, so every guest JVM that starts the CLI (acm-server's, the wire cases' drivers) loaded and verified picocli's 171
     * classes with the old verifier under TCG. The copy is named by the jar's path, size and time; one that cannot be made
     * leaves the jar as it is.
     */
    private static String upgraded(final String jar, final Path dir, final String classPath) throws IOException
    {
        final Path original = Path.of(jar);
        if (ClassLoader.getSystemResource(UPGRADE.replace('.', '/') + ".class") == null || !hasJava5Class(original))
        {
            return jar;
        }
        final MessageDigest digest = sha256();
        digest.update((original.toAbsolutePath() + " " + Files.size(original) + " " + Files.getLastModifiedTime(original).toMillis())
            .getBytes(StandardCharsets.UTF_8));
        final Path copy = dir.resolve("upgraded-" + HexFormat.of().formatHex(digest.digest()).substring(0, 16) + "-" + original.getFileName());
        if (Files.exists(copy))
        {
            return copy.toString();
        }
        final Path partial = Files.createTempFile(dir, "upgrading", ".jar");
        try
        {
            Files.copy(original, partial, StandardCopyOption.REPLACE_EXISTING);
            final HostCommand.Outcome upgrade = HostCommand.run(TRAINING_LIMIT, null, List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath, UPGRADE, partial.toString()));
            if (!upgrade.succeeded())
            {
                return jar;
            }
            Files.move(partial, copy, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return copy.toString();
        }
        finally
        {
            Files.deleteIfExists(partial);
        }
    }

    /** Whether {@code jar} has a class file below {@link #CACHED_SINCE}. */
    private static boolean hasJava5Class(final Path jar) throws IOException
    {
        try (JarFile file = new JarFile(jar.toFile()))
        {
            for (final JarEntry entry : Collections.list(file.entries()))
            {
                if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/"))
                {
                    try (InputStream in = file.getInputStream(entry))
                    {
                        final byte[] head = in.readNBytes(8);
                        if (head.length == 8 && ((head[6] & 0xff) << 8 | head[7] & 0xff) < CACHED_SINCE)
                        {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    /** One training run on the host, which also loads every class of {@code built}; true when it left a cache. */
    private static boolean train(final List<String> prefix, final List<String> built, final Path cache) throws IOException
    {
        final Path partial = cache.resolveSibling(cache.getFileName() + ".partial");
        final Path results = Files.createTempFile(cache.getParent(), "training", ".tsv");
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(OPTIONS);
        command.addAll(List.of("-XX:AOTCacheOutput=" + partial, "-D" + GuestJvmTraining.LOAD + "=" + String.join(":", built), "-cp",
            String.join(":", prefix), GuestJUnitMain.class.getName(),
            results.toString(), GuestJvmTraining.class.getName()));
        try
        {
            final HostCommand.Outcome training = HostCommand.run(TRAINING_LIMIT, null, command);
            if (!training.succeeded() || !Files.exists(partial))
            {
                return false;
            }
            Files.move(partial, cache, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        }
        finally
        {
            Files.deleteIfExists(results);
            Files.deleteIfExists(partial);
        }
    }

    private static String key(final List<String> prefix) throws IOException
    {
        final MessageDigest digest = sha256();
        digest.update((System.getProperty("java.home") + "\n" + System.getProperty("java.vm.version") + "\n" + OPTIONS + "\n")
            .getBytes(StandardCharsets.UTF_8));
        for (final String entry : prefix)
        {
            final Path jar = Path.of(entry);
            digest.update((entry + " " + Files.size(jar) + " " + Files.getLastModifiedTime(jar).toMillis() + "\n")
                .getBytes(StandardCharsets.UTF_8));
        }
        return "junit-" + HexFormat.of().formatHex(digest.digest()).substring(0, 24);
    }

    private static MessageDigest sha256()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new AssertionError("the JDK lacks SHA-256", ex);
        }
    }
}
