package dev.rdmacm.protocol.fuzz;

import org.agrona.DirectBuffer;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds every decoder in a module's main classes (cm-protocol's, netlink's): a public concrete class with a public no-argument
 * constructor and at least one entry point, a public {@code wrap...(DirectBuffer, int, int)}
 * ({@code wrap}, and e.g. {@code wrapMad} of the CM messages). Found rather than listed, so that a
 * codec added later is fuzzed without anyone remembering to register it.
 */
public final class DecoderDiscovery
{
    private DecoderDiscovery()
    {
    }

    /**
     * The decoders in the classes directory that holds {@code anchor}, in {@code rootPackage} and the
     * packages under it.
     */
    public static List<Class<?>> decoders(final Class<?> anchor, final String rootPackage)
    {
        final Path classes = classesDirectory(anchor);
        final List<Class<?>> decoders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList())
            {
                final String relative = classes.relativize(file).toString();
                final String name = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
                if (!name.startsWith(rootPackage + ".") || name.contains("$"))
                {
                    continue;
                }
                final Class<?> type = Class.forName(name, false, anchor.getClassLoader());
                if (isDecoder(type))
                {
                    decoders.add(type);
                }
            }
        }
        catch (final IOException | ClassNotFoundException ex)
        {
            throw new AssertionError("cannot list the classes under " + classes, ex);
        }
        decoders.sort(Comparator.comparing(Class::getName));
        return decoders;
    }

    /** The entry points of a decoder: every public {@code wrap...(DirectBuffer, int, int)}. */
    public static List<Method> wrapMethods(final Class<?> type)
    {
        final List<Method> wraps = new ArrayList<>();
        for (final Method method : type.getMethods())
        {
            if (method.getName().startsWith("wrap") && !Modifier.isStatic(method.getModifiers()) &&
                Arrays.equals(method.getParameterTypes(), new Class<?>[] {DirectBuffer.class, int.class, int.class}))
            {
                wraps.add(method);
            }
        }
        wraps.sort(Comparator.comparing(Method::getName));
        return wraps;
    }

    /** Every public getter: no parameters, a result, not one of Object's (toString is called apart). */
    public static List<Method> getters(final Class<?> type)
    {
        final List<Method> getters = new ArrayList<>();
        for (final Method method : type.getMethods())
        {
            if (method.getParameterCount() == 0 && method.getReturnType() != void.class &&
                !Modifier.isStatic(method.getModifiers()) && method.getDeclaringClass() != Object.class &&
                !method.getDeclaringClass().isEnum() && !method.getName().startsWith("wrap"))
            {
                getters.add(method);
            }
        }
        getters.sort(Comparator.comparing(Method::getName));
        return getters;
    }

    private static boolean isDecoder(final Class<?> type)
    {
        if (!Modifier.isPublic(type.getModifiers()) || Modifier.isAbstract(type.getModifiers()) || type.isInterface())
        {
            return false;
        }
        try
        {
            type.getConstructor();
            return !wrapMethods(type).isEmpty();
        }
        catch (final NoSuchMethodException ex)
        {
            return false;
        }
    }

    private static Path classesDirectory(final Class<?> anchor)
    {
        try
        {
            final Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isDirectory(location))
            {
                throw new AssertionError(anchor.getName() + "'s classes are not a directory (" + location +
                    "); run the fuzz test from that class's module");
            }
            return location;
        }
        catch (final URISyntaxException ex)
        {
            throw new AssertionError("cannot locate " + anchor.getName() + "'s classes", ex);
        }
    }
}
