package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.Gid;

/**
 * One of the two path blocks of a REQ (IBA 12.6.5, Table 106): the primary path at REQ byte 52, the
 * alternate path at byte 96. Offsets are relative to the block.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-------------------------------+-------------------------------+
 *  |         LocalPortLID          |         RemotePortLID         |  0
 *  +-------------------------------+-------------------------------+
 *  |                     LocalPortGID (16 bytes)                   |  4
 *  +---------------------------------------------------------------+
 *  |                    RemotePortGID (16 bytes)                   | 20
 *  +---------------------------------------+-----------+-----------+
 *  |              FlowLabel                |  Reserved | PacketRate| 36
 *  +---------------+---------------+-------+-+-----+---------+-----+
 *  | TrafficClass  |   HopLimit    |  SL   |S| Rsv |AckTimout| Rsv | 40
 *  +---------------+---------------+-------+-+-----+---------+-----+
 * </pre>
 * S is SubnetLocal; AckTimout is the 5-bit LocalACKTimeout. In the alternate block the first bit
 * after AckTimout is the REQ's SAPSupported flag, which this flyweight leaves untouched.
 */
public final class ConnectRequestPath
{
    public static final int LOCAL_PORT_LID_OFFSET = 0;
    public static final int REMOTE_PORT_LID_OFFSET = 2;
    public static final int LOCAL_PORT_GID_OFFSET = 4;
    public static final int REMOTE_PORT_GID_OFFSET = 20;
    public static final int FLOW_LABEL_OFFSET = 36;
    public static final int PACKET_RATE_OFFSET = 39;
    public static final int TRAFFIC_CLASS_OFFSET = 40;
    public static final int HOP_LIMIT_OFFSET = 41;
    public static final int SL_OFFSET = 42;
    public static final int SUBNET_LOCAL_OFFSET = 42;
    public static final int LOCAL_ACK_TIMEOUT_OFFSET = 43;
    public static final int LENGTH = 44;

    /** FlowLabel: the upper 20 bits of the big-endian word at {@link #FLOW_LABEL_OFFSET}. */
    public static final int FLOW_LABEL_MASK = 0xffff_f000;
    public static final int FLOW_LABEL_SHIFT = 12;
    public static final int PACKET_RATE_MASK = 0x3f;
    public static final int PACKET_RATE_SHIFT = 0;
    public static final int SL_MASK = 0xf0;
    public static final int SL_SHIFT = 4;
    public static final int SUBNET_LOCAL_MASK = 0x08;
    public static final int SUBNET_LOCAL_SHIFT = 3;
    public static final int LOCAL_ACK_TIMEOUT_MASK = 0xf8;
    public static final int LOCAL_ACK_TIMEOUT_SHIFT = 3;

    private final ConnectRequest request;
    private final int base;
    private final String prefix;
    // setters name the field in their range errors; built once here so that a setter never allocates
    private final String localLidName;
    private final String remoteLidName;
    private final String flowLabelName;
    private final String packetRateName;
    private final String trafficClassName;
    private final String hopLimitName;
    private final String slName;
    private final String subnetLocalName;
    private final String localAckTimeoutName;

    ConnectRequestPath(final ConnectRequest request, final int base, final String prefix)
    {
        this.request = request;
        this.base = base;
        this.prefix = prefix;
        this.localLidName = prefix + "locallid";
        this.remoteLidName = prefix + "remotelid";
        this.flowLabelName = prefix + "flowlabel";
        this.packetRateName = prefix + "pktrate";
        this.trafficClassName = prefix + "tfcclass";
        this.hopLimitName = prefix + "hoplim";
        this.slName = prefix + "sl";
        this.subnetLocalName = prefix + "subnetlocal";
        this.localAckTimeoutName = prefix + "localacktout";
    }

    /** Where the block starts inside the REQ. */
    public int blockOffset()
    {
        return base;
    }

    /** The REQ this block belongs to, to go on setting its fields. */
    public ConnectRequest request()
    {
        return request;
    }

    public int localPortLid()
    {
        return request.getUnsignedShort(base + LOCAL_PORT_LID_OFFSET);
    }

    public ConnectRequestPath localPortLid(final int value)
    {
        request.putUnsignedShort(base + LOCAL_PORT_LID_OFFSET, value, localLidName);
        return this;
    }

    public int remotePortLid()
    {
        return request.getUnsignedShort(base + REMOTE_PORT_LID_OFFSET);
    }

    public ConnectRequestPath remotePortLid(final int value)
    {
        request.putUnsignedShort(base + REMOTE_PORT_LID_OFFSET, value, remoteLidName);
        return this;
    }

    public long localPortGidSubnetPrefix()
    {
        return request.getLong(base + LOCAL_PORT_GID_OFFSET);
    }

    public long localPortGidInterfaceId()
    {
        return request.getLong(base + LOCAL_PORT_GID_OFFSET + 8);
    }

    /** The local port GID as a value; allocates, see the two long getters for the hot path. */
    public Gid localPortGid()
    {
        return request.getGid(base + LOCAL_PORT_GID_OFFSET);
    }

