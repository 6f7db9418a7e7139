package dev.rdmacm.protocol.acm;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over {@code struct acm_hdr}, the 16 bytes that start every ibacm client message.
 * <pre>
 *   0               1               2               3
 *  +---------------+---------------+---------------+---------------+
 *  |    version    |    opcode     |    status     |  data[0]      |  0   data[0] = src_out
 *  +---------------+---------------+---------------+---------------+
 *  |  data[1]      |  data[2]      |            length             |  4   data[1] = src_index,
 *  +---------------+---------------+-------------------------------+      data[2] = dst_index
 *  |                         tid (opaque)                          |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 * Byte order is the protocol's oddity: RESOLVE messages are "not byte swapped" (acm.h), so their
 * {@code length} is in the host's order (little-endian on x86, as captured from ib_acme), while
 * PERF_QUERY and EP_QUERY messages are big-endian. The order follows the operation in the low nibble
 * of the opcode ({@link #lengthOrder(int)}), so set the opcode before the length. The tid is opaque:
 * ibacm copies it back byte for byte, so it is read and written in host order.
 */
public final class AcmHeader extends Flyweight
{
    public static final int VERSION_OFFSET = 0;
    public static final int OPCODE_OFFSET = 1;
    public static final int STATUS_OFFSET = 2;
    public static final int DATA_OFFSET = 3;
    public static final int SRC_OUT_OFFSET = DATA_OFFSET;
    public static final int SRC_INDEX_OFFSET = DATA_OFFSET + 1;
    public static final int DST_INDEX_OFFSET = DATA_OFFSET + 2;
    public static final int DATA_LENGTH = 3;
    public static final int LENGTH_OFFSET = 6;
    public static final int TID_OFFSET = 8;
    /** {@code ACM_MSG_HDR_LENGTH}. */
    public static final int LENGTH = 16;

    /** {@code ACM_VERSION}: ibacm drops a message with any other version. */
    public static final short VERSION = 1;

    /** Wraps {@code buffer} for reading, checking that a whole header is present. */
    public AcmHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("ACM header", buffer, offset, length, LENGTH);
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public AcmHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** The order of the {@code length} field for a message with {@code opcode}. */
    public static ByteOrder lengthOrder(final int opcode)
    {
        return (opcode & AcmOp.MASK) == AcmOp.RESOLVE ? ByteOrder.nativeOrder() : BIG_ENDIAN;
    }

    public short version()
    {
        return (short)(buffer.getByte(offset + VERSION_OFFSET) & 0xff);
    }

    public AcmHeader version(final int value)
    {
        mutableBuffer.putByte(offset + VERSION_OFFSET, (byte)value);
        return this;
    }

    /** The whole opcode byte, ACK bit included. */
    public short opcode()
    {
        return (short)(buffer.getByte(offset + OPCODE_OFFSET) & 0xff);
    }

    public AcmHeader opcode(final int value)
    {
        mutableBuffer.putByte(offset + OPCODE_OFFSET, (byte)value);
        return this;
    }

    /** The operation without the ACK bit: {@link AcmOp#RESOLVE}, {@link AcmOp#PERF_QUERY}... */
    public int operation()
    {
        return opcode() & AcmOp.MASK;
    }

    public short status()
    {
        return (short)(buffer.getByte(offset + STATUS_OFFSET) & 0xff);
    }

    public AcmHeader status(final int value)
    {
        mutableBuffer.putByte(offset + STATUS_OFFSET, (byte)value);
        return this;
    }

    /** PERF_QUERY reply: the number of counters; EP_QUERY request: the 1-based endpoint index. */
    public short srcOut()
    {
        return (short)(buffer.getByte(offset + SRC_OUT_OFFSET) & 0xff);
    }

    public AcmHeader srcOut(final int value)
    {
        mutableBuffer.putByte(offset + SRC_OUT_OFFSET, (byte)value);
        return this;
    }

    /** PERF_QUERY request: the 1-based endpoint index (0 = global); EP_QUERY request: the port. */
    public short srcIndex()
    {
        return (short)(buffer.getByte(offset + SRC_INDEX_OFFSET) & 0xff);
    }

    public AcmHeader srcIndex(final int value)
    {
        mutableBuffer.putByte(offset + SRC_INDEX_OFFSET, (byte)value);
        return this;
    }

    public short dstIndex()
    {
        return (short)(buffer.getByte(offset + DST_INDEX_OFFSET) & 0xff);
    }

    public AcmHeader dstIndex(final int value)
    {
        mutableBuffer.putByte(offset + DST_INDEX_OFFSET, (byte)value);
        return this;
    }

    /** Writes the three data bytes at once; ibacm zeroes them in every error reply ({@code data(0, 0, 0)}). */
    public AcmHeader data(final int srcOut, final int srcIndex, final int dstIndex)
    {
        return srcOut(srcOut).srcIndex(srcIndex).dstIndex(dstIndex);
    }

    /** The total message length, header included, in the byte order of the current opcode. */
    public int length()
    {
        return buffer.getShort(offset + LENGTH_OFFSET, lengthOrder(opcode())) & 0xffff;
    }

    /** Writes the length in the byte order of the opcode already written. */
    public AcmHeader length(final int value)
    {
        mutableBuffer.putShort(offset + LENGTH_OFFSET, (short)value, lengthOrder(opcode()));
        return this;
    }

    public long tid()
    {
        return buffer.getLong(offset + TID_OFFSET, HOST_ORDER);
    }

    public AcmHeader tid(final long value)
    {
        mutableBuffer.putLong(offset + TID_OFFSET, value, HOST_ORDER);
        return this;
    }

    @Override
    public String toString()
    {
        if (buffer == null)
        {
            return "AcmHeader{unwrapped}";
        }
        return String.format("AcmHeader{version=%d, opcode=%s, status=%s, data=[%d,%d,%d], length=%d, tid=0x%x}",
            version(), AcmOp.name(opcode()), AcmStatus.name(status()), srcOut(), srcIndex(), dstIndex(), length(),
            tid());
    }
}
