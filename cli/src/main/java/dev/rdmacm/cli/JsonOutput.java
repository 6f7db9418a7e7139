package dev.rdmacm.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The one Jackson configuration behind every {@code --json} output of the CLI, so that all commands
 * write the same compact one-line JSON, and how a tree becomes that line.
 */
final class JsonOutput
{
    static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonOutput()
    {
    }

    /** {@code tree} (a Jackson node, or maps, lists and scalars) as one line of JSON. */
    static String write(final Object tree)
    {
        try
        {
            return MAPPER.writeValueAsString(tree);
        }
        catch (final JsonProcessingException ex)
        {
            // only a bug can get here: every tree the CLI builds is plain data
            throw new IllegalStateException("cannot write a JSON tree: " + ex.getMessage(), ex);
        }
    }
}
