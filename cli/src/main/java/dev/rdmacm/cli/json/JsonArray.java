package dev.rdmacm.cli.json;

import java.util.ArrayList;
import java.util.List;

/** A JSON array the CLI builds before it prints it: the companion of {@link JsonObject}, the same value types. */
public final class JsonArray
{
    private final List<Object> elements = new ArrayList<>();

    public JsonArray add(final String value)
    {
        elements.add(value);
        return this;
    }

    public JsonArray add(final JsonObject value)
    {
        elements.add(value);
        return this;
    }

    /** A new empty object, added as the last element. */
    public JsonObject addObject()
    {
        final JsonObject object = new JsonObject();
        elements.add(object);
        return object;
    }

    /** Every element of {@code other}, in order (the elements themselves, not copies). */
    public JsonArray addAll(final JsonArray other)
    {
        elements.addAll(other.elements);
        return this;
    }

    public int size()
    {
        return elements.size();
    }

    @Override
    public String toString()
    {
        final StringBuilder out = new StringBuilder(256);
        writeTo(new JsonWriter(out));
        return out.toString();
    }

    void writeTo(final JsonWriter writer)
    {
        writer.beginArray();
        for (final Object element : elements)
        {
            write(writer, element);
        }
        writer.endArray();
    }

    /** Whether {@code value} is one of the types an object or array holds. */
    static boolean isValue(final Object value)
    {
        return value == null || value instanceof String || value instanceof Integer || value instanceof Long
            || value instanceof Boolean || value instanceof JsonObject || value instanceof JsonArray;
    }

    /**
     * One value of an object or an array, by its type (only the types {@link #isValue} accepts get in).
     * An instanceof chain, not a pattern switch: that one bootstraps a class at run time, on every start.
     */
    static void write(final JsonWriter writer, final Object value)
    {
        if (value == null)
        {
            writer.nullValue();
        }
        else if (value instanceof String text)
        {
            writer.value(text);
        }
        else if (value instanceof Integer || value instanceof Long)
        {
            writer.value(((Number)value).longValue());
        }
        else if (value instanceof Boolean bool)
        {
            writer.value(bool.booleanValue());
        }
        else if (value instanceof JsonObject object)
        {
            object.writeTo(writer);
        }
        else
        {
            ((JsonArray)value).writeTo(writer);
        }
    }
}
