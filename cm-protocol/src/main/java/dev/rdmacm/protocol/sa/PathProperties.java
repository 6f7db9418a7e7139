package dev.rdmacm.protocol.sa;

import dev.rdmacm.protocol.Flyweight;

/**
 * The 13-byte block of path properties that PathRecord (at byte 44), MultiPathRecord (at byte 0) and
 * {@code struct ibv_path_record} (at byte 44) share bit for bit, so that each of them reads and writes it
 * through the same code.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-----+---------------------------------------+---------------+
 *  |R| res |               FlowLabel               |    HopLimit   |  +0
 *  +---------------+-+-------------+-------------------------------+
 *  |     TClass    |V|   NumbPath  |             P_Key             |  +4
 *  +-----------------------+-------+---+-----------+---+-----------+
 *  |        QoSClass       |   SL  | MS|    MTU    | RS|    Rate   |  +8
 *  +---+-----------+
 *  | PS|    PLT    |                                                  +12
 *  +---+-----------+
 * </pre>
 * R = RawTraffic (PathRecord and MultiPathRecord only: reserved in {@code ibv_path_record}), V =
 * Reversible, MS/RS/PS = the 2-bit {@link Selector}s above the 6-bit MTU, Rate and PacketLifeTime
 * codes (bytes +10, +11, +12).
 *
 * @param <T> the concrete flyweight, so that fluent setters keep its type.
 */
public abstract class PathProperties<T extends PathProperties<T>> extends Flyweight
{
    /** Offsets from the start of the block. */
    public static final int FLOW_LABEL_HOP_LIMIT_WORD = 0;
    public static final int TCLASS_BYTE = 4;
    public static final int REVERSIBLE_NUMB_PATH_BYTE = 5;
    public static final int P_KEY_WORD = 6;
    public static final int QOS_CLASS_SL_WORD = 8;
    public static final int MTU_BYTE = 10;
    public static final int RATE_BYTE = 11;
    public static final int PACKET_LIFE_TIME_BYTE = 12;
    public static final int LENGTH = 13;

    public static final int RAW_TRAFFIC_SHIFT = 31;
    public static final int FLOW_LABEL_SHIFT = 8;
    public static final int FLOW_LABEL_WIDTH = 20;
    public static final int NUMB_PATH_WIDTH = 7;
    public static final int REVERSIBLE_SHIFT = 7;
    public static final int QOS_CLASS_SHIFT = 4;
    public static final int QOS_CLASS_WIDTH = 12;
    public static final int SL_WIDTH = 4;

    private final int block;

    /** @param block where the block starts inside the record. */
    protected PathProperties(final int block)
    {
        this.block = block;
    }

    @SuppressWarnings("unchecked")
    private T self()
    {
        return (T)this;
    }

    /** The 20-bit IPv6-style flow label. */
    public int flowLabel()
    {
        return (int)bits32(block + FLOW_LABEL_HOP_LIMIT_WORD, FLOW_LABEL_SHIFT, FLOW_LABEL_WIDTH);
    }

    public T flowLabel(final int value)
    {
        putBits32(block + FLOW_LABEL_HOP_LIMIT_WORD, FLOW_LABEL_SHIFT, FLOW_LABEL_WIDTH, value);
        return self();
    }

    public short hopLimit()
    {
        return (short)bits32(block + FLOW_LABEL_HOP_LIMIT_WORD, 0, 8);
    }

    public T hopLimit(final int value)
    {
        putBits32(block + FLOW_LABEL_HOP_LIMIT_WORD, 0, 8, value);
        return self();
    }

    public short tClass()
    {
        return u8(block + TCLASS_BYTE);
    }

    public T tClass(final int value)
    {
        putU8(block + TCLASS_BYTE, value);
        return self();
    }

    public boolean reversible()
    {
        return bits8(block + REVERSIBLE_NUMB_PATH_BYTE, REVERSIBLE_SHIFT, 1) != 0;
    }

    public T reversible(final boolean value)
    {
        putBits8(block + REVERSIBLE_NUMB_PATH_BYTE, REVERSIBLE_SHIFT, 1, value ? 1 : 0);
        return self();
    }

    /** In a query, the most paths to return (7 bits); undefined in a response. */
    public int numbPath()
    {
        return bits8(block + REVERSIBLE_NUMB_PATH_BYTE, 0, NUMB_PATH_WIDTH);
    }

    public T numbPath(final int value)
    {
        putBits8(block + REVERSIBLE_NUMB_PATH_BYTE, 0, NUMB_PATH_WIDTH, value);
        return self();
    }

