package dev.rdmacm.protocol.rdmanl;

import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.protocol.rdmanl.RdmaNlLs.HOST_ORDER;

/**
 * One netlink attribute ({@code struct nlattr}): a 4-byte header, the payload, padding to 4 bytes.
 * <pre>
 *  +-------------------------------+-------------------------------+
 *  |    nla_len (host, hdr+data)   |  nla_type (host, flag bits)   |  0
 *  +-------------------------------+-------------------------------+
 *  |          payload, then zero padding to a multiple of 4        |  4
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class NlAttribute
{
    public static final int LEN_OFFSET = 0;
    public static final int TYPE_OFFSET = 2;
    /** {@code NLA_HDRLEN}. */
    public static final int HEADER_LENGTH = 4;

    /** Receives each attribute of a message; {@code type} still carries its flag bits. */
    @FunctionalInterface
    public interface Visitor
    {
        void onAttribute(int type, DirectBuffer buffer, int payloadOffset, int payloadLength);
    }

    private NlAttribute()
    {
    }

    /** Writes an attribute header for {@code payloadLength} bytes; returns the payload offset. */
    public static int putHeader(final MutableDirectBuffer buffer, final int offset, final int type, final int payloadLength)
    {
        buffer.putShort(offset + LEN_OFFSET, (short)(HEADER_LENGTH + payloadLength), HOST_ORDER);
        buffer.putShort(offset + TYPE_OFFSET, (short)type, HOST_ORDER);
        return offset + HEADER_LENGTH;
    }

    /** The bytes an attribute with {@code payloadLength} bytes takes, padding included. */
    public static int totalLength(final int payloadLength)
    {
        return RdmaNlLs.align(HEADER_LENGTH + payloadLength);
    }

    /** Writes a whole attribute with padding; returns the offset after it. */
    public static int put(final MutableDirectBuffer buffer, final int offset, final int type, final byte[] payload)
    {
        final int payloadOffset = putHeader(buffer, offset, type, payload.length);
        buffer.putBytes(payloadOffset, payload);
        return pad(buffer, offset, payload.length);
    }

    public static int putU8(final MutableDirectBuffer buffer, final int offset, final int type, final int value)
    {
        buffer.putByte(putHeader(buffer, offset, type, 1), (byte)value);
        return pad(buffer, offset, 1);
    }

    public static int putU16(final MutableDirectBuffer buffer, final int offset, final int type, final int value)
    {
        buffer.putShort(putHeader(buffer, offset, type, 2), (short)value, HOST_ORDER);
        return pad(buffer, offset, 2);
    }

    public static int putU32(final MutableDirectBuffer buffer, final int offset, final int type, final long value)
    {
        buffer.putInt(putHeader(buffer, offset, type, 4), (int)value, HOST_ORDER);
        return pad(buffer, offset, 4);
    }

    public static int putU64(final MutableDirectBuffer buffer, final int offset, final int type, final long value)
    {
        buffer.putLong(putHeader(buffer, offset, type, 8), value, HOST_ORDER);
        return pad(buffer, offset, 8);
    }

    private static int pad(final MutableDirectBuffer buffer, final int offset, final int payloadLength)
    {
        final int end = offset + HEADER_LENGTH + payloadLength;
        final int aligned = offset + totalLength(payloadLength);
        buffer.setMemory(end, aligned - end, (byte)0);
        return aligned;
    }

    /**
     * Walks the attributes in {@code [offset, offset + length)}. Stops, as the kernel's
     * {@code nla_ok} does, at trailing bytes too short for a header; rejects an attribute whose
     * length is below its header or runs past the message.
     */
    public static void forEach(final DirectBuffer buffer, final int offset, final int length, final String message,
        final Visitor visitor)
    {
        int at = offset;
        final int end = offset + length;
        while (end - at >= HEADER_LENGTH)
        {
            final int nlaLen = buffer.getShort(at + LEN_OFFSET, HOST_ORDER) & 0xffff;
            final int type = buffer.getShort(at + TYPE_OFFSET, HOST_ORDER) & 0xffff;
            if (nlaLen < HEADER_LENGTH || nlaLen > end - at)
            {
                throw new MalformedMessageException(message + ": attribute type " + (type & RdmaNlLs.NLA_TYPE_MASK)
                    + " at byte " + (at - offset) + " has nla_len " + nlaLen + ", which must be 4.." + (end - at));
            }
            visitor.onAttribute(type, buffer, at + HEADER_LENGTH, nlaLen - HEADER_LENGTH);
            at += RdmaNlLs.align(nlaLen);
        }
    }
}
