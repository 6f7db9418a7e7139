package dev.rdmacm.protocol.mad;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the RMPP header (IBA 13.6.2.1) that follows the common header in every MAD of a class
 * that may use RMPP (the SA among them). It wraps the whole MAD, so its offsets are MAD offsets.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                   MAD common header (24 bytes)                |  0
 *  +---------------+---------------+---------+-----+---------------+
 *  |  RMPPVersion  |   RMPPType    |RRespTime|Flags|  RMPPStatus   | 24
 *  +---------------+---------------+---------+-----+---------------+
 *  |          SegmentNumber (DATA, ACK) / Data1 (STOP, ABORT)      | 28
 *  +---------------------------------------------------------------+
 *  |  PayloadLength (DATA) / NewWindowLast (ACK) / Data2           | 32
 *  +---------------------------------------------------------------+
 * </pre>
 * Flags (low three bits of byte 26): Active 0x01, First 0x02, Last 0x04. RRespTime is the upper five
 * bits; 0x1F means "no time given".
 */
public final class RmppHeader extends Flyweight
{
    public static final int VERSION_OFFSET = 24;
    public static final int TYPE_OFFSET = 25;
    public static final int RESP_TIME_FLAGS_OFFSET = 26;
    public static final int STATUS_OFFSET = 27;
    public static final int SEGMENT_NUMBER_OFFSET = 28;
    public static final int PAYLOAD_LENGTH_OFFSET = 32;
    /** The RMPP header ends here, where the class header (e.g. the SA's SM_Key) begins. */
    public static final int END_OFFSET = 36;
    public static final int LENGTH = END_OFFSET - VERSION_OFFSET;

    public static final short VERSION = 1;
    public static final int FLAG_ACTIVE = 0x01;
    public static final int FLAG_FIRST = 0x02;
    public static final int FLAG_LAST = 0x04;
    public static final int FLAGS_MASK = 0x07;
    /** RRespTime value meaning "no response time given". */
    public static final int NO_RESP_TIME = 0x1f;

    private static final int RESP_TIME_SHIFT = 3;
    private static final int RESP_TIME_WIDTH = 5;
    private static final int FLAGS_WIDTH = 3;

    /** Wraps the MAD that starts at {@code offset}, checking that it reaches past the RMPP header. */
    public RmppHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("RMPP header", buffer, offset, length, END_OFFSET);
        return this;
    }

    public RmppHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public short version()
    {
        return u8(VERSION_OFFSET);
    }

    public RmppHeader version(final int value)
    {
        putU8(VERSION_OFFSET, value);
        return this;
    }

    /** One of {@link RmppType}. */
    public short type()
    {
        return u8(TYPE_OFFSET);
    }

    public RmppHeader type(final int value)
    {
        putU8(TYPE_OFFSET, value);
        return this;
    }

    /** The 5-bit RRespTime. */
    public int respTime()
    {
        return bits8(RESP_TIME_FLAGS_OFFSET, RESP_TIME_SHIFT, RESP_TIME_WIDTH);
    }

    public RmppHeader respTime(final int value)
    {
        putBits8(RESP_TIME_FLAGS_OFFSET, RESP_TIME_SHIFT, RESP_TIME_WIDTH, value);
        return this;
    }

    /** The three flag bits, {@link #FLAG_ACTIVE} | {@link #FLAG_FIRST} | {@link #FLAG_LAST}. */
    public int flags()
    {
        return bits8(RESP_TIME_FLAGS_OFFSET, 0, FLAGS_WIDTH);
    }

    public RmppHeader flags(final int value)
    {
        putBits8(RESP_TIME_FLAGS_OFFSET, 0, FLAGS_WIDTH, value);
        return this;
    }

    public boolean isActive()
    {
        return (flags() & FLAG_ACTIVE) != 0;
    }

    public boolean isFirst()
    {
        return (flags() & FLAG_FIRST) != 0;
    }

    public boolean isLast()
    {
        return (flags() & FLAG_LAST) != 0;
    }

    /** One of {@link RmppStatus}. */
    public short status()
    {
        return u8(STATUS_OFFSET);
    }

    public RmppHeader status(final int value)
    {
        putU8(STATUS_OFFSET, value);
        return this;
    }

    /** SegmentNumber in DATA and ACK packets (Data1 in STOP and ABORT). */
    public long segmentNumber()
    {
        return u32(SEGMENT_NUMBER_OFFSET);
    }

    public RmppHeader segmentNumber(final long value)
    {
        putU32(SEGMENT_NUMBER_OFFSET, value);
        return this;
    }

    /** PayloadLength in DATA packets: the bytes of the whole transfer (first segment) or what remains (last). */
    public long payloadLength()
    {
        return u32(PAYLOAD_LENGTH_OFFSET);
    }

    public RmppHeader payloadLength(final long value)
    {
        putU32(PAYLOAD_LENGTH_OFFSET, value);
        return this;
    }

    /** NewWindowLast in ACK packets: the same 32 bits as {@link #payloadLength()}. */
    public long newWindowLast()
    {
        return u32(PAYLOAD_LENGTH_OFFSET);
    }

    public RmppHeader newWindowLast(final long value)
    {
        putU32(PAYLOAD_LENGTH_OFFSET, value);
        return this;
    }

    /** Zeroes the whole RMPP header, as a MAD that does not use RMPP must send it. */
    public RmppHeader clear()
    {
        zero(VERSION_OFFSET, LENGTH);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "RMPP{unwrapped}";
        }
        final boolean ack = type() == RmppType.ACK;
        return String.format(
            "RMPP{RMPPVersion=%d, RMPPType=%s, RRespTime=%d, RMPPFlags=0x%x%s, RMPPStatus=%s, " +
            "SegmentNumber=%d, %s=%d}",
            version(), RmppType.name(type()), respTime(), flags(), flagNames(), RmppStatus.name(status()),
            segmentNumber(), ack ? "NewWindowLast" : "PayloadLength", payloadLength());
    }

    private String flagNames()
    {
        if (flags() == 0)
        {
            return "";
        }
        final String names = (isActive() ? "Active " : "") + (isFirst() ? "First " : "") + (isLast() ? "Last " : "");
        return " (" + names.strip() + ")";
    }
}
