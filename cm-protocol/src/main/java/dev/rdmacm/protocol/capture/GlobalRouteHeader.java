package dev.rdmacm.protocol.capture;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

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
public final class GlobalRouteHeader
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

    private static final int FLOW_LABEL_MASK = 0xf_ffff;
    private static final int TRAFFIC_CLASS_SHIFT = 20;
    private static final int IP_VERSION_SHIFT = 28;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    /** Wraps {@code buffer} for reading, checking that a whole header is present. */
    public GlobalRouteHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        MalformedMessageException.requireLength("GRH", length, LENGTH);
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer m ? m : null;
        this.offset = offset;
        return this;
    }

    /** Wraps {@code buffer} for writing. */
    public GlobalRouteHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
        return this;
    }

    private int firstWord()
    {
        return buffer.getInt(offset + IP_VERSION_OFFSET, BIG_ENDIAN);
    }

    private void firstWord(final int ipVersion, final int trafficClass, final int flowLabel)
    {
        mutableBuffer.putInt(offset + IP_VERSION_OFFSET,
            (ipVersion & 0xf) << IP_VERSION_SHIFT | (trafficClass & 0xff) << TRAFFIC_CLASS_SHIFT |
            (flowLabel & FLOW_LABEL_MASK), BIG_ENDIAN);
    }

    public short ipVersion()
    {
        return (short)(firstWord() >>> IP_VERSION_SHIFT);
    }

    public GlobalRouteHeader ipVersion(final int value)
    {
        firstWord(value, trafficClass(), flowLabel());
        return this;
    }

    public short trafficClass()
    {
        return (short)((firstWord() >>> TRAFFIC_CLASS_SHIFT) & 0xff);
    }

    public GlobalRouteHeader trafficClass(final int value)
    {
        firstWord(ipVersion(), value, flowLabel());
        return this;
    }

    public int flowLabel()
    {
        return firstWord() & FLOW_LABEL_MASK;
    }

    public GlobalRouteHeader flowLabel(final int value)
    {
        firstWord(ipVersion(), trafficClass(), value);
        return this;
    }

    /** PayLen: bytes after the GRH through the ICRC. */
    public int payloadLength()
    {
        return buffer.getShort(offset + PAYLOAD_LENGTH_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public GlobalRouteHeader payloadLength(final int value)
    {
        mutableBuffer.putShort(offset + PAYLOAD_LENGTH_OFFSET, (short)value, BIG_ENDIAN);
        return this;
    }

    public short nextHeader()
    {
        return (short)(buffer.getByte(offset + NEXT_HEADER_OFFSET) & 0xff);
    }

    public GlobalRouteHeader nextHeader(final int value)
    {
        mutableBuffer.putByte(offset + NEXT_HEADER_OFFSET, (byte)value);
        return this;
    }

    public short hopLimit()
    {
        return (short)(buffer.getByte(offset + HOP_LIMIT_OFFSET) & 0xff);
    }

    public GlobalRouteHeader hopLimit(final int value)
    {
        mutableBuffer.putByte(offset + HOP_LIMIT_OFFSET, (byte)value);
        return this;
    }

    public long sgidSubnetPrefix()
    {
        return buffer.getLong(offset + SGID_OFFSET, BIG_ENDIAN);
    }

    public long sgidInterfaceId()
    {
        return buffer.getLong(offset + SGID_OFFSET + 8, BIG_ENDIAN);
    }

    public GlobalRouteHeader sgid(final long subnetPrefix, final long interfaceId)
    {
        mutableBuffer.putLong(offset + SGID_OFFSET, subnetPrefix, BIG_ENDIAN);
        mutableBuffer.putLong(offset + SGID_OFFSET + 8, interfaceId, BIG_ENDIAN);
        return this;
    }

    public long dgidSubnetPrefix()
    {
        return buffer.getLong(offset + DGID_OFFSET, BIG_ENDIAN);
    }

    public long dgidInterfaceId()
    {
        return buffer.getLong(offset + DGID_OFFSET + 8, BIG_ENDIAN);
    }

    public GlobalRouteHeader dgid(final long subnetPrefix, final long interfaceId)
    {
        mutableBuffer.putLong(offset + DGID_OFFSET, subnetPrefix, BIG_ENDIAN);
        mutableBuffer.putLong(offset + DGID_OFFSET + 8, interfaceId, BIG_ENDIAN);
        return this;
    }

    @Override
    public String toString()
    {
        if (buffer == null)
        {
            return "GRH{unwrapped}";
        }
        return "GRH{IPVer=" + ipVersion() + ", TClass=" + trafficClass() + ", FlowLabel=0x" +
            Integer.toHexString(flowLabel()) + ", PayLen=" + payloadLength() + ", NxtHdr=0x" +
            Integer.toHexString(nextHeader()) + ", HopLmt=" + hopLimit() + ", SGID=" +
            new Gid(sgidSubnetPrefix(), sgidInterfaceId()) + ", DGID=" +
            new Gid(dgidSubnetPrefix(), dgidInterfaceId()) + "}";
    }
}
