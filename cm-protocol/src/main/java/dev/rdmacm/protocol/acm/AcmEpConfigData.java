package dev.rdmacm.protocol.acm;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over {@code struct acm_ep_config_data}, the body of an EP_QUERY reply (network order).
 * <pre>
 *   0               1               2               3
 *  +---------------------------------------------------------------+
 *  |                          dev_guid                             |  0
 *  |                                                               |
 *  +---------------+---------------+-------------------------------+
 *  |   port_num    | phys_port_cnt |             rsvd              |  8
 *  +---------------+---------------+-------------------------------+
 *  |             pkey              |           addr_cnt            | 12
 *  +-------------------------------+-------------------------------+
 *  |                prov_name: 64 bytes, NUL-terminated            | 16
 *  +---------------------------------------------------------------+
 *  |       addrs: addr_cnt x 64-byte NUL-terminated strings        | 80
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class AcmEpConfigData extends Flyweight
{
    public static final int DEV_GUID_OFFSET = 0;
    public static final int PORT_NUM_OFFSET = 8;
    public static final int PHYS_PORT_CNT_OFFSET = 9;
    public static final int RSVD_OFFSET = 10;
    public static final int PKEY_OFFSET = 12;
    public static final int ADDR_CNT_OFFSET = 14;
    public static final int PROV_NAME_OFFSET = 16;
    /** {@code ACM_MAX_PROV_NAME}. */
    public static final int PROV_NAME_LENGTH = 64;
    public static final int ADDRS_OFFSET = 80;
    /** {@code sizeof(struct acm_ep_config_data)}: the fixed part. */
    public static final int LENGTH = ADDRS_OFFSET;
    /** Each address is one {@code union acm_ep_info} printed as text. */
    public static final int ADDR_LENGTH = AcmEpAddrData.INFO_LENGTH;

    private int available;

    /** Wraps for reading, checking that the fixed part and every announced address are present. */
    public AcmEpConfigData wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("ACM endpoint config", buffer, offset, length, LENGTH);
        this.available = length;
        MalformedMessageException.requireLength(
            "ACM endpoint config with addr_cnt " + addrCnt(), length, LENGTH + addrCnt() * ADDR_LENGTH);
        return this;
    }

    /** Wraps for writing. */
    public AcmEpConfigData wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        this.available = buffer.capacity() - offset;
        return this;
    }

    /** The encoded length for {@code addrCnt} addresses. */
    public static int encodedLength(final int addrCnt)
    {
        return LENGTH + addrCnt * ADDR_LENGTH;
    }

    public long devGuid()
    {
        return buffer.getLong(offset + DEV_GUID_OFFSET, BIG_ENDIAN);
    }

    public AcmEpConfigData devGuid(final long value)
    {
        mutableBuffer.putLong(offset + DEV_GUID_OFFSET, value, BIG_ENDIAN);
        return this;
    }

    public short portNum()
    {
        return (short)(buffer.getByte(offset + PORT_NUM_OFFSET) & 0xff);
    }

    public AcmEpConfigData portNum(final int value)
    {
        mutableBuffer.putByte(offset + PORT_NUM_OFFSET, (byte)value);
        return this;
    }

    public short physPortCnt()
    {
        return (short)(buffer.getByte(offset + PHYS_PORT_CNT_OFFSET) & 0xff);
    }

    public AcmEpConfigData physPortCnt(final int value)
    {
        mutableBuffer.putByte(offset + PHYS_PORT_CNT_OFFSET, (byte)value);
        mutableBuffer.putShort(offset + RSVD_OFFSET, (short)0, BIG_ENDIAN);
        return this;
    }

    public int pkey()
    {
        return buffer.getShort(offset + PKEY_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public AcmEpConfigData pkey(final int value)
    {
        mutableBuffer.putShort(offset + PKEY_OFFSET, (short)value, BIG_ENDIAN);
        return this;
    }

    public int addrCnt()
    {
        return buffer.getShort(offset + ADDR_CNT_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public AcmEpConfigData addrCnt(final int value)
    {
        mutableBuffer.putShort(offset + ADDR_CNT_OFFSET, (short)value, BIG_ENDIAN);
        return this;
    }

    public String provName()
    {
        return paddedText(PROV_NAME_OFFSET, PROV_NAME_LENGTH);
    }

    /** Writes the provider name, truncated to 63 bytes as ibacm does, NUL-padded. */
    public AcmEpConfigData provName(final String name)
    {
        putText(offset + PROV_NAME_OFFSET, PROV_NAME_LENGTH, name);
        return this;
    }

    public String addr(final int index)
    {
        return paddedText(ADDRS_OFFSET + index * ADDR_LENGTH, ADDR_LENGTH);
    }

    /** Writes address {@code index} (0-based) as NUL-padded text truncated to 63 bytes. */
    public AcmEpConfigData addr(final int index, final String address)
    {
        final int at = offset + ADDRS_OFFSET + index * ADDR_LENGTH;
        if (at + ADDR_LENGTH > offset + available)
        {
            throw new IllegalArgumentException("ACM endpoint config: address " + index + " does not fit in "
                + available + " bytes");
        }
        putText(at, ADDR_LENGTH, address);
        return this;
    }

    private void putText(final int at, final int max, final String text)
    {
        final byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        final int length = Math.min(bytes.length, max - 1);
        mutableBuffer.setMemory(at, max, (byte)0);
        mutableBuffer.putBytes(at, bytes, 0, length);
    }
}
