package dev.rdmacm.cli.json;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * A JSON object the CLI builds before it prints it: its members in the order they were first put (putting
 * a name again replaces the value in place), each a string, a number, a boolean, null, an object or an
 * array. A command composes its result from parts (an error gets its call, its event, the destination, the
 * trace) and the text form of an error reads the members back, hence a tree rather than only a stream;
 * {@link #toJson} writes it through {@link JsonWriter}, without reflection.
 */
public final class JsonObject
{
    private final Map<String, Object> members = new LinkedHashMap<>();

    public JsonObject put(final String name, final String value)
    {
        members.put(name, value);
        return this;
    }

    public JsonObject put(final String name, final int value)
    {
        members.put(name, value);
        return this;
    }

    /** A number that may be absent: null is written as {@code null}. */
    public JsonObject put(final String name, final Integer value)
    {
        members.put(name, value);
        return this;
    }

    /** A number that may be absent: null is written as {@code null}. */
    public JsonObject put(final String name, final Long value)
    {
        members.put(name, value);
        return this;
    }

    /** A number with a fraction, written as its plain decimal digits ({@code 12.50}); null as {@code null}. */
    public JsonObject put(final String name, final BigDecimal value)
    {
        members.put(name, value);
        return this;
    }

    public JsonObject put(final String name, final long value)
    {
        members.put(name, value);
        return this;
    }

    public JsonObject put(final String name, final boolean value)
    {
        members.put(name, value);
        return this;
    }

    public JsonObject put(final String name, final JsonObject value)
    {
        members.put(name, value);
        return this;
    }

    public JsonObject put(final String name, final JsonArray value)
    {
        members.put(name, value);
        return this;
    }

    /**
     * {@code value}, which must be a {@link String}, an {@link Integer}, a {@link Long}, a {@link BigDecimal}, a {@link Boolean},
     * null, a {@link JsonObject} or a {@link JsonArray}: for members whose values come from a map.
     *
     * @throws IllegalArgumentException naming the member for a value of any other type.
     */
    public JsonObject putValue(final String name, final Object value)
    {
        if (!JsonWriter.isTreeValue(value))
        {
            throw new IllegalArgumentException("JSON member " + name + ": a " + value.getClass().getName()
                + " is none of string, integer, long, decimal, boolean, null, object, array");
        }
        members.put(name, value);
        return this;
    }

    /** A new empty array, put as the value of {@code name}. */
    public JsonArray putArray(final String name)
    {
        final JsonArray array = new JsonArray();
        members.put(name, array);
        return array;
    }

    /** A new empty object, put as the value of {@code name}. */
    public JsonObject putObject(final String name)
    {
        final JsonObject object = new JsonObject();
        members.put(name, object);
        return object;
    }

    /** Whether {@code name} is a member whose value is not null. */
    public boolean hasNonNull(final String name)
    {
        return members.get(name) != null;
    }

    /** The value of {@code name} as text (a number's digits), or null when it is absent or null. */
    public String text(final String name)
    {
        final Object value = members.get(name);
        return value == null ? null : value.toString();
    }

    /** The value of {@code name} as an int: a number's value, else 0 (absent, null or another type). */
    public int intValue(final String name)
    {
        return members.get(name) instanceof Number number ? number.intValue() : 0;
    }

    /** Each member in order, its value as text ({@code null} for null), for a text form of the object. */
    public void forEachText(final BiConsumer<String, String> action)
    {
        members.forEach((name, value) -> action.accept(name, String.valueOf(value)));
    }

    /** This object as one line of compact JSON. */
    public String toJson()
    {
        final StringBuilder out = new StringBuilder(256);
        writeTo(new JsonWriter(out));
        return out.toString();
    }

    @Override
    public String toString()
    {
        return toJson();
    }

    void writeTo(final JsonWriter writer)
    {
        writer.beginObject();
        for (final Map.Entry<String, Object> member : members.entrySet())
        {
            writer.name(member.getKey());
            writer.treeValue(member.getValue());
        }
        writer.endObject();
    }
}
