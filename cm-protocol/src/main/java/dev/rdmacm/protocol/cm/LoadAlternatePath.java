package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.Gid;

/**
 * Flyweight over the CM LAP message (IBA 12.8.2, Table 115; AttributeID 0x0019): load a new alternate
 * path on an established connection. Big-endian, offsets relative to the message. Unlike a REQ path
 * block, the traffic class shares the flow label's word and the packet rate follows the hop limit.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                      LocalCommunicationID                     |   0
 *  +---------------------------------------------------------------+
 *  |                     RemoteCommunicationID                     |   4
 *  +---------------------------------------------------------------+
 *  |                           Reserved                            |   8
 *  +-----------------------------------------------+---------+-----+
 *  |                 RemoteQPN/EECN                |RemCMTout|Rsvd |  12
 *  +-----------------------------------------------+---------+-----+
 *  |                           Reserved                            |  16
 *  +-------------------------------+-------------------------------+
 *  |     AlternateLocalPortLID     |    AlternateRemotePortLID     |  20
 *  +-------------------------------+-------------------------------+
 *  |               AlternateLocalPortGID (16 bytes)                |  24
 *  +---------------------------------------------------------------+
 *  |               AlternateRemotePortGID (16 bytes)               |  40
 *  +---------------------------------------+-------+---------------+
 *  |          AlternateFlowLabel           | Rsvd  | AltTrafficCls |  56
 *  +---------------+---+-----------+-------+-+-----+---------+-----+
 *  |  AltHopLimit  |Rsv|AltPktRate |AltSL  |S|Rsvd |AckTimout|Rsvd |  60
 *  +---------------+---+-----------+-------+-+-----+---------+-----+
 *  |                    PrivateData (168 bytes)                    |  64
 *  +---------------------------------------------------------------+
 * </pre>
 * S is AlternateSubnetLocal, AckTimout the 5-bit AlternateLocalACKTimeout. tshark does not decode
 * LAP; {@link #toString()} uses the {@code alt_*} names tshark gives the same fields in a REQ.
 */
public final class LoadAlternatePath extends ConnectionMessage<LoadAlternatePath>
{
    public static final int REMOTE_QPN_EECN_OFFSET = 12;
    public static final int REMOTE_CM_RESPONSE_TIMEOUT_OFFSET = 15;
    public static final int ALTERNATE_LOCAL_PORT_LID_OFFSET = 20;
    public static final int ALTERNATE_REMOTE_PORT_LID_OFFSET = 22;
    public static final int ALTERNATE_LOCAL_PORT_GID_OFFSET = 24;
    public static final int ALTERNATE_REMOTE_PORT_GID_OFFSET = 40;
    public static final int ALTERNATE_FLOW_LABEL_OFFSET = 56;
    public static final int ALTERNATE_TRAFFIC_CLASS_OFFSET = 59;
    public static final int ALTERNATE_HOP_LIMIT_OFFSET = 60;
    public static final int ALTERNATE_PACKET_RATE_OFFSET = 61;
    public static final int ALTERNATE_SL_OFFSET = 62;
    public static final int ALTERNATE_SUBNET_LOCAL_OFFSET = 62;
    public static final int ALTERNATE_LOCAL_ACK_TIMEOUT_OFFSET = 63;
    public static final int PRIVATE_DATA_OFFSET = 64;
    public static final int PRIVATE_DATA_LENGTH = LENGTH - PRIVATE_DATA_OFFSET;

    public static final int REMOTE_CM_RESPONSE_TIMEOUT_MASK = 0xf8;
    public static final int REMOTE_CM_RESPONSE_TIMEOUT_SHIFT = 3;
    /** AlternateFlowLabel: the upper 20 bits of the big-endian word at its offset. */
    public static final int ALTERNATE_FLOW_LABEL_MASK = 0xffff_f000;
    public static final int ALTERNATE_FLOW_LABEL_SHIFT = 12;
    public static final int ALTERNATE_PACKET_RATE_MASK = 0x3f;
    public static final int ALTERNATE_PACKET_RATE_SHIFT = 0;
    public static final int ALTERNATE_SL_MASK = 0xf0;
    public static final int ALTERNATE_SL_SHIFT = 4;
    public static final int ALTERNATE_SUBNET_LOCAL_MASK = 0x08;
    public static final int ALTERNATE_SUBNET_LOCAL_SHIFT = 3;
    public static final int ALTERNATE_LOCAL_ACK_TIMEOUT_MASK = 0xf8;
    public static final int ALTERNATE_LOCAL_ACK_TIMEOUT_SHIFT = 3;

