package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.Gid;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the SA ServiceRecord attribute (IBA 15.2.5.14, attribute ID 0x0031), 176 bytes,
 * big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                          ServiceID                            |   0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     ServiceGID (16 bytes)                     |   8
 *  +-------------------------------+-------------------------------+
 *  |          ServiceP_Key         |           Reserved            |  24
 *  +-------------------------------+-------------------------------+
 *  |                         ServiceLease                          |  28
 *  +---------------------------------------------------------------+
 *  |                     ServiceKey (16 bytes)                     |  32
 *  +---------------------------------------------------------------+
 *  |       ServiceName (64 bytes, UTF-8, NUL-padded)               |  48
 *  +---------------------------------------------------------------+
 *  |       ServiceData8[16]                                        | 112
 *  |       ServiceData16[8]                                        | 128
 *  |       ServiceData32[4]                                        | 144
 *  |       ServiceData64[2]                                        | 160
 *  +---------------------------------------------------------------+
 * </pre>
 * A lease of 0xFFFFFFFF never expires.
 */
public final class ServiceRecord extends Flyweight
{
    public static final int SERVICE_ID_OFFSET = 0;
    public static final int SERVICE_GID_OFFSET = 8;
    public static final int SERVICE_P_KEY_OFFSET = 24;
    public static final int RESERVED_OFFSET = 26;
    public static final int SERVICE_LEASE_OFFSET = 28;
    public static final int SERVICE_KEY_OFFSET = 32;
    public static final int SERVICE_KEY_LENGTH = 16;
    public static final int SERVICE_NAME_OFFSET = 48;
    public static final int SERVICE_NAME_LENGTH = 64;
    public static final int SERVICE_DATA8_OFFSET = 112;
    public static final int SERVICE_DATA16_OFFSET = 128;
    public static final int SERVICE_DATA32_OFFSET = 144;
    public static final int SERVICE_DATA64_OFFSET = 160;
    public static final int SERVICE_DATA_LENGTH = 64;
    public static final int LENGTH = 176;
    public static final long INFINITE_LEASE = 0xffff_ffffL;

    public ServiceRecord wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("ServiceRecord", buffer, offset, length, LENGTH);
        return this;
    }

    public ServiceRecord wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public ServiceRecord clear()
    {
        zero(0, LENGTH);
        return this;
    }

    public long serviceId()
    {
        return u64(SERVICE_ID_OFFSET);
    }

    public ServiceRecord serviceId(final long value)
    {
        putU64(SERVICE_ID_OFFSET, value);
        return this;
    }

    public long serviceGidPrefix()
    {
        return u64(SERVICE_GID_OFFSET);
    }

    public long serviceGidInterfaceId()
    {
        return u64(SERVICE_GID_OFFSET + 8);
    }

    public Gid serviceGid()
    {
        return gidAt(SERVICE_GID_OFFSET);
    }

    public ServiceRecord serviceGid(final long subnetPrefix, final long interfaceId)
    {
        putGid(SERVICE_GID_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    public ServiceRecord serviceGid(final Gid gid)
    {
        return serviceGid(gid.subnetPrefix(), gid.interfaceId());
    }

    public int servicePKey()
    {
        return u16(SERVICE_P_KEY_OFFSET);
    }

    public ServiceRecord servicePKey(final int value)
    {
        putU16(SERVICE_P_KEY_OFFSET, value);
        putU16(RESERVED_OFFSET, 0);
        return this;
    }

    /** Seconds until the SA forgets the record; {@link #INFINITE_LEASE} for never. */
    public long serviceLease()
    {
        return u32(SERVICE_LEASE_OFFSET);
    }

    public ServiceRecord serviceLease(final long seconds)
    {
        putU32(SERVICE_LEASE_OFFSET, seconds);
        return this;
    }

    /** The first 8 bytes of the 16-byte ServiceKey. */
    public long serviceKeyHigh()
    {
        return u64(SERVICE_KEY_OFFSET);
    }

    /** The last 8 bytes of the 16-byte ServiceKey. */
    public long serviceKeyLow()
    {
        return u64(SERVICE_KEY_OFFSET + 8);
    }

    public ServiceRecord serviceKey(final long high, final long low)
    {
        putU64(SERVICE_KEY_OFFSET, high);
        putU64(SERVICE_KEY_OFFSET + 8, low);
        return this;
    }

    /** The name up to its first NUL (or all 64 bytes), decoded as UTF-8. */
    public String serviceName()
    {
        return paddedText(SERVICE_NAME_OFFSET, SERVICE_NAME_LENGTH);
    }

    /**
     * Writes the name as UTF-8, NUL-padded to 64 bytes.
     *
     * @throws IllegalArgumentException when it needs more than 64 bytes.
     */
    public ServiceRecord serviceName(final String name)
    {
        putPaddedText("ServiceName", SERVICE_NAME_OFFSET, SERVICE_NAME_LENGTH, name);
        return this;
    }

    /** ServiceData8[index], index 0-15. */
    public short serviceData8(final int index)
    {
        return u8(SERVICE_DATA8_OFFSET + checkIndex("ServiceData8", index, 16));
    }

    public ServiceRecord serviceData8(final int index, final int value)
    {
        putU8(SERVICE_DATA8_OFFSET + checkIndex("ServiceData8", index, 16), value);
        return this;
    }

    /** ServiceData16[index], index 0-7. */
    public int serviceData16(final int index)
    {
        return u16(SERVICE_DATA16_OFFSET + 2 * checkIndex("ServiceData16", index, 8));
    }

    public ServiceRecord serviceData16(final int index, final int value)
    {
        putU16(SERVICE_DATA16_OFFSET + 2 * checkIndex("ServiceData16", index, 8), value);
        return this;
    }

    /** ServiceData32[index], index 0-3. */
    public long serviceData32(final int index)
    {
        return u32(SERVICE_DATA32_OFFSET + 4 * checkIndex("ServiceData32", index, 4));
    }

    public ServiceRecord serviceData32(final int index, final long value)
    {
        putU32(SERVICE_DATA32_OFFSET + 4 * checkIndex("ServiceData32", index, 4), value);
        return this;
    }

    /** ServiceData64[index], index 0-1. */
    public long serviceData64(final int index)
    {
        return u64(SERVICE_DATA64_OFFSET + 8 * checkIndex("ServiceData64", index, 2));
    }

    public ServiceRecord serviceData64(final int index, final long value)
    {
        putU64(SERVICE_DATA64_OFFSET + 8 * checkIndex("ServiceData64", index, 2), value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "ServiceRecord{unwrapped}";
        }
        final StringBuilder data = new StringBuilder(2 * SERVICE_DATA_LENGTH);
        for (int i = 0; i < SERVICE_DATA_LENGTH; i++)
        {
            data.append(String.format("%02x", buffer.getByte(offset + SERVICE_DATA8_OFFSET + i)));
        }
        return String.format(
            "ServiceRecord{ServiceID=0x%016x, ServiceGID=%s, ServiceP_Key=0x%04x, ServiceLease=%s, " +
            "ServiceKey=%016x%016x, ServiceName=\"%s\", ServiceData=%s}",
            serviceId(), serviceGid(), servicePKey(),
            serviceLease() == INFINITE_LEASE ? "infinite" : serviceLease() + " s",
            serviceKeyHigh(), serviceKeyLow(), serviceName(), data);
    }

    private static int checkIndex(final String field, final int index, final int count)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException(field + " index " + index + " is not 0-" + (count - 1));
        }
        return index;
    }
}
