package dev.rdmacm.protocol.fuzz;

import dev.rdmacm.protocol.mad.MadHeader;
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
 * Finds every decoder in cm-protocol's main classes: a public concrete class with a public no-argument
 * constructor and at least one entry point, a public {@code wrap...(DirectBuffer, int, int)}
 * ({@code wrap}, and e.g. {@code wrapMad} of the CM messages). Found rather than listed, so that a
 * codec added later is fuzzed without anyone remembering to register it.
 */
final class DecoderDiscovery
{
    private static final String ROOT_PACKAGE = "dev.rdmacm.protocol";

    private DecoderDiscovery()
    {
    }

    static List<Class<?>> decoders()
    {
        final Path classes = classesDirectory();
        final List<Class<?>> decoders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList())
            {
                final String relative = classes.relativize(file).toString();
                final String name = relative.substring(0, relative.length() - ".class".length()).replace('/', '.');
                if (!name.startsWith(ROOT_PACKAGE) || name.contains("$"))
                {
                    continue;
                }
                final Class<?> type = Class.forName(name, false, DecoderDiscovery.class.getClassLoader());
                if (isDecoder(type))
                {
                    decoders.add(type);
                }
            }
        }
        catch (final IOException | ClassNotFoundException ex)
        {
            throw new AssertionError("cannot list cm-protocol's classes under " + classes, ex);
        }
        decoders.sort(Comparator.comparing(Class::getName));
        return decoders;
    }

    /** The entry points of a decoder: every public {@code wrap...(DirectBuffer, int, int)}. */
    static List<Method> wrapMethods(final Class<?> type)
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
    static List<Method> getters(final Class<?> type)
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

    private static Path classesDirectory()
    {
        try
        {
            final Path location = Path.of(MadHeader.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isDirectory(location))
            {
                throw new AssertionError("cm-protocol's classes are not a directory (" + location +
                    "); run the fuzz test from the cm-protocol module");
            }
            return location;
        }
        catch (final URISyntaxException ex)
        {
            throw new AssertionError("cannot locate cm-protocol's classes", ex);
        }
    }
}
