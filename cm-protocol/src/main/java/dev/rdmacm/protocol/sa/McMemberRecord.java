package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Flyweight;
import dev.rdmacm.protocol.Gid;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the SA MCMemberRecord attribute (IBA 15.2.5.17, attribute ID 0x0038), 56 bytes on the
 * wire (52 defined, 4 of padding to the 8-byte AttributeOffset unit), big-endian: what a port sends to
 * join (SubnAdmSet) or leave (SubnAdmDelete) a multicast group, and what the SA answers with.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                       MGID (16 bytes)                         |   0
 *  +---------------------------------------------------------------+
 *  |                      PortGID (16 bytes)                       |  16
 *  +---------------------------------------------------------------+
 *  |                            Q_Key                              |  32
 *  +-------------------------------+---+-----------+---------------+
 *  |             MLID              |MS |    MTU    |    TClass     |  36
 *  +-------------------------------+---+-----------+---+-----------+
 *  |             P_Key             |RS |   Rate    |PLS| PktLifeTm |  40
 *  +-------+-----------------------+---------------+---------------+
 *  |  SL   |              FlowLabel                |   HopLimit    |  44
 *  +-------+-------+-+-------------+---------------+---------------+
 *  | Scope |JoinSt |P|             Reserved (23 bits)              |  48
 *  +-------+-------+-+---------------------------------------------+
 *  |                       Padding (4 bytes)                       |  52
 *  +---------------------------------------------------------------+
 * </pre>
 * MS, RS, PLS are the 2-bit {@link Selector}s above the 6-bit MTU, Rate and PacketLifeTime codes; P is
 * ProxyJoin. JoinState is a set of {@link JoinState} bits. Component-mask bits are in
 * {@link McMemberRecordComponentMask}.
 */
public final class McMemberRecord extends Flyweight
{
    public static final int MGID_OFFSET = 0;
    public static final int PORT_GID_OFFSET = 16;
    public static final int Q_KEY_OFFSET = 32;
    public static final int MLID_OFFSET = 36;
    public static final int MTU_OFFSET = 38;
    public static final int TCLASS_OFFSET = 39;
    public static final int P_KEY_OFFSET = 40;
    public static final int RATE_OFFSET = 42;
    public static final int PACKET_LIFE_TIME_OFFSET = 43;
    public static final int SL_FLOW_LABEL_HOP_LIMIT_OFFSET = 44;
    public static final int SCOPE_JOIN_STATE_OFFSET = 48;
    public static final int PROXY_JOIN_OFFSET = 49;
    /** The 23 reserved bits after ProxyJoin end here; then the padding. */
    public static final int PADDING_OFFSET = 52;
    /** The bytes IBA defines. */
    public static final int DEFINED_LENGTH = 52;
    /** The record's length in an SA MAD (AttributeOffset 7 words of 8 bytes). */
    public static final int LENGTH = 56;

    private static final int SL_SHIFT = 28;
    private static final int FLOW_LABEL_SHIFT = 8;
    private static final int SCOPE_SHIFT = 4;
    private static final int PROXY_JOIN_SHIFT = 7;

    /** The JoinState bits (IBA 15.2.5.17, {@code enum ib_sa_mc_join_states} in the kernel). */
    public static final class JoinState
    {
        public static final int FULL_MEMBER = 0x1;
        public static final int NON_MEMBER = 0x2;
        public static final int SEND_ONLY_NON_MEMBER = 0x4;
        public static final int SEND_ONLY_FULL_MEMBER = 0x8;

        private JoinState()
        {
        }
    }

