package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

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
public final class LocalRouteHeader extends Flyweight
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

    private static final int HIGH_NIBBLE_SHIFT = 4;
    private static final int NIBBLE_WIDTH = 4;
    private static final int LNH_WIDTH = 2;
    private static final int RESERVED_AND_LNH_WIDTH = 4;
    private static final int PACKET_LENGTH_WIDTH = 11;

    /** Wraps {@code buffer} for reading, checking that a whole header is present. */
    public LocalRouteHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("LRH", buffer, offset, length, LENGTH);
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public LocalRouteHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public short virtualLane()
    {
        return (short)bits8(VIRTUAL_LANE_OFFSET, HIGH_NIBBLE_SHIFT, NIBBLE_WIDTH);
    }

    public LocalRouteHeader virtualLane(final int value)
    {
        putBits8(VIRTUAL_LANE_OFFSET, HIGH_NIBBLE_SHIFT, NIBBLE_WIDTH, value);
        return this;
    }

    public short linkVersion()
    {
        return (short)bits8(LINK_VERSION_OFFSET, 0, NIBBLE_WIDTH);
    }

    public LocalRouteHeader linkVersion(final int value)
    {
        putBits8(LINK_VERSION_OFFSET, 0, NIBBLE_WIDTH, value);
        return this;
    }

    public short serviceLevel()
    {
        return (short)bits8(SERVICE_LEVEL_OFFSET, HIGH_NIBBLE_SHIFT, NIBBLE_WIDTH);
    }

    public LocalRouteHeader serviceLevel(final int value)
    {
        putBits8(SERVICE_LEVEL_OFFSET, HIGH_NIBBLE_SHIFT, NIBBLE_WIDTH, value);
        return this;
    }

    /** LNH: {@link #LNH_IBA_LOCAL} or {@link #LNH_IBA_GLOBAL} for the packets this stack frames. */
    public short linkNextHeader()
    {
        return (short)bits8(LINK_NEXT_HEADER_OFFSET, 0, LNH_WIDTH);
    }

    /** Sets LNH and clears the two reserved bits beside it. */
    public LocalRouteHeader linkNextHeader(final int value)
    {
        putBits8(LINK_NEXT_HEADER_OFFSET, 0, RESERVED_AND_LNH_WIDTH, value & ((1 << LNH_WIDTH) - 1));
        return this;
    }

    public int dlid()
    {
        return u16(DLID_OFFSET);
    }

    public LocalRouteHeader dlid(final int value)
    {
        putU16(DLID_OFFSET, value);
        return this;
    }

    /** PktLen in 4-byte words, LRH through ICRC. */
    public int packetLengthWords()
    {
        return bits16(PACKET_LENGTH_OFFSET, 0, PACKET_LENGTH_WIDTH);
    }

    /** Sets PktLen and clears the five reserved bits before it. */
    public LocalRouteHeader packetLengthWords(final int value)
    {
        putU16(PACKET_LENGTH_OFFSET, value & PACKET_LENGTH_MASK);
        return this;
    }

    public int slid()
    {
        return u16(SLID_OFFSET);
    }

    public LocalRouteHeader slid(final int value)
    {
        putU16(SLID_OFFSET, value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "LRH{unwrapped}";
        }
        return "LRH{VL=" + virtualLane() + ", LVer=" + linkVersion() + ", SL=" + serviceLevel() +
            ", LNH=" + linkNextHeader() + ", DLID=" + dlid() + ", PktLen=" + packetLengthWords() +
            ", SLID=" + slid() + "}";
    }
}
