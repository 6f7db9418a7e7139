package dev.rdmacm.cli.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CLI's JSON against Jackson, the peer: Jackson parses what {@link JsonObject} writes (RFC 8259) and
 * gets the values back, and Jackson's own generator writes every string to the same bytes, which keeps
 * the commands' {@code --json} what it was when Jackson wrote it.
 */
@Timeout(60)
class JsonObjectTest
{
    private static final ObjectMapper JACKSON = new ObjectMapper();

    @Test
    void shouldEscapeEveryCharacterAsJacksonsGeneratorDoes() throws Exception
    {
        // every UTF-16 code unit, surrogates paired and alone included, in strings of 256
        for (int start = 0; start < 0x10000; start += 256)
        {
            final StringBuilder text = new StringBuilder();
            for (int c = start; c < start + 256; c++)
            {
                text.append((char)c).append('x');
            }
            final String value = text.toString();
            assertEquals(JACKSON.writeValueAsString(JACKSON.createObjectNode().put("s", value)),
                new JsonObject().put("s", value).toJson(), "code units from " + Integer.toHexString(start));
        }
    }

    @Test
    void shouldParseBackToTheValuesThatWerePut() throws Exception
    {
        final JsonObject object = new JsonObject()
            .put("text", "a \"quoted\" \\ line\nand a tab\t\u0001 é ✓ 😀")
            .put("int", Integer.MIN_VALUE)
            .put("long", Long.MAX_VALUE)
            .put("true", true)
            .put("false", false)
            .put("null text", (String)null)
            .put("null number", (Integer)null)
            .put("", "empty name");
        object.putArray("array").add("one").add(new JsonObject().put("two", 2)).addObject().put("three", 3L);
        object.putObject("object").putArray("empty");

        final JsonNode tree = JACKSON.readTree(object.toJson());

        assertEquals("a \"quoted\" \\ line\nand a tab\t\u0001 é ✓ 😀", tree.get("text").textValue());
        assertEquals(Integer.MIN_VALUE, tree.get("int").intValue());
        assertEquals(Long.MAX_VALUE, tree.get("long").longValue());
        assertTrue(tree.get("true").booleanValue());
        assertEquals(false, tree.get("false").booleanValue());
        assertTrue(tree.get("null text").isNull());
        assertTrue(tree.get("null number").isNull());
        assertEquals("empty name", tree.get("").textValue());
        assertEquals("[\"one\",{\"two\":2},{\"three\":3}]", tree.get("array").toString());
        assertEquals("{\"empty\":[]}", tree.get("object").toString());
        assertEquals(10, tree.size());
    }

    @Test
    void shouldWriteTheMembersInTheOrderTheyWereFirstPut()
    {
        final JsonObject object = new JsonObject().put("b", 1).put("a", 2).put("b", "again");

        assertEquals("{\"b\":\"again\",\"a\":2}", object.toJson());
    }

    @Test
    void shouldWriteEmptyContainersAndNesting()
    {
        final JsonObject object = new JsonObject();
        object.putArray("a");
        object.putObject("b");
        object.putArray("c").addObject().putArray("d").addObject();

        assertEquals("{\"a\":[],\"b\":{},\"c\":[{\"d\":[{}]}]}", object.toJson());
    }

    @Test
    void shouldAppendTheElementsOfAnotherArray()
    {
        final JsonArray first = new JsonArray().add("a");
        first.addAll(new JsonArray().add("b").add("c"));

        assertEquals("[\"a\",\"b\",\"c\"]", first.toString());
        assertEquals(3, first.size());
    }

    @Test
    void shouldReadMembersBackForTheTextForm()
    {
        final JsonObject object = new JsonObject().put("code", -19).put("error", "ENODEV").put("none", (String)null);

        assertEquals("ENODEV", object.text("error"));
        assertEquals(-19, object.intValue("code"));
        assertEquals(null, object.text("none"));
        assertEquals(false, object.hasNonNull("none"));
        assertEquals(false, object.hasNonNull("absent"));
        assertEquals(0, object.intValue("absent"));
        final StringBuilder text = new StringBuilder();
        object.forEachText((name, value) -> text.append(name).append('=').append(value).append(';'));
        assertEquals("code=-19;error=ENODEV;none=null;", text.toString());
    }

    @Test
    void shouldRejectAValueOfAnotherTypeNamingTheMember()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> new JsonObject().putValue("mtu", 2048.0));

        assertEquals("JSON member mtu: a java.lang.Double is none of string, integer, long, decimal, boolean, null, object, array",
            ex.getMessage());
    }

    @Test
    void shouldTakeEveryValueTypeFromAMap() throws Exception
    {
        final JsonObject object = new JsonObject().putValue("s", "x").putValue("i", 1).putValue("l", 2L)
            .putValue("b", true).putValue("n", null).putValue("o", new JsonObject()).putValue("a", new JsonArray());

        assertEquals("{\"s\":\"x\",\"i\":1,\"l\":2,\"b\":true,\"n\":null,\"o\":{},\"a\":[]}", object.toJson());
        assertEquals(7, JACKSON.readTree(object.toJson()).size());
    }
}
