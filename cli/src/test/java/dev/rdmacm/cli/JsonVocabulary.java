package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.protocol.Ipv6Text;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CLI's JSON vocabulary as docs/json.md writes it down, read from that page: its "Commands" table
 * (command to result object) and one field table per object ({@code ### Object `NAME`}, rows
 * {@code | `field` | TYPE | meaning |}). {@link #check} holds a printed object to it: every field the
 * object has is in its table, every field not marked optional is there, each value has the type the
 * table says. So the page and the output cannot drift apart: a field added, renamed or retyped on one
 * side only fails the contract test. Public for the guest tests (conformance), which check what the
 * commands print on a real RDMA port.
 */
public final class JsonVocabulary
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern OBJECT_HEADING = Pattern.compile("^### Object `([a-z_]+)`\\s*$");
    private static final Pattern FIELD_ROW = Pattern.compile("^\\| `([a-z_]+)` \\| ([^|]+) \\|.*\\|\\s*$");
    private static final Pattern COMMAND_ROW = Pattern.compile("^\\| `([a-z-]+)` \\| `([a-z_]+)`.*\\|\\s*$");
    private static final Pattern HEX = Pattern.compile("0x[0-9a-f]+");
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern SOCKADDR = Pattern.compile("(?:\\[(.+)]|([0-9.]+)):(\\d+)");
    private static final Pattern ZONE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.@-]*");

    /** One row: the type text ({@code array of object step or null}) and whether the field may be absent. */
    record Field(String type, boolean optional)
    {
    }

    private final Map<String, Map<String, Field>> objects;
    private final Map<String, String> results;

    private JsonVocabulary(final Map<String, Map<String, Field>> objects, final Map<String, String> results)
    {
        this.objects = objects;
        this.results = results;
    }

    /** The page of this checkout: the cli module runs in cli/, the page is ../docs/json.md. */
    public static JsonVocabulary ofThisCheckout()
    {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("docs/json.md")))
        {
            dir = dir.getParent();
        }
        if (dir == null)
        {
            throw new IllegalStateException("no docs/json.md above " + Path.of("").toAbsolutePath());
        }
        return parse(dir.resolve("docs/json.md"));
    }

    static JsonVocabulary parse(final Path page)
    {
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(page);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final Map<String, Map<String, Field>> objects = new LinkedHashMap<>();
        final Map<String, String> results = new LinkedHashMap<>();
        Map<String, Field> current = null;
        boolean inCommands = false;
        for (final String line : lines)
        {
            final Matcher heading = OBJECT_HEADING.matcher(line);
            if (heading.matches())
            {
                current = new LinkedHashMap<>();
                objects.put(heading.group(1), current);
                continue;
            }
            if (line.startsWith("#"))
            {
                current = null;
                inCommands = line.equals("## Commands");
                continue;
            }
            if (inCommands)
            {
                final Matcher row = COMMAND_ROW.matcher(line);
                if (row.matches())
                {
                    results.put(row.group(1), row.group(2));
                }
                continue;
            }
            if (current != null)
            {
                final Matcher row = FIELD_ROW.matcher(line);
                if (row.matches())
                {
                    final String type = row.group(2).trim();
                    final boolean optional = type.endsWith(", *optional*");
                    current.put(row.group(1), new Field(optional ? type.substring(0, type.length() - ", *optional*".length()) : type,
                        optional));
                }
            }
        }
        return new JsonVocabulary(objects, results);
    }

    Map<String, Map<String, Field>> objects()
    {
        return objects;
    }

    /** The result object the Commands table names for {@code command}. */
    public String resultOf(final String command)
    {
        final String name = results.get(command);
        if (name == null)
        {
            throw new AssertionError("docs/json.md's Commands table has no row for " + command);
        }
        return name;
    }

    /** Parses {@code line} as JSON and checks it as object {@code name}. */
    public JsonNode check(final String name, final String line)
    {
        final JsonNode node;
        try
        {
            node = JSON.readTree(line);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("not one JSON text: " + line, ex);
        }
        check(name, node, "$");
        return node;
    }

    /** Fails with the path of the first value that breaks the vocabulary. */
    void check(final String name, final JsonNode node, final String path)
    {
        final String problem = problem(name, node, path);
        if (problem != null)
        {
            throw new AssertionError(problem + "\n in " + node);
        }
    }

    /** What is wrong with {@code node} as object {@code name}, or null. */
    private String problem(final String name, final JsonNode node, final String path)
    {
        final Map<String, Field> fields = objects.get(name);
        if (fields == null)
        {
            return path + ": docs/json.md has no object " + name;
        }
        if (!node.isObject())
        {
            return path + ": expected object " + name + ", got " + node;
        }
        for (final Iterator<String> names = node.fieldNames(); names.hasNext(); )
        {
            final String field = names.next();
            if (!fields.containsKey(field))
            {
                return path + "." + field + ": no such field in docs/json.md's object " + name;
            }
        }
        for (final Map.Entry<String, Field> field : fields.entrySet())
        {
            final JsonNode value = node.get(field.getKey());
            if (value == null)
            {
                if (!field.getValue().optional())
                {
                    return path + "." + field.getKey() + ": missing (object " + name + ")";
                }
                continue;
            }
            final String problem = typeProblem(field.getValue().type(), value, path + "." + field.getKey());
            if (problem != null)
            {
                return problem;
            }
        }
        return null;
    }

    /**
     * What is wrong with {@code value} as {@code type}, or null: {@code null or T} may be null,
     * {@code array of T} is an array whose every element is a T, {@code one of `A`, `B` or `C`} a string
     * of that set, {@code A or B} is either.
     */
    private String typeProblem(final String type, final JsonNode value, final String path)
    {
        if (type.startsWith("null or "))
        {
            return value.isNull() ? null : typeProblem(type.substring("null or ".length()), value, path);
        }
        if (type.startsWith("array of "))
        {
            if (!value.isArray())
            {
                return path + ": expected " + type + ", got " + value;
            }
            for (int i = 0; i < value.size(); i++)
            {
                final String problem = typeProblem(type.substring("array of ".length()), value.get(i), path + "[" + i + "]");
                if (problem != null)
                {
                    return problem;
                }
            }
            return null;
        }
        if (type.startsWith("one of "))
        {
            // a string from a closed set: one of `A`, `B` or `C`
            final List<String> names = List.of(type.substring("one of ".length()).replace("`", "").split(", | or "));
            return value.isTextual() && names.contains(value.asText()) ? null : path + ": expected " + type + ", got " + value;
        }
        final List<String> problems = new ArrayList<>();
        for (final String alternative : type.split(" or "))
        {
            final String problem = single(alternative.trim(), value, path);
            if (problem == null)
            {
                return null;
            }
            problems.add(problem);
        }
        return String.join("; ", problems);
    }

    private String single(final String type, final JsonNode value, final String path)
    {
        if (type.startsWith("object "))
        {
            return problem(type.substring(7), value, path);
        }
        final boolean ok = switch (type)
        {
            case "null" -> value.isNull();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "decimal" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "hex" -> value.isTextual() && HEX.matcher(value.asText()).matches();
            case "gid" -> value.isTextual() && isRfc5952(value.asText());
            case "address" -> value.isTextual() && isAddress(value.asText());
            case "sockaddr" -> value.isTextual() && isSockaddr(value.asText());
            default -> throw new AssertionError("docs/json.md: unknown type '" + type + "' at " + path);
        };
        return ok ? null : path + ": expected " + type + ", got " + value;
    }

    /** An IP address as docs/json.md's Addresses table has it: dotted IPv4, or RFC 5952 IPv6 with a named zone. */
    static boolean isAddress(final String text)
    {
        if (IPV4.matcher(text).matches())
        {
            return true;
        }
        final int percent = text.indexOf('%');
        if (percent < 0)
        {
            return isRfc5952(text);
        }
        return isRfc5952(text.substring(0, percent)) && ZONE_NAME.matcher(text.substring(percent + 1)).matches();
    }

    /** {@code ADDR:PORT} or {@code [ADDR]:PORT}. */
    static boolean isSockaddr(final String text)
    {
        final Matcher matcher = SOCKADDR.matcher(text);
        return matcher.matches() && isAddress(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
    }

    /** IPv6 text exactly as inet_ntop writes the same bytes: compressed, lower case. */
    static boolean isRfc5952(final String text)
    {
        if (!text.contains(":"))
        {
            return false;
        }
        try
        {
            return Ipv6Text.format(Ipv6Text.parse(text, "address")).equals(text);
        }
        catch (final IllegalArgumentException ex)
        {
            return false;
        }
    }
}
