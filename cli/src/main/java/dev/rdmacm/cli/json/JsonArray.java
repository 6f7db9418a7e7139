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

    public JsonArray add(final long value)
    {
        elements.add(value);
        return this;
    }

    public JsonArray add(final boolean value)
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
            writer.treeValue(element);
        }
        writer.endArray();
    }
}
