package dev.rdmacm.protocol;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The tshark fields a sample must decode to, each with all its values, in insertion order. */
final class ExpectedFields
{
    private final Map<String, List<String>> map = new LinkedHashMap<>();

    ExpectedFields put(final String field, final String... values)
    {
        map.put(field, List.of(values));
        return this;
    }

    Map<String, List<String>> map()
    {
        return map;
    }
}