    public LoadAlternatePath()
    {
        super(CmAttribute.LAP, PRIVATE_DATA_OFFSET);
    }

    public int remoteQpnEecn()
    {
        return getUnsigned24(REMOTE_QPN_EECN_OFFSET);
    }

    public LoadAlternatePath remoteQpnEecn(final int value)
    {
        putUnsigned24(REMOTE_QPN_EECN_OFFSET, value, "remoteqpneecn");
        return this;
    }

    /** The 5-bit exponent: 4.096 us * 2^value. */
    public int remoteCmResponseTimeout()
    {
        return getBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, REMOTE_CM_RESPONSE_TIMEOUT_MASK,
            REMOTE_CM_RESPONSE_TIMEOUT_SHIFT);
    }

    public LoadAlternatePath remoteCmResponseTimeout(final int value)
    {
        putBits(REMOTE_CM_RESPONSE_TIMEOUT_OFFSET, REMOTE_CM_RESPONSE_TIMEOUT_MASK, REMOTE_CM_RESPONSE_TIMEOUT_SHIFT,
            value, "remoteresptout");
        return this;
    }

    public int alternateLocalPortLid()
    {
        return getUnsignedShort(ALTERNATE_LOCAL_PORT_LID_OFFSET);
    }

    public LoadAlternatePath alternateLocalPortLid(final int value)
    {
        putUnsignedShort(ALTERNATE_LOCAL_PORT_LID_OFFSET, value, "alt_locallid");
        return this;
    }

    public int alternateRemotePortLid()
    {
        return getUnsignedShort(ALTERNATE_REMOTE_PORT_LID_OFFSET);
    }

    public LoadAlternatePath alternateRemotePortLid(final int value)
    {
        putUnsignedShort(ALTERNATE_REMOTE_PORT_LID_OFFSET, value, "alt_remotelid");
        return this;
    }

    public Gid alternateLocalPortGid()
    {
        return getGid(ALTERNATE_LOCAL_PORT_GID_OFFSET);
    }

    public LoadAlternatePath alternateLocalPortGid(final long subnetPrefix, final long interfaceId)
    {
        putGid(ALTERNATE_LOCAL_PORT_GID_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    public LoadAlternatePath alternateLocalPortGid(final Gid gid)
    {
        return alternateLocalPortGid(gid.subnetPrefix(), gid.interfaceId());
    }

    public Gid alternateRemotePortGid()
    {
        return getGid(ALTERNATE_REMOTE_PORT_GID_OFFSET);
    }

    public LoadAlternatePath alternateRemotePortGid(final long subnetPrefix, final long interfaceId)
    {
        putGid(ALTERNATE_REMOTE_PORT_GID_OFFSET, subnetPrefix, interfaceId);
        return this;
    }

    public LoadAlternatePath alternateRemotePortGid(final Gid gid)
    {
        return alternateRemotePortGid(gid.subnetPrefix(), gid.interfaceId());
    }

    public int alternateFlowLabel()
    {
        return getBits32(ALTERNATE_FLOW_LABEL_OFFSET, ALTERNATE_FLOW_LABEL_MASK, ALTERNATE_FLOW_LABEL_SHIFT);
    }

    public LoadAlternatePath alternateFlowLabel(final int value)
    {
        putBits32(ALTERNATE_FLOW_LABEL_OFFSET, ALTERNATE_FLOW_LABEL_MASK, ALTERNATE_FLOW_LABEL_SHIFT, value,
            "alt_flowlabel");
        return this;
    }

    public short alternateTrafficClass()
    {
        return getUnsignedByte(ALTERNATE_TRAFFIC_CLASS_OFFSET);
    }

    public LoadAlternatePath alternateTrafficClass(final int value)
    {
        putUnsignedByte(ALTERNATE_TRAFFIC_CLASS_OFFSET, value, "alt_tfcclass");
        return this;
    }

    public short alternateHopLimit()
    {
        return getUnsignedByte(ALTERNATE_HOP_LIMIT_OFFSET);
    }

    public LoadAlternatePath alternateHopLimit(final int value)
    {
        putUnsignedByte(ALTERNATE_HOP_LIMIT_OFFSET, value, "alt_hoplim");
        return this;
    }

    /** The 6-bit IBA rate code, as in PathRecord.Rate. */
    public int alternatePacketRate()
    {
        return getBits(ALTERNATE_PACKET_RATE_OFFSET, ALTERNATE_PACKET_RATE_MASK, ALTERNATE_PACKET_RATE_SHIFT);
    }

    public LoadAlternatePath alternatePacketRate(final int value)
    {
        putBits(ALTERNATE_PACKET_RATE_OFFSET, ALTERNATE_PACKET_RATE_MASK, ALTERNATE_PACKET_RATE_SHIFT, value,
            "alt_pktrate");
        return this;
    }

    public int alternateSl()
    {
        return getBits(ALTERNATE_SL_OFFSET, ALTERNATE_SL_MASK, ALTERNATE_SL_SHIFT);
    }

    public LoadAlternatePath alternateSl(final int value)
    {
        putBits(ALTERNATE_SL_OFFSET, ALTERNATE_SL_MASK, ALTERNATE_SL_SHIFT, value, "alt_sl");
        return this;
    }

    public boolean alternateSubnetLocal()
    {
        return getBits(ALTERNATE_SUBNET_LOCAL_OFFSET, ALTERNATE_SUBNET_LOCAL_MASK, ALTERNATE_SUBNET_LOCAL_SHIFT) != 0;
    }

    public LoadAlternatePath alternateSubnetLocal(final boolean value)
    {
        putBits(ALTERNATE_SUBNET_LOCAL_OFFSET, ALTERNATE_SUBNET_LOCAL_MASK, ALTERNATE_SUBNET_LOCAL_SHIFT,
            value ? 1 : 0, "alt_subnetlocal");
        return this;
    }

    /** The 5-bit exponent: 4.096 us * 2^value. */
    public int alternateLocalAckTimeout()
    {
        return getBits(ALTERNATE_LOCAL_ACK_TIMEOUT_OFFSET, ALTERNATE_LOCAL_ACK_TIMEOUT_MASK,
            ALTERNATE_LOCAL_ACK_TIMEOUT_SHIFT);
    }

    public LoadAlternatePath alternateLocalAckTimeout(final int value)
    {
        putBits(ALTERNATE_LOCAL_ACK_TIMEOUT_OFFSET, ALTERNATE_LOCAL_ACK_TIMEOUT_MASK,
            ALTERNATE_LOCAL_ACK_TIMEOUT_SHIFT, value, "alt_localacktout");
        return this;
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return unwrappedText();
        }
        return textEnd(textStart(512)
            .append(", remoteqpneecn=0x").append(Integer.toHexString(remoteQpnEecn()))
            .append(", remoteresptout=").append(remoteCmResponseTimeout())
            .append(", alt_locallid=").append(alternateLocalPortLid())
            .append(", alt_remotelid=").append(alternateRemotePortLid())
            .append(", alt_localgid=").append(alternateLocalPortGid())
            .append(", alt_remotegid=").append(alternateRemotePortGid())
            .append(", alt_flowlabel=0x").append(Integer.toHexString(alternateFlowLabel()))
            .append(", alt_tfcclass=").append(alternateTrafficClass())
            .append(", alt_hoplim=").append(alternateHopLimit())
            .append(", alt_pktrate=").append(alternatePacketRate())
            .append(", alt_sl=").append(alternateSl())
            .append(", alt_subnetlocal=").append(alternateSubnetLocal() ? 1 : 0)
            .append(", alt_localacktout=").append(alternateLocalAckTimeout()));
    }
}
