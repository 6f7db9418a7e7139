package dev.rdmacm.resolver;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The steps of one resolution, appended by the event loop as it runs them (re-runs after a
 * neighbour event append the route and link steps again, as the kernel repeats them).
 * <p>
 * Every pending resolution holds one while it waits, so the steps are kept as a log in one byte
 * array, exactly as long as the steps written, and become {@link ResolutionStep} records only when
 * read: 10,000 resolutions waiting for their neighbours held 40,000 step records, their strings and
 * lists before, 288 bytes a trace (issue 15, {@code PendingResolutionHeap}). Names, and details
 * recorded with {@link #recordShared}, are numbers into the process's {@link SharedTraceText}. One step:
 * <pre>
 *   +-----------+--------------------+---------------+---------------+--------------------+
 *   |  name     |  (inline name)     |  start        |  took         |  detail            |
 *   +-----------+--------------------+---------------+---------------+--------------------+
 *    text tag    tag's bytes, if any   zigzag varint   zigzag varint   text tag [+ bytes]
 *
 *   text tag:    varint; 0 no text (a null detail), 2k+1 shared text k,
 *                2(n+1) the text inline, its n bytes of UTF-8 following
 *   start, took: nanoseconds after the trace's start, and the step's duration
 * </pre>
 * The varints are unsigned LEB128, 7 bits a byte, low bits first: a step of a few microseconds takes
 * two or three bytes for each time.
 */
public final class ResolutionTrace
{
    private static final byte[] EMPTY = new byte[0];

    private final long startedAtEpochNanos;
    private final long startNanos;
    private byte[] log = EMPTY;

    public ResolutionTrace(final long startNanos)
    {
        final Instant now = Instant.now();
        this.startedAtEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        this.startNanos = startNanos;
    }

    public long startNanos()
    {
        return startNanos;
    }

    public Instant startedAt()
    {
        return Instant.ofEpochSecond(0, startedAtEpochNanos);
    }

    /** Records a step that began at {@code stepStartNanos} (System.nanoTime) and ends now. */
    public void record(final String name, final long stepStartNanos, final String detail)
    {
        append(name, stepStartNanos, detail, false);
    }

    /**
     * As {@link #record}, for a detail that many resolutions record alike (a netdev's description, a
     * port): it is kept once in the process, and the log holds its number.
     */
    public void recordShared(final String name, final long stepStartNanos, final String detail)
    {
        append(name, stepStartNanos, detail, true);
    }

    /** The steps in the order they began (a wait is recorded when it ends but began before the re-run). */
    public List<ResolutionStep> steps()
    {
        final byte[] steps;
        synchronized (this)
        {
            steps = log;
        }
        final List<ResolutionStep> ordered = new ArrayList<>();
        final Reader reader = new Reader(steps);
        while (reader.at < steps.length)
        {
            final String name = reader.text();
            final long start = unzigzag(reader.varint());
            final long took = unzigzag(reader.varint());
            final String detail = reader.text();
            ordered.add(new ResolutionStep(name, start, took, detail));
        }
        ordered.sort(Comparator.comparingLong(ResolutionStep::startNanos));
        return List.copyOf(ordered);
    }

    public ResolutionStep find(final String name)
    {
        for (final ResolutionStep step : steps())
        {
            if (step.name().equals(name))
            {
                return step;
            }
        }
        return null;
    }

    private void append(final String name, final long stepStartNanos, final String detail, final boolean shared)
    {
        final long now = System.nanoTime();
        final Text nameText = Text.of(name, true);
        final Text detailText = Text.of(detail, shared);
        final long start = zigzag(stepStartNanos - startNanos);
        final long took = zigzag(now - stepStartNanos);
        final int length = nameText.length() + varintLength(start) + varintLength(took) + detailText.length();
        synchronized (this)
        {
            final byte[] grown = Arrays.copyOf(log, log.length + length);
            int at = nameText.put(grown, log.length);
            at = putVarint(grown, at, start);
            at = putVarint(grown, at, took);
            detailText.put(grown, at);
            log = grown;
        }
    }

    /** A name or detail as the log writes it: its tag and, when inline, its bytes. */
    private record Text(long tag, byte[] bytes)
    {
        private static final Text NULL = new Text(0, EMPTY);

        static Text of(final String text, final boolean shared)
        {
            if (text == null)
            {
                return NULL;
            }
            final int code = shared ? SharedTraceText.codeOf(text) : SharedTraceText.NONE;
            if (code != SharedTraceText.NONE)
            {
                return new Text(2L * code + 1, EMPTY);
            }
            final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            return new Text(2L * (utf8.length + 1), utf8);
        }

        int length()
        {
            return varintLength(tag) + bytes.length;
        }

        int put(final byte[] log, final int offset)
        {
            final int at = putVarint(log, offset, tag);
            System.arraycopy(bytes, 0, log, at, bytes.length);
            return at + bytes.length;
        }
    }

    private static long zigzag(final long value)
    {
        return value << 1 ^ value >> 63;
    }

    private static long unzigzag(final long value)
    {
        return value >>> 1 ^ -(value & 1);
    }

    private static int varintLength(final long value)
    {
        return Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 6) / 7);
    }

    private static int putVarint(final byte[] log, final int offset, final long value)
    {
        int at = offset;
        long rest = value;
        while ((rest & ~0x7FL) != 0)
        {
            log[at++] = (byte)(rest & 0x7F | 0x80);
            rest >>>= 7;
        }
        log[at++] = (byte)rest;
        return at;
    }

    /** A cursor over a log. */
    private static final class Reader
    {
        private final byte[] log;
        private int at;

        Reader(final byte[] log)
        {
            this.log = log;
        }

        long varint()
        {
            long value = 0;
            int shift = 0;
            byte b;
            do
            {
                b = log[at++];
                value |= (long)(b & 0x7F) << shift;
                shift += 7;
            }
            while (b < 0);
            return value;
        }

        String text()
        {
            final long tag = varint();
            if (tag == 0)
            {
                return null;
            }
            if ((tag & 1) == 1)
            {
                return SharedTraceText.text((int)(tag >>> 1));
            }
            final int length = (int)(tag >>> 1) - 1;
            final String text = new String(log, at, length, StandardCharsets.UTF_8);
            at += length;
            return text;
        }
    }
}
