package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.Gid;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the ClassPortInfo attribute (IBA 13.4.8.1, attribute ID 0x0001), 72 bytes,
 * big-endian: what a class agent (here the SA) supports, how long it takes to answer, and where to
 * send requests instead (redirect) and traps.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------+---------------+-------------------------------+
 *  |  BaseVersion  | ClassVersion  |        CapabilityMask         |  0
 *  +---------------+---------------+-----------------+-------------+
 *  |              CapabilityMask2 (27 bits)          |RespTimeValue|  4
 *  +-------------------------------------------------+-------------+
 *  |                     RedirectGID (16 bytes)                    |  8
 *  +---------------+-------+---------------------------------------+
 *  |   RedirectTC  |  RSL  |            RedirectFL                 | 24
 *  +---------------+-------+-------+-------------------------------+
 *  |          RedirectLID          |         RedirectP_Key         | 28
 *  +---------------+---------------+-------------------------------+
 *  |   Reserved    |                  RedirectQP                   | 32
 *  +---------------+-----------------------------------------------+
 *  |                          RedirectQ_Key                        | 36
 *  +---------------------------------------------------------------+
 *  |                       TrapGID (16 bytes)                      | 40
 *  +---------------+-------+---------------------------------------+
 *  |     TrapTC    |  TSL  |               TrapFL                  | 56
 *  +---------------+-------+-------+-------------------------------+
 *  |            TrapLID            |           TrapP_Key           | 60
 *  +---------------+---------------+-------------------------------+
 *  |  TrapHL       |                     TrapQP                    | 64
 *  +---------------+-----------------------------------------------+
 *  |                            TrapQ_Key                          | 68
 *  +---------------------------------------------------------------+
 * </pre>
 * RespTimeValue t means a response may take 4.096 us * 2^t.
 */
public final class ClassPortInfo extends Flyweight
{
    public static final int BASE_VERSION_OFFSET = 0;
    public static final int CLASS_VERSION_OFFSET = 1;
    public static final int CAPABILITY_MASK_OFFSET = 2;
    public static final int CAPABILITY_MASK2_RESP_TIME_OFFSET = 4;
    public static final int REDIRECT_GID_OFFSET = 8;
    public static final int REDIRECT_TC_SL_FL_OFFSET = 24;
    public static final int REDIRECT_LID_OFFSET = 28;
    public static final int REDIRECT_P_KEY_OFFSET = 30;
    public static final int REDIRECT_QP_OFFSET = 32;
    public static final int REDIRECT_Q_KEY_OFFSET = 36;
    public static final int TRAP_GID_OFFSET = 40;
    public static final int TRAP_TC_SL_FL_OFFSET = 56;
    public static final int TRAP_LID_OFFSET = 60;
    public static final int TRAP_P_KEY_OFFSET = 62;
    public static final int TRAP_HOP_LIMIT_QP_OFFSET = 64;
    public static final int TRAP_Q_KEY_OFFSET = 68;
    public static final int LENGTH = 72;

    /** CapabilityMask bits common to every class (IBA 13.4.8.1, Table 126). */
    public static final int CAP_TRAP = 0x0001;
    public static final int CAP_GET_SET = 0x0002;
    public static final int CAP_CAPABILITY_MASK2 = 0x0004;
    /** CapabilityMask bits of the SA (IBA 15.2.5.1, Table 194). */
    public static final int SA_CAP_OPTIONAL_RECORDS = 1 << 8;
    public static final int SA_CAP_UD_MULTICAST = 1 << 9;
    public static final int SA_CAP_MULTI_PATH = 1 << 10;
    public static final int SA_CAP_REINIT = 1 << 11;
    public static final int SA_CAP_GID_SCOPED_MULTI_PATH = 1 << 12;
    public static final int SA_CAP_PORT_INFO_CAP_MASK_MATCH = 1 << 13;
    public static final int SA_CAP_LINK_SPEED_WIDTH_PAIRS = 1 << 14;
    public static final int SA_CAP_PA_SERVICES = 1 << 15;
    /** CapabilityMask2 bits of the SA (IBA 15.2.5.1, Table 195). */
    public static final int SA_CAP2_UNPATH_REPATH = 1 << 0;
    public static final int SA_CAP2_QOS = 1 << 1;
    public static final int SA_CAP2_REVERSE_PATH_P_KEY_MEMBER_BIT = 1 << 2;
    public static final int SA_CAP2_MULTICAST_TOPOLOGY = 1 << 3;
    public static final int SA_CAP2_HIERARCHY_INFO = 1 << 4;
    public static final int SA_CAP2_ADDITIONAL_GUID = 1 << 5;
    public static final int SA_CAP2_FULL_PORT_INFO_RECORD = 1 << 6;
    public static final int SA_CAP2_EXTENDED_SPEEDS = 1 << 7;
    public static final int SA_CAP2_MULTICAST_SERVICE_RECORD = 1 << 8;
    public static final int SA_CAP2_CABLE_INFO_RECORD = 1 << 9;
    public static final int SA_CAP2_PORT_INFO_CAP_MASK2_MATCH = 1 << 10;
    public static final int SA_CAP2_PORT_INFO_EXTENDED_RECORD = 1 << 11;

