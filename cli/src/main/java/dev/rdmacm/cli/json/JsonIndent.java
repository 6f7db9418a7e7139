package dev.rdmacm.cli.json;

/**
 * Compact JSON made readable, for {@code --pretty}: a member or an element a line, four spaces a level
 * and {@code ": "} after a name, as iproute2's and rdma-core's {@code -j -p} print; an empty object or
 * array stays {@code {}} / {@code []}. It reads the text {@link JsonWriter} wrote, so it only needs to
 * know where strings begin and end.
 */
public final class JsonIndent
{
    private static final String INDENT = "    ";

    private JsonIndent()
    {
    }

    public static String indent(final String compact)
    {
        final StringBuilder out = new StringBuilder(compact.length() * 2);
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < compact.length(); i++)
        {
            final char c = compact.charAt(i);
            if (inString)
            {
                out.append(c);
                if (c == '\\')
                {
                    out.append(compact.charAt(++i));
                }
                else if (c == '"')
                {
                    inString = false;
                }
                continue;
            }
            switch (c)
            {
                case '"' ->
                {
                    inString = true;
                    out.append(c);
                }
                case '{', '[' ->
                {
                    out.append(c);
                    final char next = i + 1 < compact.length() ? compact.charAt(i + 1) : ' ';
                    if (next == '}' || next == ']')
                    {
                        out.append(next);
                        i++;
                    }
                    else
                    {
                        newline(out, ++depth);
                    }
                }
                case '}', ']' ->
                {
                    newline(out, --depth);
                    out.append(c);
                }
                case ',' ->
                {
                    out.append(c);
                    newline(out, depth);
                }
                case ':' -> out.append(": ");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static void newline(final StringBuilder out, final int depth)
    {
        out.append('\n');
        for (int i = 0; i < depth; i++)
        {
            out.append(INDENT);
        }
    }
}
