package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

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
public final class BaseTransportHeader
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

    private static final int SOLICITED_EVENT_BIT = 0x80;
    private static final int MIGRATION_REQUEST_BIT = 0x40;
    private static final int ACK_REQUEST_BIT = 0x8000_0000;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    /** Wraps {@code buffer} for reading, checking that a whole header is present. */
    public BaseTransportHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        MalformedMessageException.requireLength("BTH", length, LENGTH);
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer m ? m : null;
        this.offset = offset;
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public BaseTransportHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
        return this;
    }

    public short opCode()
    {
        return (short)(buffer.getByte(offset + OPCODE_OFFSET) & 0xff);
    }

    public BaseTransportHeader opCode(final int value)
    {
        mutableBuffer.putByte(offset + OPCODE_OFFSET, (byte)value);
        return this;
    }

    private int flagsByte()
    {
        return buffer.getByte(offset + SOLICITED_EVENT_OFFSET) & 0xff;
    }

    private void flagsByte(final boolean solicitedEvent, final boolean migrationRequest, final int padCount,
        final int transportVersion)
    {
        mutableBuffer.putByte(offset + SOLICITED_EVENT_OFFSET, (byte)(
            (solicitedEvent ? SOLICITED_EVENT_BIT : 0) | (migrationRequest ? MIGRATION_REQUEST_BIT : 0) |
            (padCount & 0x3) << 4 | (transportVersion & 0xf)));
    }

    public boolean solicitedEvent()
    {
        return (flagsByte() & SOLICITED_EVENT_BIT) != 0;
    }

    public BaseTransportHeader solicitedEvent(final boolean value)
    {
        flagsByte(value, migrationRequest(), padCount(), transportVersion());
        return this;
    }

    public boolean migrationRequest()
    {
        return (flagsByte() & MIGRATION_REQUEST_BIT) != 0;
    }

    public BaseTransportHeader migrationRequest(final boolean value)
    {
        flagsByte(solicitedEvent(), value, padCount(), transportVersion());
        return this;
    }

    /** PadCount: bytes added after the payload to reach a 4-byte multiple; 0 for a 256-byte MAD. */
    public short padCount()
    {
        return (short)((flagsByte() >>> 4) & 0x3);
    }

    public BaseTransportHeader padCount(final int value)
    {
        flagsByte(solicitedEvent(), migrationRequest(), value, transportVersion());
        return this;
    }

    public short transportVersion()
    {
        return (short)(flagsByte() & 0xf);
    }

    public BaseTransportHeader transportVersion(final int value)
    {
        flagsByte(solicitedEvent(), migrationRequest(), padCount(), value);
        return this;
    }

    public int pkey()
    {
        return buffer.getShort(offset + PKEY_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public BaseTransportHeader pkey(final int value)
    {
        mutableBuffer.putShort(offset + PKEY_OFFSET, (short)value, BIG_ENDIAN);
        return this;
    }

    public int destQp()
    {
        return buffer.getInt(offset + DEST_QP_OFFSET, BIG_ENDIAN) & QPN_MASK;
    }

    /** Sets the destination QP and clears the reserved byte before it. */
    public BaseTransportHeader destQp(final int value)
    {
        mutableBuffer.putInt(offset + DEST_QP_OFFSET, value & QPN_MASK, BIG_ENDIAN);
        return this;
    }

    public boolean ackRequest()
    {
        return (buffer.getInt(offset + ACK_REQUEST_OFFSET, BIG_ENDIAN) & ACK_REQUEST_BIT) != 0;
    }

    public BaseTransportHeader ackRequest(final boolean value)
    {
        mutableBuffer.putInt(offset + ACK_REQUEST_OFFSET, (value ? ACK_REQUEST_BIT : 0) | psn(), BIG_ENDIAN);
        return this;
    }

    public int psn()
    {
        return buffer.getInt(offset + PSN_OFFSET, BIG_ENDIAN) & QPN_MASK;
    }

    /** Sets the PSN, keeping the A bit and clearing the reserved bits. */
    public BaseTransportHeader psn(final int value)
    {
        final int ack = buffer.getInt(offset + ACK_REQUEST_OFFSET, BIG_ENDIAN) & ACK_REQUEST_BIT;
        mutableBuffer.putInt(offset + PSN_OFFSET, ack | (value & QPN_MASK), BIG_ENDIAN);
        return this;
    }

    @Override
    public String toString()
    {
        if (buffer == null)
        {
            return "BTH{unwrapped}";
        }
        return "BTH{OpCode=0x" + Integer.toHexString(opCode()) + ", SE=" + solicitedEvent() + ", M=" +
            migrationRequest() + ", PadCnt=" + padCount() + ", TVer=" + transportVersion() + ", P_Key=0x" +
            Integer.toHexString(pkey()) + ", DestQP=0x" + Integer.toHexString(destQp()) + ", A=" + ackRequest() +
            ", PSN=" + psn() + "}";
    }
}
