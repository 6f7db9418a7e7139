package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the SA MultiPathRecord attribute (IBA 15.2.5.20, attribute ID 0x003A): a 24-byte
 * header followed by SGIDCount source GIDs and then DGIDCount destination GIDs, big-endian.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |        path properties (13 bytes, see PathProperties)         |  0
 *  |                                                               |  4
 *  |                                                               |  8
 *  +---------------+---------------+---+-----------+---------------+
 *  | PS|    PLT    | ServiceID8MSB |IS | reserved  |   SGIDCount   | 12
 *  +---------------+---------------+---+-----------+---------------+
 *  |   DGIDCount   |        ServiceID56LSB (7 bytes)               | 16
 *  +---------------+                                               |
 *  |                                                               | 20
 *  +---------------------------------------------------------------+
 *  |          SDGID[0..SGIDCount+DGIDCount-1], 16 bytes each       | 24
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 * </pre>
 * IS = IndependenceSelector (2 bits). One SA MAD holds at most {@link #MAX_GIDS} GIDs.
 */
public final class MultiPathRecord extends PathProperties<MultiPathRecord>
{
    /** RawTraffic, FlowLabel and HopLimit. */
    public static final int FLOW_LABEL_HOP_LIMIT_OFFSET = 0;
    public static final int TCLASS_OFFSET = 4;
    public static final int REVERSIBLE_NUMB_PATH_OFFSET = 5;
    public static final int P_KEY_OFFSET = 6;
    public static final int QOS_CLASS_SL_OFFSET = 8;
    public static final int MTU_OFFSET = 10;
    public static final int RATE_OFFSET = 11;
    public static final int PACKET_LIFE_TIME_OFFSET = 12;
    public static final int SERVICE_ID_8MSB_OFFSET = 13;
    public static final int INDEPENDENCE_SELECTOR_OFFSET = 14;
    public static final int SGID_COUNT_OFFSET = 15;
    public static final int DGID_COUNT_OFFSET = 16;
    public static final int SERVICE_ID_56LSB_OFFSET = 17;
    public static final int GIDS_OFFSET = 24;
    public static final int HEADER_LENGTH = GIDS_OFFSET;
    public static final int GID_LENGTH = Gid.LENGTH;
    /** The most GIDs that fit in the 200 data bytes of one SA MAD. */
    public static final int MAX_GIDS = (SaMad.DATA_LENGTH - HEADER_LENGTH) / GID_LENGTH;

    private static final long SERVICE_ID_56LSB_MASK = 0x00ff_ffff_ffff_ffffL;
    private static final int INDEPENDENCE_SELECTOR_SHIFT = 6;

    public MultiPathRecord()
    {
        super(FLOW_LABEL_HOP_LIMIT_OFFSET);
    }

    /**
     * Wraps a record for reading, checking that the header and the GIDs its two counts announce are
     * present.
     */
    public MultiPathRecord wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("MultiPathRecord", buffer, offset, length, HEADER_LENGTH);
        final int required = length(sgidCount() + dgidCount());
        if (length < required)
        {
            throw new MalformedMessageException("MultiPathRecord: SGIDCount " + sgidCount() + " + DGIDCount " +
                dgidCount() + " GIDs need " + required + " bytes, " + length + " present");
        }
        return this;
    }

    public MultiPathRecord wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** The bytes of a record that carries {@code gidCount} GIDs. */
    public static int length(final int gidCount)
    {
        return HEADER_LENGTH + gidCount * GID_LENGTH;
    }

    /** The bytes of this record, GIDs included. */
    public int length()
    {
        return length(sgidCount() + dgidCount());
    }

    public boolean rawTraffic()
    {
        return rawTrafficBit();
    }

    public MultiPathRecord rawTraffic(final boolean value)
    {
        rawTrafficBit(value);
        return this;
    }

    /** The ServiceID put back together from its 8 high bits (byte 13) and 56 low bits (bytes 17-23). */
    public long serviceId()
    {
        return ((long)u8(SERVICE_ID_8MSB_OFFSET) << 56) | (u64(DGID_COUNT_OFFSET) & SERVICE_ID_56LSB_MASK);
    }

    public MultiPathRecord serviceId(final long value)
    {
        putU8(SERVICE_ID_8MSB_OFFSET, (int)(value >>> 56));
        putU64(DGID_COUNT_OFFSET, ((long)dgidCount() << 56) | (value & SERVICE_ID_56LSB_MASK));
        return this;
    }

    /** The 2-bit IndependenceSelector: how disjoint the returned paths must be. */
    public int independenceSelector()
    {
        return bits8(INDEPENDENCE_SELECTOR_OFFSET, INDEPENDENCE_SELECTOR_SHIFT, 2);
    }

    public MultiPathRecord independenceSelector(final int value)
    {
        putBits8(INDEPENDENCE_SELECTOR_OFFSET, INDEPENDENCE_SELECTOR_SHIFT, 2, value);
        return this;
    }

    public short sgidCount()
    {
        return u8(SGID_COUNT_OFFSET);
    }

    public MultiPathRecord sgidCount(final int value)
    {
        putU8(SGID_COUNT_OFFSET, value);
        return this;
    }

    public short dgidCount()
    {
        return u8(DGID_COUNT_OFFSET);
    }

    public MultiPathRecord dgidCount(final int value)
    {
        putU8(DGID_COUNT_OFFSET, value);
        return this;
    }

    /** The subnet prefix of GID {@code index} of the list (source GIDs first, then destination GIDs). */
    public long gidPrefix(final int index)
    {
        return u64(gidOffset(index));
    }

    public long gidInterfaceId(final int index)
    {
        return u64(gidOffset(index) + 8);
    }

    public Gid gid(final int index)
    {
        return gidAt(gidOffset(index));
    }

    public Gid sgid(final int index)
    {
        checkIndex("SGID", index, sgidCount());
        return gid(index);
    }

    public Gid dgid(final int index)
    {
        checkIndex("DGID", index, dgidCount());
        return gid(sgidCount() + index);
    }

    /** Writes GID {@code index} of the list; set the counts first so that the index can be checked. */
    public MultiPathRecord gid(final int index, final long subnetPrefix, final long interfaceId)
    {
        putGid(gidOffset(index), subnetPrefix, interfaceId);
        return this;
    }

    public MultiPathRecord gid(final int index, final Gid gid)
    {
        return gid(index, gid.subnetPrefix(), gid.interfaceId());
    }

    /** Zeroes the header and the room for {@code gidCount} GIDs. */
    public MultiPathRecord clear(final int gidCount)
    {
        zero(0, length(gidCount));
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "MultiPathRecord{unwrapped}";
        }
        final StringBuilder text = new StringBuilder(256 + 48 * (sgidCount() + dgidCount()))
            .append("MultiPathRecord{RawTraffic=").append(rawTraffic() ? 1 : 0).append(", ");
        appendProperties(text);
        text.append(", ServiceID=").append(String.format("0x%016x", serviceId()))
            .append(", IndependenceSelector=").append(independenceSelector())
            .append(", SGIDCount=").append(sgidCount())
            .append(", DGIDCount=").append(dgidCount());
        for (int i = 0; i < sgidCount(); i++)
        {
            text.append(", SGID[").append(i).append("]=").append(sgid(i));
        }
        for (int i = 0; i < dgidCount(); i++)
        {
            text.append(", DGID[").append(i).append("]=").append(dgid(i));
        }
        return text.append('}').toString();
    }

    private int gidOffset(final int index)
    {
        checkIndex("GID", index, sgidCount() + dgidCount());
        return GIDS_OFFSET + index * GID_LENGTH;
    }

    private static void checkIndex(final String what, final int index, final int count)
    {
        if (index < 0 || index >= count)
        {
            throw new IndexOutOfBoundsException(
                "MultiPathRecord " + what + " index " + index + " is outside the " + count + " the record holds");
        }
    }
}
