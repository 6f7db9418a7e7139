package dev.rdmacm.protocol.acm;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over one 72-byte {@code struct acm_ep_addr_data}: an address, a name or a path in a
 * RESOLVE message (up to eight of them follow the header).
 * <pre>
 *   0               1               2               3
 *  +---------------+---------------+---------------+---------------+
 *  |                     flags (host order)                        |  0
 *  +-------------------------------+-------------------------------+
 *  |       type (host order)       |           reserved            |  4
 *  +-------------------------------+-------------------------------+
 *  |  info: 64 bytes, network order                                |  8
 *  |    IP: 4 address bytes, zero-padded; IP6: 16 bytes;           |
 *  |    NAME: NUL-terminated text; PATH: struct ibv_path_record    |
 *  |    (service_id 8 | dgid 16 | sgid 16 | dlid 2 | slid 2 | ...) |
 *  +---------------------------------------------------------------+ 72
 * </pre>
 * In a reply, a PATH entry is read by librdmacm as a {@code struct ibv_path_data}: {@code flags} are
 * then {@code IBV_PATH_FLAG_*} and {@code type}/{@code reserved} its zeroed reserved word. The path
 * itself is read and written through {@link IbvPathRecord} ({@link #path}).
 */
public final class AcmEpAddrData extends Flyweight
{
    public static final int FLAGS_OFFSET = 0;
    public static final int TYPE_OFFSET = 4;
    public static final int RESERVED_OFFSET = 6;
    public static final int INFO_OFFSET = 8;
    /** {@code ACM_MAX_ADDRESS}: the size of the info union. */
    public static final int INFO_LENGTH = 64;
    /** {@code ACM_MSG_EP_LENGTH}. */
    public static final int LENGTH = 72;

    public static final int IPV4_LENGTH = 4;
    public static final int IPV6_LENGTH = 16;

    /** Wraps an entry for reading, checking that all 72 bytes are present. */
    public AcmEpAddrData wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("ACM address entry", buffer, offset, length, LENGTH);
        return this;
    }

    /** Wraps an entry for writing. */
    public AcmEpAddrData wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public long flags()
    {
        return buffer.getInt(offset + FLAGS_OFFSET, HOST_ORDER) & 0xffff_ffffL;
    }

    public AcmEpAddrData flags(final long value)
    {
        mutableBuffer.putInt(offset + FLAGS_OFFSET, (int)value, HOST_ORDER);
        return this;
    }

    public boolean hasFlag(final int flag)
    {
        return (flags() & (flag & 0xffff_ffffL)) != 0;
    }

    public int type()
    {
        return buffer.getShort(offset + TYPE_OFFSET, HOST_ORDER) & 0xffff;
    }

    public AcmEpAddrData type(final int value)
    {
        mutableBuffer.putShort(offset + TYPE_OFFSET, (short)value, HOST_ORDER);
        return this;
    }

    public int reserved()
    {
        return buffer.getShort(offset + RESERVED_OFFSET, HOST_ORDER) & 0xffff;
    }

    public AcmEpAddrData reserved(final int value)
    {
        mutableBuffer.putShort(offset + RESERVED_OFFSET, (short)value, HOST_ORDER);
        return this;
    }

    /** The absolute offset of the 64-byte info union in the wrapped buffer. */
    public int infoOffset()
    {
        return offset + INFO_OFFSET;
    }

    /** Copies the whole info union into {@code dst}. */
    public void getInfo(final byte[] dst)
    {
        buffer.getBytes(offset + INFO_OFFSET, dst, 0, INFO_LENGTH);
    }

    /** Writes {@code bytes} at the start of the info union and zeroes the rest of it. */
    public AcmEpAddrData info(final byte[] bytes)
    {
        if (bytes.length > INFO_LENGTH)
        {
            throw new IllegalArgumentException(
                "ACM address entry info: " + bytes.length + " bytes, the union holds at most " + INFO_LENGTH);
        }
        mutableBuffer.setMemory(offset + INFO_OFFSET, INFO_LENGTH, (byte)0);
        mutableBuffer.putBytes(offset + INFO_OFFSET, bytes);
        return this;
    }

    /** An IP entry's IPv4 address as an int in network order (first byte most significant). */
    public int ipv4()
    {
        return buffer.getInt(offset + INFO_OFFSET, BIG_ENDIAN);
    }

    public AcmEpAddrData ipv4(final int address)
    {
        mutableBuffer.setMemory(offset + INFO_OFFSET, INFO_LENGTH, (byte)0);
        mutableBuffer.putInt(offset + INFO_OFFSET, address, BIG_ENDIAN);
        return this;
    }

    /**
     * A NAME entry's text: the bytes up to the first NUL (or all 64 when there is none, which ibacm
     * tolerates).
     */
    public String name()
    {
        return paddedText(INFO_OFFSET, INFO_LENGTH);
    }

    /** Writes a NAME; at most 63 bytes so that the terminating NUL fits. */
    public AcmEpAddrData name(final String name)
    {
        final byte[] text = name.getBytes(StandardCharsets.US_ASCII);
        if (text.length >= INFO_LENGTH)
        {
            throw new IllegalArgumentException("ACM name '" + name + "': " + text.length
                + " bytes, at most " + (INFO_LENGTH - 1) + " fit with the terminating NUL");
        }
        return info(text);
    }

    /** Wraps {@code record} over the info union of a PATH entry, for reading or writing. */
    public IbvPathRecord path(final IbvPathRecord record)
    {
        if (mutableBuffer != null)
        {
            return record.wrap(mutableBuffer, offset + INFO_OFFSET);
        }
        return record.wrap(buffer, offset + INFO_OFFSET, IbvPathRecord.LENGTH);
    }

    @Override
    public String toString()
    {
        if (buffer == null)
        {
            return "AcmEpAddrData{unwrapped}";
        }
        return String.format("AcmEpAddrData{flags=0x%08x, type=%s}", flags(), AcmEpType.name(type()));
    }
}
