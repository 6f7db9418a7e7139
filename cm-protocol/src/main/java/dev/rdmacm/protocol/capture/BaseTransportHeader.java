package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the 12-byte Base Transport Header (IBA 9.2), big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+-+-+---+-------+-------------------------------+
 *  |    OpCode     |S|M|Pad| TVer  |            P_Key              |  0
 *  +---------------+-+-+---+-------+-------------------------------+
 *  |   Reserved    |          Destination QP (24 bits)             |  4
 *  +-+-------------+-----------------------------------------------+
 *  |A|  Reserved   |       Packet Sequence Number (24 bits)        |  8
 *  +-+-------------+-----------------------------------------------+
 * </pre>
 * A MAD travels as a UD SEND Only ({@link #OPCODE_UD_SEND_ONLY}); tshark decodes a MAD only when the
 * destination QP here or the source QP in the DETH is 0 or 1.
 */
public final class BaseTransportHeader extends Flyweight
{
    public static final int OPCODE_OFFSET = 0;
    public static final int SOLICITED_EVENT_OFFSET = 1;
    public static final int MIGRATION_REQUEST_OFFSET = 1;
    public static final int PAD_COUNT_OFFSET = 1;
    public static final int TRANSPORT_VERSION_OFFSET = 1;
    public static final int PKEY_OFFSET = 2;
    public static final int DEST_QP_OFFSET = 4;
    public static final int ACK_REQUEST_OFFSET = 8;
    public static final int PSN_OFFSET = 8;
    public static final int LENGTH = 12;

    /** OpCode of a UD SEND Only: transport class UD (0b011), operation SEND Only (0b00100). */
    public static final int OPCODE_UD_SEND_ONLY = 0x64;
    /** QPNs and PSNs are 24 bits; the byte above them is reserved (or holds the A bit). */
    public static final int QPN_MASK = 0xff_ffff;

    private static final int SOLICITED_EVENT_SHIFT = 7;
    private static final int MIGRATION_REQUEST_SHIFT = 6;
    private static final int PAD_COUNT_SHIFT = 4;
    private static final int PAD_COUNT_WIDTH = 2;
    private static final int TRANSPORT_VERSION_WIDTH = 4;
    private static final int ACK_REQUEST_SHIFT = 31;
    /** The A bit and the seven reserved bits above the PSN. */
    private static final int ACK_AND_RESERVED_WIDTH = 8;
    private static final int QPN_WIDTH = 24;

    /** Wraps {@code buffer} for reading, checking that a whole header is present. */
    public BaseTransportHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("BTH", buffer, offset, length, LENGTH);
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public BaseTransportHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public short opCode()
    {
        return u8(OPCODE_OFFSET);
    }

    public BaseTransportHeader opCode(final int value)
    {
        putU8(OPCODE_OFFSET, value);
        return this;
    }

    public boolean solicitedEvent()
    {
        return bits8(SOLICITED_EVENT_OFFSET, SOLICITED_EVENT_SHIFT, 1) != 0;
    }

    public BaseTransportHeader solicitedEvent(final boolean value)
    {
        putBits8(SOLICITED_EVENT_OFFSET, SOLICITED_EVENT_SHIFT, 1, value ? 1 : 0);
        return this;
    }

    public boolean migrationRequest()
    {
        return bits8(MIGRATION_REQUEST_OFFSET, MIGRATION_REQUEST_SHIFT, 1) != 0;
    }

    public BaseTransportHeader migrationRequest(final boolean value)
    {
        putBits8(MIGRATION_REQUEST_OFFSET, MIGRATION_REQUEST_SHIFT, 1, value ? 1 : 0);
        return this;
    }

    /** PadCount: bytes added after the payload to reach a 4-byte multiple; 0 for a 256-byte MAD. */
    public short padCount()
    {
        return (short)bits8(PAD_COUNT_OFFSET, PAD_COUNT_SHIFT, PAD_COUNT_WIDTH);
    }

    public BaseTransportHeader padCount(final int value)
    {
        putBits8(PAD_COUNT_OFFSET, PAD_COUNT_SHIFT, PAD_COUNT_WIDTH, value);
        return this;
    }

    public short transportVersion()
    {
        return (short)bits8(TRANSPORT_VERSION_OFFSET, 0, TRANSPORT_VERSION_WIDTH);
    }

    public BaseTransportHeader transportVersion(final int value)
    {
        putBits8(TRANSPORT_VERSION_OFFSET, 0, TRANSPORT_VERSION_WIDTH, value);
        return this;
    }

    public int pkey()
    {
        return u16(PKEY_OFFSET);
    }

    public BaseTransportHeader pkey(final int value)
    {
        putU16(PKEY_OFFSET, value);
        return this;
    }

    public int destQp()
    {
        return (int)bits32(DEST_QP_OFFSET, 0, QPN_WIDTH);
    }

    /** Sets the destination QP and clears the reserved byte before it. */
    public BaseTransportHeader destQp(final int value)
    {
        putU32(DEST_QP_OFFSET, value & QPN_MASK);
        return this;
    }

    public boolean ackRequest()
    {
        return bits32(ACK_REQUEST_OFFSET, ACK_REQUEST_SHIFT, 1) != 0;
    }

    /** Sets the A bit and clears the reserved bits beside it. */
    public BaseTransportHeader ackRequest(final boolean value)
    {
        putBits32(ACK_REQUEST_OFFSET, QPN_WIDTH, ACK_AND_RESERVED_WIDTH, value ? 0x80 : 0);
        return this;
    }

    public int psn()
    {
        return (int)bits32(PSN_OFFSET, 0, QPN_WIDTH);
    }

    public BaseTransportHeader psn(final int value)
    {
        putBits32(PSN_OFFSET, 0, QPN_WIDTH, value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "BTH{unwrapped}";
        }
        return "BTH{OpCode=0x" + Integer.toHexString(opCode()) + ", SE=" + solicitedEvent() + ", M=" +
            migrationRequest() + ", PadCnt=" + padCount() + ", TVer=" + transportVersion() + ", P_Key=0x" +
            Integer.toHexString(pkey()) + ", DestQP=0x" + Integer.toHexString(destQp()) + ", A=" + ackRequest() +
            ", PSN=" + psn() + "}";
    }
}
