package dev.rdmacm.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Re-emits every class of a jar whose class-file version is below 50 (Java 6) as version 52 (Java 8),
 * with stack maps, through the JDK's ClassFile API; {@code ./rdmacm} runs it on the CLI's jar before it
 * trains the AOT cache.
 * <p>
 * Why: picocli is compiled for Java 5. The JVM's AOT cache excludes such "old" classes once they are
 * linked, because their verification (the old, type-inferring verifier) cannot be recorded, so every run
 * read and verified picocli's 171 classes again: 0.39 s of a 0.77 s {@code getaddrinfo}. At version 52
 * with stack maps they are verified by the split verifier and cached like every other class; the
 * bytecode itself is unchanged. Classes at version 50 or above are copied byte for byte.
 */
public final class LegacyBytecodeUpgrade
{
    /** The first version whose classes the AOT cache keeps linked. */
    static final int FIRST_CACHED_MAJOR = 50;
    /** What old classes become: Java 8, the oldest version whose stack maps are mandatory. */
    static final int UPGRADED_MAJOR = 52;
    private static final int MAJOR_VERSION_OFFSET = 6;

    private LegacyBytecodeUpgrade()
    {
    }

    /**
     * Usage: {@code LegacyBytecodeUpgrade JAR}: replaces JAR by its upgraded copy when it holds old
     * classes, and leaves it untouched (same bytes, same time) when it holds none.
     */
    public static void main(final String[] args)
    {
        if (args.length != 1)
        {
            System.err.println("usage: LegacyBytecodeUpgrade JAR");
            System.exit(2);
        }
        final Path jar = Path.of(args[0]);
        final Path upgraded = jar.resolveSibling(jar.getFileName() + ".upgrading");
        try
        {
            final int count = upgrade(jar, upgraded);
            if (count > 0)
            {
                Files.move(upgraded, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            else
            {
                Files.deleteIfExists(upgraded);
            }
            System.err.println("LegacyBytecodeUpgrade: " + count + " classes of " + jar + " re-emitted as version " + UPGRADED_MAJOR);
        }
        catch (final IOException | UncheckedIOException | IllegalArgumentException e)
        {
            System.err.println("LegacyBytecodeUpgrade: " + jar + " left as it was: " + e.getMessage());
            System.exit(1);
        }
    }

    /**
     * Writes a copy of {@code jar} to {@code target} in which every class below version
     * {@link #FIRST_CACHED_MAJOR} is re-emitted as {@link #UPGRADED_MAJOR} with stack maps.
     *
     * @return how many classes were re-emitted
     * @throws IllegalArgumentException when a class cannot get stack maps (e.g. jsr/ret bytecode)
     */
    static int upgrade(final Path jar, final Path target) throws IOException
    {
        int count = 0;
        // stack maps merge types: the hierarchy of the jar's own classes comes from the jar, the JDK's from the JDK
        try (URLClassLoader classes = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
            InputStream in = Files.newInputStream(jar);
            ZipInputStream entries = new ZipInputStream(in);
            OutputStream out = Files.newOutputStream(target);
            ZipOutputStream copy = new ZipOutputStream(out))
        {
            final ClassFile classFile = ClassFile.of(
                ClassFile.StackMapsOption.GENERATE_STACK_MAPS,
                ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
                    .orElse(ClassHierarchyResolver.ofResourceParsing(classes))));
            // re-emitting every method body is what makes the writer compute its stack maps
            final ClassTransform reemit = ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL)
                .andThen((builder, element) -> builder.with(
                    element instanceof ClassFileVersion ? ClassFileVersion.of(UPGRADED_MAJOR, 0) : element));
            for (ZipEntry entry = entries.getNextEntry(); entry != null; entry = entries.getNextEntry())
            {
                byte[] bytes = entries.readAllBytes();
                if (isOldClass(entry.getName(), bytes))
                {
                    bytes = classFile.transformClass(classFile.parse(bytes), reemit);
                    count++;
                }
                final ZipEntry copied = new ZipEntry(entry.getName());
                copied.setTime(entry.getTime());
                copy.putNextEntry(copied);
                copy.write(bytes);
                copy.closeEntry();
            }
        }
        return count;
    }

    /** A class file (not a multi-release one under META-INF) below {@link #FIRST_CACHED_MAJOR}. */
    static boolean isOldClass(final String entryName, final byte[] bytes)
    {
        return entryName.endsWith(".class") && !entryName.startsWith("META-INF/") &&
            bytes.length > MAJOR_VERSION_OFFSET + 1 && majorVersion(bytes) < FIRST_CACHED_MAJOR;
    }

    static int majorVersion(final byte[] classBytes)
    {
        return ((classBytes[MAJOR_VERSION_OFFSET] & 0xff) << 8) | (classBytes[MAJOR_VERSION_OFFSET + 1] & 0xff);
    }
}
