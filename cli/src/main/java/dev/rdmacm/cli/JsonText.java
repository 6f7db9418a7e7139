package dev.rdmacm.cli;

import java.util.List;
import java.util.Map;

/** Writes maps, lists, strings, numbers, booleans and null as compact JSON, keys in insertion order. */
final class JsonText
{
    private JsonText()
    {
    }

    static String write(final Object value)
    {
        final StringBuilder out = new StringBuilder(256);
        append(out, value);
        return out.toString();
    }

    private static void append(final StringBuilder out, final Object value)
    {
        if (value == null)
        {
            out.append("null");
        }
        else if (value instanceof String text)
        {
            quote(out, text);
        }
        else if (value instanceof Number || value instanceof Boolean)
        {
            out.append(value);
        }
        else if (value instanceof Map<?, ?> map)
        {
            out.append('{');
            boolean first = true;
            for (final Map.Entry<?, ?> entry : map.entrySet())
            {
                if (!first)
                {
                    out.append(',');
                }
                first = false;
                quote(out, String.valueOf(entry.getKey()));
                out.append(':');
                append(out, entry.getValue());
            }
            out.append('}');
        }
        else if (value instanceof List<?> list)
        {
            out.append('[');
            for (int i = 0; i < list.size(); i++)
            {
                if (i > 0)
                {
                    out.append(',');
                }
                append(out, list.get(i));
            }
            out.append(']');
        }
        else
        {
            quote(out, value.toString());
        }
    }

    private static void quote(final StringBuilder out, final String text)
    {
        out.append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                default ->
                {
                    if (c < 0x20)
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
