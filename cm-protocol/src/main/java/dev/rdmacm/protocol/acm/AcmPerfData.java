package dev.rdmacm.protocol.acm;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over the body of a PERF_QUERY reply: {@code hdr.src_out} unsigned 64-bit counters,
 * big-endian, in {@link AcmCounter} order.
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                 counter[0] ERROR (u64, BE)                    |  0
 *  +---------------------------------------------------------------+
 *  |                 counter[1] RESOLVE                            |  8
 *  +---------------------------------------------------------------+
 *  |                 ...  counter[6] ROUTE_CACHE                   | 48
 *  +---------------------------------------------------------------+ 56
 * </pre>
 */
public final class AcmPerfData extends Flyweight
{
    public static final int COUNTER_LENGTH = 8;
    /** The body for all {@link AcmCounter#COUNT} counters. */
    public static final int LENGTH = AcmCounter.COUNT * COUNTER_LENGTH;

    private int count;

    /** Wraps {@code count} counters for reading, checking they are all present. */
    public AcmPerfData wrap(final DirectBuffer buffer, final int offset, final int length, final int count)
    {
        wrapForReading("ACM perf data with " + count + " counters", buffer, offset, length, count * COUNTER_LENGTH);
        this.count = count;
        return this;
    }

    /** Wraps for writing all seven counters. */
    public AcmPerfData wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        this.count = AcmCounter.COUNT;
        return this;
    }

    public int count()
    {
        return count;
    }

    public long counter(final int index)
    {
        return buffer.getLong(offset + index * COUNTER_LENGTH, BIG_ENDIAN);
    }

    public AcmPerfData counter(final int index, final long value)
    {
        mutableBuffer.putLong(offset + index * COUNTER_LENGTH, value, BIG_ENDIAN);
        return this;
    }
}
