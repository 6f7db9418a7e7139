package dev.rdmacm.cli.json;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(10)
class JsonIndentTest
{
    @Test
    void shouldPutEveryMemberOnALineFourSpacesALevel()
    {
        final JsonObject tree = new JsonObject().put("a", 1);
        tree.putArray("b").add("x").add("y");

        assertEquals("""
            {
                "a": 1,
                "b": [
                    "x",
                    "y"
                ]
            }""", JsonIndent.indent(tree.toJson()));
    }

    @Test
    void shouldLeaveBracesColonsAndQuotesInsideStringsAsTheyAre()
    {
        final JsonObject tree = new JsonObject().put("m", "a{b}, c: \"d[\"");

        assertEquals("{\n    \"m\": \"a{b}, c: \\\"d[\\\"\"\n}", JsonIndent.indent(tree.toJson()));
    }

    @Test
    void shouldKeepAnEmptyObjectAndArrayOnTheirLine()
    {
        final JsonObject tree = new JsonObject().put("o", new JsonObject());
        tree.putArray("a");

        assertEquals("{\n    \"o\": {},\n    \"a\": []\n}", JsonIndent.indent(tree.toJson()));
    }
}
