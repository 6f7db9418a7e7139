package dev.rdmacm.resolver;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Texts that many traces record verbatim, held once per process and written into a trace's log as a
 * number: the step names and how a neighbour was solicited (a netdev and a port are values, whose text
 * is made when read). Ten thousand resolutions through one netdev otherwise hold ten thousand copies of its
 * description (issue 15). Numbers are never reused, so a trace reads the same for as long as it
 * lives; the table stops at {@link #CAPACITY} texts, and a text past it is written out in full.
 */
final class SharedTraceText
{
    static final int CAPACITY = 4096;
    static final int NONE = -1;

    private static final ConcurrentHashMap<String, Integer> CODES = new ConcurrentHashMap<>();
    private static final AtomicReferenceArray<String> TEXTS = new AtomicReferenceArray<>(CAPACITY);
    private static int count;

    private SharedTraceText()
    {
    }

    /** The number of {@code text}, given it one if it has none and the table has room; else {@link #NONE}. */
    static int codeOf(final String text)
    {
        final Integer code = CODES.get(text);
        if (code != null)
        {
            return code;
        }
        synchronized (CODES)
        {
            final Integer raced = CODES.get(text);
            if (raced != null)
            {
                return raced;
            }
            if (count == CAPACITY)
            {
                return NONE;
            }
            // the text first: whoever finds the number in CODES, or in a log written after this, reads it
            TEXTS.set(count, text);
            CODES.put(text, count);
            return count++;
        }
    }

    static String text(final int code)
    {
        return TEXTS.get(code);
    }
}