    public static final int RESP_TIME_WIDTH = 5;
    public static final int CAPABILITY_MASK2_SHIFT = 5;
    public static final int CAPABILITY_MASK2_WIDTH = 27;

    public ClassPortInfo wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("ClassPortInfo", buffer, offset, length, LENGTH);
        return this;
    }

    public ClassPortInfo wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public ClassPortInfo clear()
    {
        zero(0, LENGTH);
        return this;
    }

    public short baseVersion()
    {
        return u8(BASE_VERSION_OFFSET);
    }

    public ClassPortInfo baseVersion(final int value)
    {
        putU8(BASE_VERSION_OFFSET, value);
        return this;
    }

    public short classVersion()
    {
        return u8(CLASS_VERSION_OFFSET);
    }

    public ClassPortInfo classVersion(final int value)
    {
        putU8(CLASS_VERSION_OFFSET, value);
        return this;
    }

    public int capabilityMask()
    {
        return u16(CAPABILITY_MASK_OFFSET);
    }

    public ClassPortInfo capabilityMask(final int value)
    {
        putU16(CAPABILITY_MASK_OFFSET, value);
        return this;
    }

    /** The 27-bit CapabilityMask2. */
    public int capabilityMask2()
    {
        return (int)bits32(CAPABILITY_MASK2_RESP_TIME_OFFSET, CAPABILITY_MASK2_SHIFT, CAPABILITY_MASK2_WIDTH);
    }

    public ClassPortInfo capabilityMask2(final int value)
    {
        putBits32(CAPABILITY_MASK2_RESP_TIME_OFFSET, CAPABILITY_MASK2_SHIFT, CAPABILITY_MASK2_WIDTH, value);
        return this;
    }

    /** The 5-bit RespTimeValue: responses may take 4.096 us * 2^value. */
    public int respTimeValue()
    {
        return (int)bits32(CAPABILITY_MASK2_RESP_TIME_OFFSET, 0, RESP_TIME_WIDTH);
    }

    public ClassPortInfo respTimeValue(final int value)
    {
        putBits32(CAPABILITY_MASK2_RESP_TIME_OFFSET, 0, RESP_TIME_WIDTH, value);
        return this;
    }

    public long redirectGidPrefix()
    {
        return u64(REDIRECT_GID_OFFSET);
    }

    public long redirectGidInterfaceId()
    {
        return u64(REDIRECT_GID_OFFSET + 8);
    }

    public Gid redirectGid()
    {
        return gidAt(REDIRECT_GID_OFFSET);
    }

    public ClassPortInfo redirectGid(final long subnetPrefix, final long interfaceId)
    {
        putGid(REDIRECT_GID_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    public ClassPortInfo redirectGid(final Gid gid)
    {
        return redirectGid(gid.subnetPrefix(), gid.interfaceId());
    }

    public short redirectTc()
    {
        return (short)bits32(REDIRECT_TC_SL_FL_OFFSET, 24, 8);
    }

    public ClassPortInfo redirectTc(final int value)
    {
        putBits32(REDIRECT_TC_SL_FL_OFFSET, 24, 8, value);
        return this;
    }

    public int redirectSl()
    {
        return (int)bits32(REDIRECT_TC_SL_FL_OFFSET, 20, 4);
    }

    public ClassPortInfo redirectSl(final int value)
    {
        putBits32(REDIRECT_TC_SL_FL_OFFSET, 20, 4, value);
        return this;
    }

    public int redirectFl()
    {
        return (int)bits32(REDIRECT_TC_SL_FL_OFFSET, 0, 20);
    }

    public ClassPortInfo redirectFl(final int value)
    {
        putBits32(REDIRECT_TC_SL_FL_OFFSET, 0, 20, value);
        return this;
    }

    public int redirectLid()
    {
        return u16(REDIRECT_LID_OFFSET);
    }

    public ClassPortInfo redirectLid(final int value)
    {
        putU16(REDIRECT_LID_OFFSET, value);
        return this;
    }

    public int redirectPKey()
    {
        return u16(REDIRECT_P_KEY_OFFSET);
    }

    public ClassPortInfo redirectPKey(final int value)
    {
        putU16(REDIRECT_P_KEY_OFFSET, value);
        return this;
    }

    /** The 24-bit redirect QP number. */
    public int redirectQp()
    {
        return (int)bits32(REDIRECT_QP_OFFSET, 0, 24);
    }

    public ClassPortInfo redirectQp(final int value)
    {
        putBits32(REDIRECT_QP_OFFSET, 0, 24, value);
        return this;
    }

    public long redirectQKey()
    {
        return u32(REDIRECT_Q_KEY_OFFSET);
    }

    public ClassPortInfo redirectQKey(final long value)
    {
        putU32(REDIRECT_Q_KEY_OFFSET, value);
        return this;
    }

    public long trapGidPrefix()
    {
        return u64(TRAP_GID_OFFSET);
    }

    public long trapGidInterfaceId()
    {
        return u64(TRAP_GID_OFFSET + 8);
    }

    public Gid trapGid()
    {
        return gidAt(TRAP_GID_OFFSET);
    }

    public ClassPortInfo trapGid(final long subnetPrefix, final long interfaceId)
    {
        putGid(TRAP_GID_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    public ClassPortInfo trapGid(final Gid gid)
    {
        return trapGid(gid.subnetPrefix(), gid.interfaceId());
    }

    public short trapTc()
    {
        return (short)bits32(TRAP_TC_SL_FL_OFFSET, 24, 8);
    }

    public ClassPortInfo trapTc(final int value)
    {
        putBits32(TRAP_TC_SL_FL_OFFSET, 24, 8, value);
        return this;
    }

    public int trapSl()
    {
        return (int)bits32(TRAP_TC_SL_FL_OFFSET, 20, 4);
    }

    public ClassPortInfo trapSl(final int value)
    {
        putBits32(TRAP_TC_SL_FL_OFFSET, 20, 4, value);
        return this;
    }

    public int trapFl()
    {
        return (int)bits32(TRAP_TC_SL_FL_OFFSET, 0, 20);
    }

    public ClassPortInfo trapFl(final int value)
    {
        putBits32(TRAP_TC_SL_FL_OFFSET, 0, 20, value);
        return this;
    }

    public int trapLid()
    {
        return u16(TRAP_LID_OFFSET);
    }

    public ClassPortInfo trapLid(final int value)
    {
        putU16(TRAP_LID_OFFSET, value);
        return this;
    }

    public int trapPKey()
    {
        return u16(TRAP_P_KEY_OFFSET);
    }

    public ClassPortInfo trapPKey(final int value)
    {
        putU16(TRAP_P_KEY_OFFSET, value);
        return this;
    }

    public short trapHopLimit()
    {
        return (short)bits32(TRAP_HOP_LIMIT_QP_OFFSET, 24, 8);
    }

    public ClassPortInfo trapHopLimit(final int value)
    {
        putBits32(TRAP_HOP_LIMIT_QP_OFFSET, 24, 8, value);
        return this;
    }

    /** The 24-bit trap QP number. */
    public int trapQp()
    {
        return (int)bits32(TRAP_HOP_LIMIT_QP_OFFSET, 0, 24);
    }

    public ClassPortInfo trapQp(final int value)
    {
        putBits32(TRAP_HOP_LIMIT_QP_OFFSET, 0, 24, value);
        return this;
    }

    public long trapQKey()
    {
        return u32(TRAP_Q_KEY_OFFSET);
    }

    public ClassPortInfo trapQKey(final long value)
    {
        putU32(TRAP_Q_KEY_OFFSET, value);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "ClassPortInfo{unwrapped}";
        }
        return String.format(
            "ClassPortInfo{BaseVersion=%d, ClassVersion=%d, CapabilityMask=0x%04x, CapabilityMask2=0x%07x, " +
            "RespTimeValue=%s, RedirectGID=%s, RedirectTC=%d, RedirectSL=%d, RedirectFL=0x%05x, RedirectLID=%d, " +
            "RedirectP_Key=0x%04x, RedirectQP=0x%06x, RedirectQ_Key=0x%08x, TrapGID=%s, TrapTC=%d, TrapSL=%d, " +
            "TrapFL=0x%05x, TrapLID=%d, TrapP_Key=0x%04x, TrapHL=%d, TrapQP=0x%06x, TrapQ_Key=0x%08x}",
            baseVersion(), classVersion(), capabilityMask(), capabilityMask2(),
            PacketLifetime.describe(respTimeValue()), redirectGid(), redirectTc(), redirectSl(), redirectFl(),
            redirectLid(), redirectPKey(), redirectQp(), redirectQKey(), trapGid(), trapTc(), trapSl(), trapFl(),
            trapLid(), trapPKey(), trapHopLimit(), trapQp(), trapQKey());
    }
}