    public ConnectRequestPath localPortGid(final long subnetPrefix, final long interfaceId)
    {
        request.writeGid(base + LOCAL_PORT_GID_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    public ConnectRequestPath localPortGid(final Gid gid)
    {
        return localPortGid(gid.subnetPrefix(), gid.interfaceId());
    }

    public long remotePortGidSubnetPrefix()
    {
        return request.getLong(base + REMOTE_PORT_GID_OFFSET);
    }

    public long remotePortGidInterfaceId()
    {
        return request.getLong(base + REMOTE_PORT_GID_OFFSET + 8);
    }

    /** The remote port GID as a value; allocates, see the two long getters for the hot path. */
    public Gid remotePortGid()
    {
        return request.getGid(base + REMOTE_PORT_GID_OFFSET);
    }

    public ConnectRequestPath remotePortGid(final long subnetPrefix, final long interfaceId)
    {
        request.writeGid(base + REMOTE_PORT_GID_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    public ConnectRequestPath remotePortGid(final Gid gid)
    {
        return remotePortGid(gid.subnetPrefix(), gid.interfaceId());
    }

    public int flowLabel()
    {
        return request.getBits32(base + FLOW_LABEL_OFFSET, FLOW_LABEL_MASK, FLOW_LABEL_SHIFT);
    }

    public ConnectRequestPath flowLabel(final int value)
    {
        request.putBits32(base + FLOW_LABEL_OFFSET, FLOW_LABEL_MASK, FLOW_LABEL_SHIFT, value, flowLabelName);
        return this;
    }

    /** The 6-bit IBA rate code (2 = 2.5 Gb/s, 3 = 10 Gb/s...), as in PathRecord.Rate. */
    public int packetRate()
    {
        return request.getBits(base + PACKET_RATE_OFFSET, PACKET_RATE_MASK, PACKET_RATE_SHIFT);
    }

    public ConnectRequestPath packetRate(final int value)
    {
        request.putBits(base + PACKET_RATE_OFFSET, PACKET_RATE_MASK, PACKET_RATE_SHIFT, value, packetRateName);
        return this;
    }

    public short trafficClass()
    {
        return request.getUnsignedByte(base + TRAFFIC_CLASS_OFFSET);
    }

    public ConnectRequestPath trafficClass(final int value)
    {
        request.putUnsignedByte(base + TRAFFIC_CLASS_OFFSET, value, trafficClassName);
        return this;
    }

    public short hopLimit()
    {
        return request.getUnsignedByte(base + HOP_LIMIT_OFFSET);
    }

    public ConnectRequestPath hopLimit(final int value)
    {
        request.putUnsignedByte(base + HOP_LIMIT_OFFSET, value, hopLimitName);
        return this;
    }

    public int sl()
    {
        return request.getBits(base + SL_OFFSET, SL_MASK, SL_SHIFT);
    }

    public ConnectRequestPath sl(final int value)
    {
        request.putBits(base + SL_OFFSET, SL_MASK, SL_SHIFT, value, slName);
        return this;
    }

    /** Set when the remote port is on the local subnet, so no GRH is needed. */
    public boolean subnetLocal()
    {
        return request.getBits(base + SUBNET_LOCAL_OFFSET, SUBNET_LOCAL_MASK, SUBNET_LOCAL_SHIFT) != 0;
    }

    public ConnectRequestPath subnetLocal(final boolean value)
    {
        request.putBits(base + SUBNET_LOCAL_OFFSET, SUBNET_LOCAL_MASK, SUBNET_LOCAL_SHIFT, value ? 1 : 0,
            subnetLocalName);
        return this;
    }

    /** The 5-bit exponent: 4.096 us * 2^value. */
    public int localAckTimeout()
    {
        return request.getBits(base + LOCAL_ACK_TIMEOUT_OFFSET, LOCAL_ACK_TIMEOUT_MASK, LOCAL_ACK_TIMEOUT_SHIFT);
    }

    public ConnectRequestPath localAckTimeout(final int value)
    {
        request.putBits(base + LOCAL_ACK_TIMEOUT_OFFSET, LOCAL_ACK_TIMEOUT_MASK, LOCAL_ACK_TIMEOUT_SHIFT, value,
            localAckTimeoutName);
        return this;
    }

    void appendTo(final StringBuilder text)
    {
        text.append(", ").append(prefix).append("locallid=").append(localPortLid())
            .append(", ").append(prefix).append("remotelid=").append(remotePortLid())
            .append(", ").append(prefix).append("localgid=").append(localPortGid())
            .append(", ").append(prefix).append("remotegid=").append(remotePortGid())
            .append(", ").append(prefix).append("flowlabel=0x").append(Integer.toHexString(flowLabel()))
            .append(", ").append(prefix).append("pktrate=").append(packetRate())
            .append(", ").append(prefix).append("tfcclass=").append(trafficClass())
            .append(", ").append(prefix).append("hoplim=").append(hopLimit())
            .append(", ").append(prefix).append("sl=").append(sl())
            .append(", ").append(prefix).append("subnetlocal=").append(subnetLocal() ? 1 : 0)
            .append(", ").append(prefix).append("localacktout=").append(localAckTimeout());
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder(prefix).append("path{");
        appendTo(text);
        return text.append('}').toString().replace("{, ", "{");
    }
}
