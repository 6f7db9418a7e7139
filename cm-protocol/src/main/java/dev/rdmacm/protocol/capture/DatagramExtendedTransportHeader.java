package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the 8-byte Datagram Extended Transport Header that follows the BTH of every UD
 * packet (IBA 9.3.3), big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                            Q_Key                              |  0
 *  +---------------+-----------------------------------------------+
 *  |   Reserved    |            Source QP (24 bits)                |  4
 *  +---------------+-----------------------------------------------+
 * </pre>
 * GMPs to QP1 carry the well-known Q_Key {@link dev.rdmacm.protocol.mad.Gsi#QKEY}.
 */
public final class DatagramExtendedTransportHeader extends Flyweight
{
    public static final int QKEY_OFFSET = 0;
    public static final int SOURCE_QP_OFFSET = 4;
    public static final int LENGTH = 8;

    /** Wraps {@code buffer} for reading, checking that a whole header is present. */
    public DatagramExtendedTransportHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("DETH", buffer, offset, length, LENGTH);
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public DatagramExtendedTransportHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public long qkey()
    {
        return u32(QKEY_OFFSET);
    }

    public DatagramExtendedTransportHeader qkey(final long value)
    {
        putU32(QKEY_OFFSET, value);
        return this;
    }

    public int sourceQp()
    {
        return (int)u32(SOURCE_QP_OFFSET) & BaseTransportHeader.QPN_MASK;
    }

    /** Sets the source QP and clears the reserved byte before it. */
    public DatagramExtendedTransportHeader sourceQp(final int value)
    {
        putU32(SOURCE_QP_OFFSET, value & BaseTransportHeader.QPN_MASK);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "DETH{unwrapped}";
        }
        return "DETH{Q_Key=0x" + Long.toHexString(qkey()) + ", SrcQP=0x" + Integer.toHexString(sourceQp()) + "}";
    }
}
