package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Gid;

/**
 * The 64-byte path layout that the SA's PathRecord attribute and librdmacm's {@code struct
 * ibv_path_record} share: ibacm fills the latter by copying the former from the wire, so every field
 * is big-endian and in the same place. The two differ only in bits 31-28 of byte 44 (RawTraffic and
 * reserved bits in the SA record, all reserved in {@code ibv_path_record}) and in their names.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                          ServiceID                            |  0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                       DGID (16 bytes)                         |  8
 *  +---------------------------------------------------------------+
 *  |                       SGID (16 bytes)                         | 24
 *  +-------------------------------+-------------------------------+
 *  |             DLID              |             SLID              | 40
 *  +-------------------------------+-------------------------------+
 *  |        path properties (13 bytes, see PathProperties)         | 44
 *  |                                                               | 48
 *  |                                                               | 52
 *  +---------------+---------------+-------------------------------+
 *  | PS|    PLT    |  Preference   |           Reserved            | 56
 *  +---------------+---------------+-------------------------------+
 *  |                           Reserved                            | 60
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * @param <T> the concrete flyweight, so that fluent setters keep its type.
 */
public abstract class PathRecordLayout<T extends PathRecordLayout<T>> extends PathProperties<T>
{
    public static final int SERVICE_ID_OFFSET = 0;
    public static final int DGID_OFFSET = 8;
    public static final int SGID_OFFSET = 24;
    public static final int DLID_OFFSET = 40;
    public static final int SLID_OFFSET = 42;
    /** RawTraffic (PathRecord only), FlowLabel and HopLimit. */
    public static final int FLOW_LABEL_HOP_LIMIT_OFFSET = 44;
    public static final int TCLASS_OFFSET = 48;
    public static final int REVERSIBLE_NUMB_PATH_OFFSET = 49;
    public static final int P_KEY_OFFSET = 50;
    public static final int QOS_CLASS_SL_OFFSET = 52;
    public static final int MTU_OFFSET = 54;
    public static final int RATE_OFFSET = 55;
    public static final int PACKET_LIFE_TIME_OFFSET = 56;
    public static final int PREFERENCE_OFFSET = 57;
    public static final int RESERVED_OFFSET = 58;
    public static final int RESERVED_LENGTH = 6;
    public static final int LENGTH = 64;

    protected PathRecordLayout()
    {
        super(FLOW_LABEL_HOP_LIMIT_OFFSET);
    }

    @SuppressWarnings("unchecked")
    private T self()
    {
        return (T)this;
    }

    /** The 64-bit ServiceID: all of bytes 0-7, selected by both ServiceID component-mask bits. */
    public long serviceId()
    {
        return u64(SERVICE_ID_OFFSET);
    }

    public T serviceId(final long value)
    {
        putU64(SERVICE_ID_OFFSET, value);
        return self();
    }

    public long dgidPrefix()
    {
        return u64(DGID_OFFSET);
    }

    public long dgidInterfaceId()
    {
        return u64(DGID_OFFSET + 8);
    }

    public Gid dgid()
    {
        return gidAt(DGID_OFFSET);
    }

    public T dgid(final long subnetPrefix, final long interfaceId)
    {
        putGid(DGID_OFFSET, subnetPrefix, interfaceId);
        return self();
    }

    public T dgid(final Gid gid)
    {
        return dgid(gid.subnetPrefix(), gid.interfaceId());
    }

    public long sgidPrefix()
    {
        return u64(SGID_OFFSET);
    }

    public long sgidInterfaceId()
    {
        return u64(SGID_OFFSET + 8);
    }

    public Gid sgid()
    {
        return gidAt(SGID_OFFSET);
    }

    public T sgid(final long subnetPrefix, final long interfaceId)
    {
        putGid(SGID_OFFSET, subnetPrefix, interfaceId);
        return self();
    }

    public T sgid(final Gid gid)
    {
        return sgid(gid.subnetPrefix(), gid.interfaceId());
    }

    public int dlid()
    {
        return u16(DLID_OFFSET);
    }

    public T dlid(final int value)
    {
        putU16(DLID_OFFSET, value);
        return self();
    }

    public int slid()
    {
        return u16(SLID_OFFSET);
    }

    public T slid(final int value)
    {
        putU16(SLID_OFFSET, value);
        return self();
    }

    /** Lower is better among the records of one response. */
    public short preference()
    {
        return u8(PREFERENCE_OFFSET);
    }

    public T preference(final int value)
    {
        putU8(PREFERENCE_OFFSET, value);
        return self();
    }

    /** Zeroes all 64 bytes, reserved ones included; encoders start here. */
    public T clear()
    {
        zero(0, LENGTH);
        return self();
    }

    /** Appends every field but RawTraffic, in the names Wireshark and saquery use. */
    protected final void appendFields(final StringBuilder text)
    {
        text.append("ServiceID=").append(String.format("0x%016x", serviceId()))
            .append(", DGID=").append(dgid())
            .append(", SGID=").append(sgid())
            .append(", DLID=").append(dlid())
            .append(", SLID=").append(slid())
            .append(", ");
        appendProperties(text);
        text.append(", Preference=").append(preference());
    }
}
