package dev.rdmacm.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON that the tools the tests compare with print: {@code tshark -T ek} (one document a
 * line), {@code rdma -j} and {@code ip -j}. Objects, arrays and strings become {@link Map},
 * {@link List} and {@link String}; numbers, booleans and null stay as their text. Enough for their
 * output, not a general JSON library; it costs no start-up, where a JSON library's first use takes
 * seconds in a JVM under QEMU's TCG.
 */
public final class EkJson
{
    private final String text;
    private int position;

    private EkJson(final String text)
    {
        this.text = text;
    }

    public static Object parse(final String line)
    {
        final EkJson parser = new EkJson(line);
        final Object value = parser.value();
        parser.skipWhitespace();
        if (parser.position != line.length())
        {
            throw parser.error("trailing characters");
        }
        return value;
    }

    private Object value()
    {
        skipWhitespace();
        if (position >= text.length())
        {
            throw error("unexpected end");
        }
        return switch (text.charAt(position))
        {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            default -> literal();
        };
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> object = new LinkedHashMap<>();
        position++;
        skipWhitespace();
        if (peek() == '}')
        {
            position++;
            return object;
        }
        while (true)
        {
            skipWhitespace();
            final String key = string();
            skipWhitespace();
            expect(':');
            object.put(key, value());
            skipWhitespace();
            if (peek() == ',')
            {
                position++;
                continue;
            }
            expect('}');
            return object;
        }
    }

    private List<Object> array()
    {
        final List<Object> array = new ArrayList<>();
        position++;
        skipWhitespace();
        if (peek() == ']')
        {
            position++;
            return array;
        }
        while (true)
        {
            array.add(value());
            skipWhitespace();
            if (peek() == ',')
            {
                position++;
                continue;
            }
            expect(']');
            return array;
        }
    }

    private String string()
    {
        expect('"');
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            final char c = next();
            if (c == '"')
            {
                return out.toString();
            }
            if (c != '\\')
            {
                out.append(c);
                continue;
            }
            final char escaped = next();
            switch (escaped)
            {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' ->
                {
                    out.append((char)Integer.parseInt(text.substring(position, position + 4), 16));
                    position += 4;
                }
                default -> out.append(escaped);
            }
        }
    }

    private String literal()
    {
        final int start = position;
        while (position < text.length() && ",}] \t".indexOf(text.charAt(position)) < 0)
        {
            position++;
        }
        return text.substring(start, position);
    }

    private void skipWhitespace()
    {
        while (position < text.length() && Character.isWhitespace(text.charAt(position)))
        {
            position++;
        }
    }

    private char peek()
    {
        if (position >= text.length())
        {
            throw error("unexpected end");
        }
        return text.charAt(position);
    }

    private char next()
    {
        final char c = peek();
        position++;
        return c;
    }

    private void expect(final char c)
    {
        if (next() != c)
        {
            throw error("expected '" + c + "'");
        }
    }

    private IllegalStateException error(final String what)
    {
        return new IllegalStateException("JSON, column " + position + ": " + what + " in " + text);
    }
}
