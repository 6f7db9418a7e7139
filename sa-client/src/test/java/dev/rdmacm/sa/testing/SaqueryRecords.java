package dev.rdmacm.sa.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The records printed by {@code saquery}: each "XxxRecord dump:" block becomes a map from the field
 * name ({@code dlid}, {@code mtu}, {@code NodeDescription}...) to its text exactly as printed
 * ({@code 5}, {@code 0x84}, {@code fe80::10:7}).
 */
public final class SaqueryRecords
{
    private SaqueryRecords()
    {
    }

    public static List<Map<String, String>> parse(final String output)
    {
        final List<Map<String, String>> records = new ArrayList<>();
        Map<String, String> current = null;
        for (final String line : output.split("\n"))
        {
            if (line.endsWith(" dump:"))
            {
                current = new LinkedHashMap<>();
                records.add(current);
                continue;
            }
            final String trimmed = line.strip();
            final int dots = trimmed.indexOf("..");
            if (current == null || dots <= 0)
            {
                continue;
            }
            int value = dots;
            while (value < trimmed.length() && trimmed.charAt(value) == '.')
            {
                value++;
            }
            current.put(trimmed.substring(0, dots), trimmed.substring(value));
        }
        return records;
    }
}
