package dev.rdmacm.cli.json;

import java.math.BigDecimal;

/**
 * Writes one JSON text (RFC 8259) to a {@link StringBuilder}, token by token, compact: no whitespace
 * between tokens. The separators are its only state: a comma goes before a member or an element that
 * follows another. The caller nests the begin and end calls properly and names every member of an
 * object; nothing is checked beyond what the types enforce, since every caller is in this package.
 * <p>
 * Strings are escaped as Jackson's default generator escapes them, so that the CLI's output stayed byte
 * for byte what it was when Jackson wrote it: {@code \"} and {@code \\}, the short forms {@code \b \t \n
 * \f \r}, every other control character below U+0020 as {@code \}{@code u00XX} with upper-case hex digits;
 * everything else, {@code /}, DEL and non-ASCII included, as it is (the output is UTF-8).
 */
final class JsonWriter
{
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final StringBuilder out;
    /** Whether the next member or element follows another in the same container, so needs a comma. */
    private boolean afterValue;

    JsonWriter(final StringBuilder out)
    {
        this.out = out;
    }

    JsonWriter beginObject()
    {
        separate();
        out.append('{');
        afterValue = false;
        return this;
    }

    JsonWriter endObject()
    {
        out.append('}');
        afterValue = true;
        return this;
    }

    JsonWriter beginArray()
    {
        separate();
        out.append('[');
        afterValue = false;
        return this;
    }

    JsonWriter endArray()
    {
        out.append(']');
        afterValue = true;
        return this;
    }

    /** A member's name and its colon; its value is the next call. */
    JsonWriter name(final String name)
    {
        separate();
        string(name);
        out.append(':');
        afterValue = false;
        return this;
    }

    JsonWriter value(final String value)
    {
        separate();
        if (value == null)
        {
            out.append("null");
        }
        else
        {
            string(value);
        }
        afterValue = true;
        return this;
    }

    JsonWriter value(final long value)
    {
        separate();
        out.append(value);
        afterValue = true;
        return this;
    }

    JsonWriter value(final boolean value)
    {
        separate();
        out.append(value);
        afterValue = true;
        return this;
    }

    JsonWriter nullValue()
    {
        separate();
        out.append("null");
        afterValue = true;
        return this;
    }

    /** Whether {@code value} is one of the types a {@link JsonObject} or a {@link JsonArray} holds. */
    static boolean isTreeValue(final Object value)
    {
        return value == null || value instanceof String || value instanceof Integer || value instanceof Long
            || value instanceof BigDecimal || value instanceof Boolean || value instanceof JsonObject || value instanceof JsonArray;
    }

    /**
     * One value of an object or an array, by its type (only the types {@link #isTreeValue} accepts get in).
     * An instanceof chain, not a pattern switch: that one bootstraps a class at run time, on every start.
     */
    JsonWriter treeValue(final Object value)
    {
        if (value == null)
        {
            nullValue();
        }
        else if (value instanceof String text)
        {
            value(text);
        }
        else if (value instanceof Integer || value instanceof Long)
        {
            value(((Number)value).longValue());
        }
        else if (value instanceof BigDecimal decimal)
        {
            separate();
            out.append(decimal.toPlainString());
            afterValue = true;
        }
        else if (value instanceof Boolean bool)
        {
            value(bool.booleanValue());
        }
        else if (value instanceof JsonObject object)
        {
            object.writeTo(this);
        }
        else
        {
            ((JsonArray)value).writeTo(this);
        }
        return this;
    }

    private void separate()
    {
        if (afterValue)
        {
            out.append(',');
        }
    }

    private void string(final String value)
    {
        out.append('"');
        final int length = value.length();
        int plain = 0;
        for (int i = 0; i < length; i++)
        {
            final char c = value.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\')
            {
                continue;
            }
            out.append(value, plain, i);
            plain = i + 1;
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\f' -> out.append("\\f");
                case '\r' -> out.append("\\r");
                default -> out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
        }
        out.append(value, plain, length).append('"');
    }
}
