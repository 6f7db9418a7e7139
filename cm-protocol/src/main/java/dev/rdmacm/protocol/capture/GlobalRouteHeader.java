package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over the 40-byte Global Route Header that follows the LRH when LNH is 3 (IBA 8.3),
 * big-endian. Its layout is an IPv6 header's.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------+---------------+---------------------------------------+
 *  | IPVer |    TClass     |              Flow Label               |  0
 *  +-------+-------+-------+-------+---------------+---------------+
 *  |        Payload Length         |    NxtHdr     |    HopLmt     |  4
 *  +-------------------------------+---------------+---------------+
 *  |                         Source GID (16)                       |  8
 *  +---------------------------------------------------------------+
 *  |                      Destination GID (16)                     | 24
 *  +---------------------------------------------------------------+
 * </pre>
 * PayLen counts bytes from the end of the GRH through the ICRC. NxtHdr must be 0x1B (an IBA
 * transport header follows) or tshark decodes nothing after the GRH.
 */
public final class GlobalRouteHeader extends Flyweight
{
    public static final int IP_VERSION_OFFSET = 0;
    public static final int TRAFFIC_CLASS_OFFSET = 0;
    public static final int FLOW_LABEL_OFFSET = 0;
    public static final int PAYLOAD_LENGTH_OFFSET = 4;
    public static final int NEXT_HEADER_OFFSET = 6;
    public static final int HOP_LIMIT_OFFSET = 7;
    public static final int SGID_OFFSET = 8;
    public static final int DGID_OFFSET = 24;
    public static final int LENGTH = 40;

    /** IPVer of every GRH. */
    public static final int IP_VERSION = 6;
    /** NxtHdr: an IBA transport header (BTH) follows. */
    public static final int NEXT_HEADER_IBA_TRANSPORT = 0x1b;

    private static final int IP_VERSION_SHIFT = 28;
    private static final int IP_VERSION_WIDTH = 4;
    private static final int TRAFFIC_CLASS_SHIFT = 20;
    private static final int TRAFFIC_CLASS_WIDTH = 8;
    private static final int FLOW_LABEL_WIDTH = 20;

    /** Wraps {@code buffer} for reading, checking that a whole header is present. */
    public GlobalRouteHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("GRH", buffer, offset, length, LENGTH);
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public GlobalRouteHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public short ipVersion()
    {
        return (short)bits32(IP_VERSION_OFFSET, IP_VERSION_SHIFT, IP_VERSION_WIDTH);
    }

    public GlobalRouteHeader ipVersion(final int value)
    {
        putBits32(IP_VERSION_OFFSET, IP_VERSION_SHIFT, IP_VERSION_WIDTH, value);
        return this;
    }

    public short trafficClass()
    {
        return (short)bits32(TRAFFIC_CLASS_OFFSET, TRAFFIC_CLASS_SHIFT, TRAFFIC_CLASS_WIDTH);
    }

    public GlobalRouteHeader trafficClass(final int value)
    {
        putBits32(TRAFFIC_CLASS_OFFSET, TRAFFIC_CLASS_SHIFT, TRAFFIC_CLASS_WIDTH, value);
        return this;
    }

    public int flowLabel()
    {
        return (int)bits32(FLOW_LABEL_OFFSET, 0, FLOW_LABEL_WIDTH);
    }

    public GlobalRouteHeader flowLabel(final int value)
    {
        putBits32(FLOW_LABEL_OFFSET, 0, FLOW_LABEL_WIDTH, value);
        return this;
    }

    /** PayLen: bytes after the GRH through the ICRC. */
    public int payloadLength()
    {
        return u16(PAYLOAD_LENGTH_OFFSET);
    }

    public GlobalRouteHeader payloadLength(final int value)
    {
        putU16(PAYLOAD_LENGTH_OFFSET, value);
        return this;
    }

    public short nextHeader()
    {
        return u8(NEXT_HEADER_OFFSET);
    }

    public GlobalRouteHeader nextHeader(final int value)
    {
        putU8(NEXT_HEADER_OFFSET, value);
        return this;
    }

    public short hopLimit()
    {
        return u8(HOP_LIMIT_OFFSET);
    }

    public GlobalRouteHeader hopLimit(final int value)
    {
        putU8(HOP_LIMIT_OFFSET, value);
        return this;
    }

    public long sgidSubnetPrefix()
    {
        return u64(SGID_OFFSET);
    }

    public long sgidInterfaceId()
    {
        return u64(SGID_OFFSET + 8);
    }

    public GlobalRouteHeader sgid(final long subnetPrefix, final long interfaceId)
    {
        putGid(SGID_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    public long dgidSubnetPrefix()
    {
        return u64(DGID_OFFSET);
    }

    public long dgidInterfaceId()
    {
        return u64(DGID_OFFSET + 8);
    }

    public GlobalRouteHeader dgid(final long subnetPrefix, final long interfaceId)
    {
        putGid(DGID_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "GRH{unwrapped}";
        }
        return "GRH{IPVer=" + ipVersion() + ", TClass=" + trafficClass() + ", FlowLabel=0x" +
            Integer.toHexString(flowLabel()) + ", PayLen=" + payloadLength() + ", NxtHdr=0x" +
            Integer.toHexString(nextHeader()) + ", HopLmt=" + hopLimit() + ", SGID=" +
            gidAt(SGID_OFFSET) + ", DGID=" +
            gidAt(DGID_OFFSET) + "}";
    }
}
