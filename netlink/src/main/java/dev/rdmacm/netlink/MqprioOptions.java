package dev.rdmacm.netlink;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;

/**
 * Flyweight over {@code struct tc_mqprio_qopt} (82 bytes), the TCA_OPTIONS of an mqprio qdisc. The
 * kernel's {@code mqprio_dump} fills it from the device itself ({@code netdev_get_num_tc},
 * {@code dev->prio_tc_map}), so it is the netdev's traffic-class state, whoever set it. Host byte order.
 * <pre>
 *  +---------------+-----------------------------------------------+
 *  |    num_tc     |  prio_tc_map[16] (u8: skb priority -> class)  |  0
 *  +---------------+-----------------------------------------------+
 *  |      hw       | count[16] (u16, from offset 18)               | 17
 *  +---------------+-----------------------------------------------+
 *  |                   offset[16] (u16, from offset 50)            | 50
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class MqprioOptions extends Flyweight
{
    public static final int NUM_TC_OFFSET = 0;
    public static final int PRIO_TC_MAP_OFFSET = 1;
    /** {@code TC_QOPT_BITMASK + 1}: one entry per skb priority 0..15. */
    public static final int PRIO_TC_MAP_LENGTH = 16;
    public static final int HW_OFFSET = 17;
    public static final int COUNT_OFFSET = 18;
    public static final int OFFSET_OFFSET = 50;
    /** {@code TC_QOPT_MAX_QUEUE}. */
    public static final int MAX_QUEUE = 16;
    public static final int LENGTH = 82;

    /**
     * Wraps an attribute value of {@code length} bytes; later kernels may append nested attributes.
     *
     * @throws dev.rdmacm.protocol.MalformedMessageException when it is shorter than the struct.
     */
    public MqprioOptions wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("tc_mqprio_qopt", buffer, offset, length, LENGTH);
        return this;
    }

    public int numTc()
    {
        return u8(NUM_TC_OFFSET);
    }

    /** {@code prio_tc_map[priority]}, for a priority 0..15. */
    public int trafficClass(final int priority)
    {
        return u8(PRIO_TC_MAP_OFFSET + priority);
    }

    public int hw()
    {
        return u8(HW_OFFSET);
    }
}
