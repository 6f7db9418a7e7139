package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over the 8-byte Local Route Header that starts every InfiniBand packet (IBA 7.7),
 * big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------+-------+-------+---+---+-------------------------------+
 *  |  VL   | LVer  |  SL   |Rsv|LNH|       Destination LID         |  0
 *  +-------+-------+-------+---+---+-------------------------------+
 *  | Rsv5    |  PktLen (11 bits)   |         Source LID            |  4
 *  +---------+---------------------+-------------------------------+
 * </pre>
 * PktLen counts 4-byte words from the first byte of the LRH to the last byte of the ICRC (the VCRC
 * is not counted); tshark marks a frame Malformed when it claims more bytes than the frame holds.
 */
public final class LocalRouteHeader
{
    public static final int VIRTUAL_LANE_OFFSET = 0;
    public static final int LINK_VERSION_OFFSET = 0;
    public static final int SERVICE_LEVEL_OFFSET = 1;
    public static final int LINK_NEXT_HEADER_OFFSET = 1;
    public static final int DLID_OFFSET = 2;
    public static final int PACKET_LENGTH_OFFSET = 4;
    public static final int SLID_OFFSET = 6;
    public static final int LENGTH = 8;

    /** LNH: an IBA transport header (BTH) follows the LRH directly. */
    public static final int LNH_IBA_LOCAL = 2;
    /** LNH: a GRH follows the LRH, then the BTH. */
    public static final int LNH_IBA_GLOBAL = 3;
    /** The 11 bits of PktLen. */
    public static final int PACKET_LENGTH_MASK = 0x7ff;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    /** Wraps {@code buffer} for reading, checking that a whole header is present. */
    public LocalRouteHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        MalformedMessageException.requireLength("LRH", length, LENGTH);
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer m ? m : null;
        this.offset = offset;
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public LocalRouteHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
        return this;
    }

    public short virtualLane()
    {
        return (short)((buffer.getByte(offset + VIRTUAL_LANE_OFFSET) & 0xf0) >>> 4);
    }

    public LocalRouteHeader virtualLane(final int value)
    {
        putHighNibble(VIRTUAL_LANE_OFFSET, value);
        return this;
    }

    public short linkVersion()
    {
        return (short)(buffer.getByte(offset + LINK_VERSION_OFFSET) & 0x0f);
    }

    public LocalRouteHeader linkVersion(final int value)
    {
        final int index = offset + LINK_VERSION_OFFSET;
        mutableBuffer.putByte(index, (byte)((buffer.getByte(index) & 0xf0) | (value & 0x0f)));
        return this;
    }

    public short serviceLevel()
    {
        return (short)((buffer.getByte(offset + SERVICE_LEVEL_OFFSET) & 0xf0) >>> 4);
    }

    public LocalRouteHeader serviceLevel(final int value)
    {
        putHighNibble(SERVICE_LEVEL_OFFSET, value);
        return this;
    }

    /** LNH: {@link #LNH_IBA_LOCAL} or {@link #LNH_IBA_GLOBAL} for the packets this stack frames. */
    public short linkNextHeader()
    {
        return (short)(buffer.getByte(offset + LINK_NEXT_HEADER_OFFSET) & 0x03);
    }

    /** Sets LNH and clears the two reserved bits beside it. */
    public LocalRouteHeader linkNextHeader(final int value)
    {
        final int index = offset + LINK_NEXT_HEADER_OFFSET;
        mutableBuffer.putByte(index, (byte)((buffer.getByte(index) & 0xf0) | (value & 0x03)));
        return this;
    }

    public int dlid()
    {
        return buffer.getShort(offset + DLID_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public LocalRouteHeader dlid(final int value)
    {
        mutableBuffer.putShort(offset + DLID_OFFSET, (short)value, BIG_ENDIAN);
        return this;
    }

    /** PktLen in 4-byte words, LRH through ICRC. */
    public int packetLengthWords()
    {
        return buffer.getShort(offset + PACKET_LENGTH_OFFSET, BIG_ENDIAN) & PACKET_LENGTH_MASK;
    }

    /** Sets PktLen and clears the five reserved bits before it. */
    public LocalRouteHeader packetLengthWords(final int value)
    {
        mutableBuffer.putShort(offset + PACKET_LENGTH_OFFSET, (short)(value & PACKET_LENGTH_MASK), BIG_ENDIAN);
        return this;
    }

    public int slid()
    {
        return buffer.getShort(offset + SLID_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public LocalRouteHeader slid(final int value)
    {
        mutableBuffer.putShort(offset + SLID_OFFSET, (short)value, BIG_ENDIAN);
        return this;
    }

    private void putHighNibble(final int fieldOffset, final int value)
    {
        final int index = offset + fieldOffset;
        mutableBuffer.putByte(index, (byte)(((value & 0x0f) << 4) | (buffer.getByte(index) & 0x0f)));
    }

    @Override
    public String toString()
    {
        if (buffer == null)
        {
            return "LRH{unwrapped}";
        }
        return "LRH{VL=" + virtualLane() + ", LVer=" + linkVersion() + ", SL=" + serviceLevel() +
            ", LNH=" + linkNextHeader() + ", DLID=" + dlid() + ", PktLen=" + packetLengthWords() +
            ", SLID=" + slid() + "}";
    }
}
