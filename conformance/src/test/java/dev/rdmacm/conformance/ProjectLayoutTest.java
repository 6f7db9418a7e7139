package dev.rdmacm.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The house rules of issue 28 that a reader of the tree can check: one name, one concept (no two main
 * types of the reactor's modules share a simple name), and small files (no main class over 1,000
 * lines). The exceptions are listed by path, each with the reason it is still there; an exception that
 * no longer holds fails too, so the lists only shrink.
 */
@Timeout(60)
class ProjectLayoutTest
{
    static final int MAX_LINES = 1_000;

    /** Main classes over {@link #MAX_LINES} lines: none since the conductor rewrite (issue 28). */
    private static final Set<String> KNOWN_OVERSIZED = Set.of();

    /** Simple names that more than one main type still has: none today. */
    private static final Set<String> KNOWN_DUPLICATE_NAMES = Set.of();

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

    @Test
    void shouldGiveEveryMainTypeASimpleNameOfItsOwn()
    {
        final Map<String, List<String>> duplicates = duplicateNames(mainSources());

        assertEquals(KNOWN_DUPLICATE_NAMES, new TreeSet<>(duplicates.keySet()),
            "main types that share a simple name (rename one for what it is): " + duplicates);
    }

    @Test
    void shouldKeepEveryMainClassWithinAThousandLines()
    {
        final Map<String, Integer> oversized = oversized(mainSources());

        assertEquals(KNOWN_OVERSIZED, new TreeSet<>(oversized.keySet()),
            "main classes over " + MAX_LINES + " lines (split along a seam): " + oversized);
    }

    @Test
    void shouldFindTheMainSourcesOfEveryModule()
    {
        final List<Path> sources = mainSources();

        assertTrue(sources.contains(Path.of("cm-protocol/src/main/java/dev/rdmacm/protocol/mad/MadHeader.java")), "cm-protocol");
        assertTrue(sources.contains(Path.of("rdma-cm/src/main/java/dev/rdmacm/cm/RdmaCm.java")), "rdma-cm");
        assertTrue(sources.contains(Path.of("resolver/src/main/java/dev/rdmacm/resolver/engine/AddressResolver.java")), "resolver");
        assertTrue(sources.stream().noneMatch(p -> p.getFileName().toString().equals("module-info.java") ||
            p.getFileName().toString().equals("package-info.java")), "module-info and package-info are not types");
    }

    @Test
    void shouldTellTwoTypesOfOneName()
    {
        final Path first = Path.of("a/src/main/java/dev/x/Same.java");
        final Path second = Path.of("b/src/main/java/dev/y/Same.java");

        assertEquals(Map.of("Same", List.of(first.toString(), second.toString())),
            duplicateNames(List.of(first, second, Path.of("a/src/main/java/dev/x/Other.java"))));
    }

    /** Simple name to the paths of the main types that have it, for the names more than one type has. */
    static Map<String, List<String>> duplicateNames(final List<Path> sources)
    {
        final Map<String, List<String>> byName = new TreeMap<>();
        for (final Path source : sources)
        {
            final String file = source.getFileName().toString();
            byName.computeIfAbsent(file.substring(0, file.length() - ".java".length()), name -> new ArrayList<>())
                .add(source.toString());
        }
        byName.values().removeIf(paths -> paths.size() < 2);
        return byName;
    }

    /** Path to line count of the main sources over {@link #MAX_LINES} lines. */
    static Map<String, Integer> oversized(final List<Path> sources)
    {
        final Path root = root();
        final Map<String, Integer> oversized = new TreeMap<>();
        for (final Path source : sources)
        {
            final int lines = lines(root.resolve(source));
            if (lines > MAX_LINES)
            {
                oversized.put(source.toString(), lines);
            }
        }
        return oversized;
    }

    /** Every main *.java of every module the root pom lists, relative to the root, but module-info and package-info. */
    static List<Path> mainSources()
    {
        final Path root = root();
        final List<Path> sources = new ArrayList<>();
        for (final String module : modules(root))
        {
            final Path main = root.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(main))
            {
                continue;
            }
            try (Stream<Path> files = Files.walk(main))
            {
                files.filter(p -> p.getFileName().toString().endsWith(".java"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.java"))
                    .filter(p -> !p.getFileName().toString().equals("package-info.java"))
                    .map(root::relativize)
                    .sorted()
                    .forEach(sources::add);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        return sources;
    }

    static List<String> modules(final Path root)
    {
        final Matcher matcher = MODULE.matcher(read(root.resolve("pom.xml")));
        final List<String> modules = new ArrayList<>();
        while (matcher.find())
        {
            modules.add(matcher.group(1).trim());
        }
        assertTrue(modules.size() > 10, "the root pom lists the modules: " + modules);
        return modules;
    }

    /** The reactor's root: the directory above the working directory with the pom that lists conformance. */
    static Path root()
    {
        Path directory = Path.of("").toAbsolutePath();
        while (directory != null && !(Files.isRegularFile(directory.resolve("pom.xml")) &&
            read(directory.resolve("pom.xml")).contains("<module>conformance</module>")))
        {
            directory = directory.getParent();
        }
        assertNotNull(directory, "the reactor's root (its pom.xml lists conformance) above " + Path.of("").toAbsolutePath());
        return directory;
    }

    private static int lines(final Path file)
    {
        try
        {
            return Files.readAllLines(file, StandardCharsets.UTF_8).size();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static String read(final Path file)
    {
        try
        {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
