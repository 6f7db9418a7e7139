package dev.rdmacm.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.rdmacm.conformance.ProjectLayoutTest.modules;
import static dev.rdmacm.conformance.ProjectLayoutTest.read;
import static dev.rdmacm.conformance.ProjectLayoutTest.root;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code docs/architecture.md} matches the module graph: its module table has a row for every module of
 * the reactor, and each row's "depends on" column names exactly the project modules that the module's
 * pom depends on outside the test scope. A dependency added or dropped in a pom without the picture
 * following it fails here.
 */
@Timeout(60)
class ArchitectureDocTest
{
    private static final Pattern DEPENDENCY = Pattern.compile("(?s)<dependency>(.*?)</dependency>");
    private static final Pattern MANAGEMENT = Pattern.compile("(?s)<dependencyManagement>.*?</dependencyManagement>");
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z-]+)` \\|(.*)\\|\\s*$");
    private static final String DEPENDS_ON = "depends on";

    @Test
    void shouldNameEveryModulesDependenciesAsItsPomHasThem()
    {
        final Path root = root();
        final Map<String, Set<String>> poms = new TreeMap<>();
        for (final String module : modules(root))
        {
            poms.put(module, projectDependencies(read(root.resolve(module).resolve("pom.xml"))));
        }

        assertEquals(poms, documented(read(root.resolve("docs/architecture.md"))),
            "docs/architecture.md's module table (module -> depends on) against the poms");
    }

    @Test
    void shouldReadOnlyTheDependenciesOutsideTheTestScope()
    {
        final String pom = """
            <dependencies>
              <dependency><groupId>dev.rdmacm</groupId><artifactId>libc</artifactId></dependency>
              <dependency><groupId>dev.rdmacm</groupId><artifactId>files</artifactId><scope>runtime</scope></dependency>
              <dependency><groupId>dev.rdmacm</groupId><artifactId>test-support</artifactId><scope>test</scope></dependency>
              <dependency><groupId>org.agrona</groupId><artifactId>agrona</artifactId></dependency>
            </dependencies>""";

        assertEquals(Set.of("libc", "files"), projectDependencies(pom));
    }

    /** The project modules a pom depends on, test scope left out, and what it only manages (a BOM's list) too. */
    static Set<String> projectDependencies(final String pom)
    {
        final Set<String> dependencies = new TreeSet<>();
        final Matcher dependency = DEPENDENCY.matcher(MANAGEMENT.matcher(pom).replaceAll(""));
        while (dependency.find())
        {
            final String body = dependency.group(1);
            if (body.contains("<groupId>dev.rdmacm</groupId>") && !body.contains("<scope>test</scope>"))
            {
                dependencies.add(tag(body, "artifactId"));
            }
        }
        return dependencies;
    }

    /** Module to its "depends on" cell, from the table under "## Modules". */
    static Map<String, Set<String>> documented(final String doc)
    {
        final int section = doc.indexOf("\n## Modules");
        assertTrue(section >= 0, "docs/architecture.md has a '## Modules' section");
        final String table = doc.substring(section);
        final List<String> header = cells(table.lines().filter(line -> line.startsWith("| module |")).findFirst()
            .orElseThrow(() -> new AssertionError("the module table has a header row starting '| module |'")));
        final int column = header.indexOf(DEPENDS_ON);
        assertTrue(column > 0, "the module table has a '" + DEPENDS_ON + "' column: " + header);

        final Map<String, Set<String>> documented = new TreeMap<>();
        final Matcher row = ROW.matcher(table);
        while (row.find())
        {
            final List<String> cells = cells(row.group(0));
            final Set<String> dependencies = new TreeSet<>();
            for (final String name : cells.get(column).split(",\\s*"))
            {
                if (!name.isBlank() && !name.equals("—"))
                {
                    dependencies.add(name.replace("`", "").trim());
                }
            }
            documented.put(row.group(1), dependencies);
        }
        return documented;
    }

    private static List<String> cells(final String row)
    {
        final String inner = row.strip();
        return List.of(inner.substring(1, inner.length() - 1).split("\\|", -1)).stream().map(String::strip).toList();
    }

    private static String tag(final String xml, final String name)
    {
        final int start = xml.indexOf("<" + name + ">") + name.length() + 2;
        return xml.substring(start, xml.indexOf("</" + name + ">", start)).trim();
    }
}
