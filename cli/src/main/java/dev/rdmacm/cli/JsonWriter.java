package dev.rdmacm.cli;

import java.io.PrintWriter;

/**
 * Writes JSON with two-space indentation, one member per line, for the CLI's {@code --json} output.
 * The caller opens and closes objects and arrays in order; the writer places commas and indentation.
 */
final class JsonWriter
{
    private final PrintWriter out;
    private int depth;
    private boolean first = true;

    JsonWriter(final PrintWriter out)
    {
        this.out = out;
    }

    JsonWriter beginObject(final String name)
    {
        return open(name, '{');
    }

    JsonWriter beginArray(final String name)
    {
        return open(name, '[');
    }

    JsonWriter endObject()
    {
        return close('}');
    }

    JsonWriter endArray()
    {
        return close(']');
    }

    JsonWriter field(final String name, final String value)
    {
        member(name);
        out.print(value == null ? "null" : quote(value));
        return this;
    }

    JsonWriter field(final String name, final long value)
    {
        member(name);
        out.print(value);
        return this;
    }

    /** Ends the document with a newline. */
    void finish()
    {
        out.println();
        out.flush();
    }

    private JsonWriter open(final String name, final char bracket)
    {
        member(name);
        out.print(bracket);
        depth++;
        first = true;
        return this;
    }

    private JsonWriter close(final char bracket)
    {
        depth--;
        if (!first)
        {
            newline();
        }
        out.print(bracket);
        first = false;
        return this;
    }

    /** Starts a member: a comma after the previous one, a new indented line, the name when in an object. */
    private void member(final String name)
    {
        if (depth > 0)
        {
            if (!first)
            {
                out.print(',');
            }
            newline();
        }
        if (name != null)
        {
            out.print(quote(name));
            out.print(": ");
        }
        first = false;
    }

    private void newline()
    {
        out.println();
        out.print("  ".repeat(depth));
    }

    static String quote(final String text)
    {
        final StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            switch (c)
            {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default ->
                {
                    if (c < 0x20)
                    {
                        quoted.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