    public int pKey()
    {
        return u16(block + P_KEY_WORD);
    }

    public T pKey(final int value)
    {
        putU16(block + P_KEY_WORD, value);
        return self();
    }

    /** The 12-bit QoS class. */
    public int qosClass()
    {
        return bits16(block + QOS_CLASS_SL_WORD, QOS_CLASS_SHIFT, QOS_CLASS_WIDTH);
    }

    public T qosClass(final int value)
    {
        putBits16(block + QOS_CLASS_SL_WORD, QOS_CLASS_SHIFT, QOS_CLASS_WIDTH, value);
        return self();
    }

    /** The 4-bit service level. */
    public int sl()
    {
        return bits16(block + QOS_CLASS_SL_WORD, 0, SL_WIDTH);
    }

    public T sl(final int value)
    {
        putBits16(block + QOS_CLASS_SL_WORD, 0, SL_WIDTH, value);
        return self();
    }

    /** The 2-bit MTU selector code; {@link Selector#fromCode(int)} names it. */
    public int mtuSelector()
    {
        return bits8(block + MTU_BYTE, Selector.SHIFT, 2);
    }

    public T mtuSelector(final Selector value)
    {
        putBits8(block + MTU_BYTE, Selector.SHIFT, 2, value.code());
        return self();
    }

    /** The 6-bit MTU code; {@link MtuCode} gives its size. */
    public int mtu()
    {
        return bits8(block + MTU_BYTE, 0, 6);
    }

    public T mtu(final int code)
    {
        putBits8(block + MTU_BYTE, 0, 6, code);
        return self();
    }

    public int rateSelector()
    {
        return bits8(block + RATE_BYTE, Selector.SHIFT, 2);
    }

    public T rateSelector(final Selector value)
    {
        putBits8(block + RATE_BYTE, Selector.SHIFT, 2, value.code());
        return self();
    }

    /** The 6-bit rate code; {@link RateCode} gives its speed. */
    public int rate()
    {
        return bits8(block + RATE_BYTE, 0, 6);
    }

    public T rate(final int code)
    {
        putBits8(block + RATE_BYTE, 0, 6, code);
        return self();
    }

    public int packetLifeTimeSelector()
    {
        return bits8(block + PACKET_LIFE_TIME_BYTE, Selector.SHIFT, 2);
    }

    public T packetLifeTimeSelector(final Selector value)
    {
        putBits8(block + PACKET_LIFE_TIME_BYTE, Selector.SHIFT, 2, value.code());
        return self();
    }

    /** The 6-bit packet lifetime code; {@link PacketLifetime} converts it. */
    public int packetLifeTime()
    {
        return bits8(block + PACKET_LIFE_TIME_BYTE, 0, 6);
    }

    public T packetLifeTime(final int code)
    {
        putBits8(block + PACKET_LIFE_TIME_BYTE, 0, 6, code);
        return self();
    }

    /** The RawTraffic bit, for the records that define it. */
    protected final boolean rawTrafficBit()
    {
        return bits32(block + FLOW_LABEL_HOP_LIMIT_WORD, RAW_TRAFFIC_SHIFT, 1) != 0;
    }

    protected final void rawTrafficBit(final boolean value)
    {
        putBits32(block + FLOW_LABEL_HOP_LIMIT_WORD, RAW_TRAFFIC_SHIFT, 1, value ? 1 : 0);
    }

    /** Appends the block's fields with the names Wireshark and saquery use. */
    protected final void appendProperties(final StringBuilder text)
    {
        text.append("FlowLabel=0x").append(Integer.toHexString(flowLabel()))
            .append(", HopLimit=").append(hopLimit())
            .append(", TClass=").append(tClass())
            .append(", Reversible=").append(reversible() ? 1 : 0)
            .append(", NumbPath=").append(numbPath())
            .append(", P_Key=").append(String.format("0x%04x", pKey()))
            .append(", QoSClass=").append(qosClass())
            .append(", SL=").append(sl())
            .append(", MTUSelector=").append(Selector.describe(mtuSelector()))
            .append(", MTU=").append(MtuCode.describe(mtu()))
            .append(", RateSelector=").append(Selector.describe(rateSelector()))
            .append(", Rate=").append(RateCode.describe(rate()))
            .append(", PacketLifeTimeSelector=").append(Selector.describe(packetLifeTimeSelector()))
            .append(", PacketLifeTime=").append(PacketLifetime.describe(packetLifeTime()));
    }
}