    public McMemberRecord wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("MCMemberRecord", buffer, offset, length, LENGTH);
        return this;
    }

    public McMemberRecord wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** Zeroes all 56 bytes. */
    public McMemberRecord clear()
    {
        zero(0, LENGTH);
        return this;
    }

    public Gid mgid()
    {
        return gidAt(MGID_OFFSET);
    }

    public McMemberRecord mgid(final Gid gid)
    {
        putGid(MGID_OFFSET, gid.subnetPrefix(), gid.interfaceId());
        return this;
    }

    public Gid portGid()
    {
        return gidAt(PORT_GID_OFFSET);
    }

    public McMemberRecord portGid(final Gid gid)
    {
        putGid(PORT_GID_OFFSET, gid.subnetPrefix(), gid.interfaceId());
        return this;
    }

    public long qkey()
    {
        return u32(Q_KEY_OFFSET);
    }

    public McMemberRecord qkey(final long value)
    {
        putU32(Q_KEY_OFFSET, value);
        return this;
    }

    public int mlid()
    {
        return u16(MLID_OFFSET);
    }

    public McMemberRecord mlid(final int value)
    {
        putU16(MLID_OFFSET, value);
        return this;
    }

    /** The 2-bit MTU selector code; {@link Selector#fromCode(int)} names it. */
    public int mtuSelector()
    {
        return bits8(MTU_OFFSET, Selector.SHIFT, 2);
    }

    public McMemberRecord mtuSelector(final Selector value)
    {
        putBits8(MTU_OFFSET, Selector.SHIFT, 2, value.code());
        return this;
    }

    /** The 6-bit MTU code ({@link MtuCode}). */
    public int mtu()
    {
        return bits8(MTU_OFFSET, 0, Selector.SHIFT);
    }

    public McMemberRecord mtu(final int code)
    {
        putBits8(MTU_OFFSET, 0, Selector.SHIFT, code);
        return this;
    }

    public short tClass()
    {
        return u8(TCLASS_OFFSET);
    }

    public McMemberRecord tClass(final int value)
    {
        putU8(TCLASS_OFFSET, value);
        return this;
    }

    public int pKey()
    {
        return u16(P_KEY_OFFSET);
    }

    public McMemberRecord pKey(final int value)
    {
        putU16(P_KEY_OFFSET, value);
        return this;
    }

    public int rateSelector()
    {
        return bits8(RATE_OFFSET, Selector.SHIFT, 2);
    }

    public McMemberRecord rateSelector(final Selector value)
    {
        putBits8(RATE_OFFSET, Selector.SHIFT, 2, value.code());
        return this;
    }

    /** The 6-bit rate code ({@link RateCode}). */
    public int rate()
    {
        return bits8(RATE_OFFSET, 0, Selector.SHIFT);
    }

    public McMemberRecord rate(final int code)
    {
        putBits8(RATE_OFFSET, 0, Selector.SHIFT, code);
        return this;
    }

    public int packetLifeTimeSelector()
    {
        return bits8(PACKET_LIFE_TIME_OFFSET, Selector.SHIFT, 2);
    }

    public McMemberRecord packetLifeTimeSelector(final Selector value)
    {
        putBits8(PACKET_LIFE_TIME_OFFSET, Selector.SHIFT, 2, value.code());
        return this;
    }

    public int packetLifeTime()
    {
        return bits8(PACKET_LIFE_TIME_OFFSET, 0, Selector.SHIFT);
    }

    public McMemberRecord packetLifeTime(final int code)
    {
        putBits8(PACKET_LIFE_TIME_OFFSET, 0, Selector.SHIFT, code);
        return this;
    }

    public int sl()
    {
        return (int)bits32(SL_FLOW_LABEL_HOP_LIMIT_OFFSET, SL_SHIFT, 4);
    }

    public McMemberRecord sl(final int value)
    {
        putBits32(SL_FLOW_LABEL_HOP_LIMIT_OFFSET, SL_SHIFT, 4, value);
        return this;
    }

    public int flowLabel()
    {
        return (int)bits32(SL_FLOW_LABEL_HOP_LIMIT_OFFSET, FLOW_LABEL_SHIFT, 20);
    }

    public McMemberRecord flowLabel(final int value)
    {
        putBits32(SL_FLOW_LABEL_HOP_LIMIT_OFFSET, FLOW_LABEL_SHIFT, 20, value);
        return this;
    }

    public int hopLimit()
    {
        return (int)bits32(SL_FLOW_LABEL_HOP_LIMIT_OFFSET, 0, 8);
    }

    public McMemberRecord hopLimit(final int value)
    {
        putBits32(SL_FLOW_LABEL_HOP_LIMIT_OFFSET, 0, 8, value);
        return this;
    }

    public int scope()
    {
        return bits8(SCOPE_JOIN_STATE_OFFSET, SCOPE_SHIFT, 4);
    }

    public McMemberRecord scope(final int value)
    {
        putBits8(SCOPE_JOIN_STATE_OFFSET, SCOPE_SHIFT, 4, value);
        return this;
    }

    /** The {@link JoinState} bits. */
    public int joinState()
    {
        return bits8(SCOPE_JOIN_STATE_OFFSET, 0, 4);
    }

    public McMemberRecord joinState(final int bits)
    {
        putBits8(SCOPE_JOIN_STATE_OFFSET, 0, 4, bits);
        return this;
    }

    public boolean proxyJoin()
    {
        return bits8(PROXY_JOIN_OFFSET, PROXY_JOIN_SHIFT, 1) != 0;
    }

    public McMemberRecord proxyJoin(final boolean value)
    {
        putBits8(PROXY_JOIN_OFFSET, PROXY_JOIN_SHIFT, 1, value ? 1 : 0);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "MCMemberRecord{unwrapped}";
        }
        return "MCMemberRecord{MGID=" + mgid() + ", PortGID=" + portGid() + ", Q_Key=0x" + Long.toHexString(qkey()) +
            ", MLID=0x" + Integer.toHexString(mlid()) + ", MTUSelector=" + Selector.describe(mtuSelector()) +
            ", MTU=" + mtu() + ", TClass=" + tClass() + ", P_Key=0x" + Integer.toHexString(pKey()) +
            ", RateSelector=" + Selector.describe(rateSelector()) + ", Rate=" + rate() +
            ", PacketLifeTimeSelector=" + Selector.describe(packetLifeTimeSelector()) +
            ", PacketLifeTime=" + packetLifeTime() + ", SL=" + sl() + ", FlowLabel=0x" + Integer.toHexString(flowLabel()) +
            ", HopLimit=" + hopLimit() + ", Scope=" + scope() + ", JoinState=0x" + Integer.toHexString(joinState()) +
            ", ProxyJoin=" + (proxyJoin() ? 1 : 0) + '}';
    }
}
