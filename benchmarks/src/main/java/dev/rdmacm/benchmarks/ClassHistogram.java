package dev.rdmacm.benchmarks;

import javax.management.JMException;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live-object histogram of this JVM (the HotSpot diagnostic command behind
 * {@code jcmd GC.class_histogram}, which forces a full GC), and the difference between two of them.
 * Called in-process through the DiagnosticCommand MBean, so no second JVM has to attach.
 */
record ClassHistogram(Map<String, Row> rows)
{
    record Row(String className, long instances, long bytes)
    {
    }

    static ClassHistogram take()
    {
        final String text;
        try
        {
            text = (String)ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {new String[0]}, new String[] {String[].class.getName()});
        }
        catch (final JMException ex)
        {
            throw new IllegalStateException("GC.class_histogram failed: " + ex.getMessage(), ex);
        }
        final Map<String, Row> rows = new HashMap<>();
        for (final String line : text.split("\n"))
        {
            // "   1:         19206        1077120  [B (java.base@25.0.3)"
            final String[] fields = line.trim().split("\\s+");
            if (fields.length < 4 || !fields[0].endsWith(":") || !Character.isDigit(fields[0].charAt(0)))
            {
                continue;
            }
            rows.put(fields[3], new Row(fields[3], Long.parseLong(fields[1]), Long.parseLong(fields[2])));
        }
        return new ClassHistogram(Map.copyOf(rows));
    }

    /** Classes whose live bytes grew from {@code before} to this histogram, largest growth first. */
    List<Row> growthSince(final ClassHistogram before)
    {
        final List<Row> growth = new ArrayList<>();
        for (final Row now : rows.values())
        {
            final Row then = before.rows.get(now.className());
            final long bytes = now.bytes() - (then == null ? 0 : then.bytes());
            final long instances = now.instances() - (then == null ? 0 : then.instances());
            if (bytes > 0)
            {
                growth.add(new Row(now.className(), instances, bytes));
            }
        }
        growth.sort(Comparator.comparingLong(Row::bytes).reversed());
        return growth;
    }

    long totalBytes()
    {
        return rows.values().stream().mapToLong(Row::bytes).sum();
    }
}
