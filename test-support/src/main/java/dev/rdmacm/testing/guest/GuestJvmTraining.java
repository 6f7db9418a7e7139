package dev.rdmacm.testing.guest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The training workload for the guest JVM's AOT cache ({@link GuestJvm}): run on the host, it loads
 * and links what every in-guest run needs (the JUnit launcher, Jupiter's engine, extensions and
 * assertions) and this project's classes, so the guest JVM, which runs ten times slower under TCG,
 * starts with them ready.
 */
class GuestJvmTraining
{
    /** The system property that lists the jars whose every class the training loads, {@code :}-separated. */
    static final String LOAD = "rdmacm.guest.training.load";

    @TempDir
    Path directory;

    /**
     * Loads and links (without initialising) every class of the {@link #LOAD} jars, the checkout's, so that the cache holds them
     * too: a class that cannot be loaded here (a missing optional dependency) is left out, as the guest would not load it. The
     * native bindings' holders of downcall handles are initialised ({@link #holdsAHandle}).
     */
    @Test
    void shouldLoadEveryClassOfTheCheckoutsJars() throws IOException
    {
        int loaded = 0;
        final String jars = System.getProperty(LOAD, "");
        for (final String jar : jars.isEmpty() ? new String[0] : jars.split(":"))
        {
            try (JarFile file = new JarFile(jar))
            {
                for (final JarEntry entry : Collections.list(file.entries()))
                {
                    final String name = entry.getName();
                    if (name.endsWith(".class") && !name.startsWith("META-INF/") && !name.endsWith("module-info.class"))
                    {
                        try
                        {
                            // linked, not initialised: the cache keeps only linked classes, and reflection links
                            final Class<?> type = Class.forName(name.substring(0, name.length() - ".class".length()).replace('/', '.'),
                                false, GuestJvmTraining.class.getClassLoader());
                            type.getDeclaredMethods();
                            loaded++;
                            if (holdsAHandle(type))
                            {
                                Class.forName(type.getName(), true, type.getClassLoader());
                            }
                        }
                        catch (final ClassNotFoundException | LinkageError notHere)
                        {
                            // left out of the cache: the guest loads it from its jar, if ever
                        }
                    }
                }
            }
        }
        assertTrue(jars.isEmpty() || loaded > 0, "no class loaded from " + jars);
    }

    /**
     * Whether {@code type} is a nested holder of a static method handle (the FFM bindings' downcalls, one holder each):
     * initialised, it makes the JDK load the foreign linker's classes, some 1,200 outside the JDK's own archive, which the
     * cache then holds too; each in-guest JVM that opened an RdmaCm loaded them from the JDK's image under TCG.
     */
    private static boolean holdsAHandle(final Class<?> type)
    {
        return type.isMemberClass() && Arrays.stream(type.getDeclaredFields()).anyMatch(field ->
            Modifier.isStatic(field.getModifiers()) && field.getType() == MethodHandle.class);
    }

    @Test
    void shouldPassAnAssertion() throws IOException
    {
        Files.writeString(directory.resolve("training"), "trained");

        assertEquals(List.of("trained"), Files.readAllLines(directory.resolve("training")));
    }

    @Test
    void shouldCatchAnException()
    {
        assertThrows(IllegalStateException.class, () ->
        {
            throw new IllegalStateException("training");
        });
    }
}
