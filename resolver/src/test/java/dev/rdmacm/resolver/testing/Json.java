package dev.rdmacm.resolver.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON that {@code ip -j} prints into maps, lists, strings, longs, doubles and booleans:
 * just enough to compare our decoders with iproute2 field by field.
 */
public final class Json
{
    private final String text;
    private int position;

    private Json(final String text)
    {
        this.text = text;
    }

    public static Object parse(final String text)
    {
        final Json json = new Json(text);
        final Object value = json.value();
        json.skipSpace();
        if (json.position != text.length())
        {
            throw new IllegalArgumentException("trailing text after JSON value at " + json.position + ": " + text);
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> parseArrayOfObjects(final String text)
    {
        return (List<Map<String, Object>>)parse(text.isBlank() ? "[]" : text);
    }

    private Object value()
    {
        skipSpace();
        final char c = text.charAt(position);
        switch (c)
        {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                expect("true");
                return Boolean.TRUE;
            case 'f':
                expect("false");
                return Boolean.FALSE;
            case 'n':
                expect("null");
                return null;
            default:
                return number();
        }
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        position++;
        skipSpace();
        if (text.charAt(position) == '}')
        {
            position++;
            return map;
        }
        while (true)
        {
            skipSpace();
            final String key = string();
            skipSpace();
            expect(":");
            map.put(key, value());
            skipSpace();
            if (text.charAt(position++) == '}')
            {
                return map;
            }
        }
    }

    private List<Object> array()
    {
        final List<Object> list = new ArrayList<>();
        position++;
        skipSpace();
        if (text.charAt(position) == ']')
        {
            position++;
            return list;
        }
        while (true)
        {
            list.add(value());
            skipSpace();
            if (text.charAt(position++) == ']')
            {
                return list;
            }
        }
    }

    private String string()
    {
        expect("\"");
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            final char c = text.charAt(position++);
            if (c == '"')
            {
                return out.toString();
            }
            if (c == '\\')
            {
                final char escaped = text.charAt(position++);
                switch (escaped)
                {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'u' ->
                    {
                        out.append((char)Integer.parseInt(text.substring(position, position + 4), 16));
                        position += 4;
                    }
                    default -> out.append(escaped);
                }
            }
            else
            {
                out.append(c);
            }
        }
    }

    private Object number()
    {
        final int start = position;
        while (position < text.length() && "+-0123456789.eE".indexOf(text.charAt(position)) >= 0)
        {
            position++;
        }
        final String number = text.substring(start, position);
        if (number.isEmpty())
        {
            throw new IllegalArgumentException("unexpected '" + text.charAt(start) + "' at " + start + ": " + text);
        }
        return number.contains(".") || number.contains("e") ? (Object)Double.parseDouble(number) : (Object)Long.parseLong(number);
    }

    private void expect(final String token)
    {
        if (!text.startsWith(token, position))
        {
            throw new IllegalArgumentException("expected '" + token + "' at " + position + ": " + text);
        }
        position += token.length();
    }

    private void skipSpace()
    {
        while (position < text.length() && Character.isWhitespace(text.charAt(position)))
        {
            position++;
        }
    }
}
