package dev.rdmacm.netlink.rdma;

import dev.rdmacm.netlink.wire.NetlinkAttribute;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;

import static dev.rdmacm.netlink.rdma.RdmaNlLs.HOST_ORDER;
import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * An LS RESOLVE request: the kernel's SA client ({@code ib_nl_make_request}) asking userspace for a
 * path record before it falls back to querying the SA itself.
 * <pre>
 *  nlmsghdr (type RDMA_NL_GET_TYPE(LS, RESOLVE), flags NLM_F_REQUEST, seq)
 *  rdma_ls_resolve_header (device name, port, path use), padded to 68
 *  attributes, each flagged RDMA_NLA_F_MANDATORY:
 *    SERVICE_ID u64 host | DGID 16 bytes | SGID 16 bytes | TCLASS u8 | PKEY u16 host | QOS_CLASS u16 host
 * </pre>
 * Absent attributes are null. Decoding follows ibacm's {@code acm_nl_parse_path_attr}: a known
 * attribute of the wrong size, or an unknown one marked mandatory, makes the request malformed (the
 * daemon then answers with {@link RdmaNlLs#F_ERR}); unknown optional ones are skipped.
 */
public record LsResolveRequest(long seq, String deviceName, int portNum, int pathUse, Long serviceId, Gid dgid,
    Gid sgid, Integer tclass, Integer pkey, Integer qosClass)
{
    /** The path record fields ibacm fills from the request, as a 64-byte ibv_path_record (BE). */
    public static final int PATH_LENGTH = 64;

    public static LsResolveRequest decode(final DirectBuffer buffer, final int offset, final int length)
    {
        final NetlinkMessageHeader header = new NetlinkMessageHeader().wrap(buffer, offset, length);
        final long nlmsgLen = header.length();
        if (nlmsgLen < NetlinkMessageHeader.LENGTH + LsResolveHeader.ALIGNED_LENGTH || nlmsgLen > length)
        {
            throw new MalformedMessageException("LS RESOLVE request: nlmsg_len " + nlmsgLen + " must be "
                + (NetlinkMessageHeader.LENGTH + LsResolveHeader.ALIGNED_LENGTH) + ".." + length);
        }
        final int type = header.type();
        if (RdmaNlLs.client(type) != RdmaNlLs.CLIENT_LS || RdmaNlLs.op(type) != RdmaNlLs.OP_RESOLVE)
        {
            throw new MalformedMessageException("LS RESOLVE request: nlmsg_type 0x" + Integer.toHexString(type)
                + " is not RDMA_NL_GET_TYPE(RDMA_NL_LS, RDMA_NL_LS_OP_RESOLVE) = 0x"
                + Integer.toHexString(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_RESOLVE)));
        }
        final int family = offset + NetlinkMessageHeader.LENGTH;
        int nameLength = 0;
        while (nameLength < LsResolveHeader.DEVICE_NAME_LENGTH && buffer.getByte(family + nameLength) != 0)
        {
            nameLength++;
        }
        final byte[] name = new byte[nameLength];
        buffer.getBytes(family, name);
        final Builder builder = new Builder(header.sequence(), new String(name, StandardCharsets.US_ASCII),
            buffer.getByte(family + LsResolveHeader.PORT_NUM_OFFSET) & 0xff,
            buffer.getByte(family + LsResolveHeader.PATH_USE_OFFSET) & 0xff);
        final int attributes = family + LsResolveHeader.ALIGNED_LENGTH;
        NetlinkAttribute.forEach(buffer, attributes, (int)(offset + nlmsgLen - attributes),
            RdmaNlLs.NLA_TYPE_MASK, "LS RESOLVE request", builder::onAttribute);
        return builder.build();
    }

    /** Encodes as the kernel does; returns the message length (already 4-byte aligned). */
    public int encode(final MutableDirectBuffer buffer, final int offset)
    {
        final int family = offset + NetlinkMessageHeader.LENGTH;
        buffer.setMemory(family, LsResolveHeader.ALIGNED_LENGTH, (byte)0);
        final byte[] name = deviceName.getBytes(StandardCharsets.US_ASCII);
        buffer.putBytes(family, name, 0, Math.min(name.length, LsResolveHeader.DEVICE_NAME_LENGTH - 1));
        buffer.putByte(family + LsResolveHeader.PORT_NUM_OFFSET, (byte)portNum);
        buffer.putByte(family + LsResolveHeader.PATH_USE_OFFSET, (byte)pathUse);
        int at = family + LsResolveHeader.ALIGNED_LENGTH;
        final int mandatory = RdmaNlLs.NLA_F_MANDATORY;
        if (serviceId != null)
        {
            at = NetlinkAttribute.putU64(buffer, at, mandatory | RdmaNlLs.NLA_TYPE_SERVICE_ID, serviceId);
        }
        if (dgid != null)
        {
            at = NetlinkAttribute.put(buffer, at, mandatory | RdmaNlLs.NLA_TYPE_DGID, dgid.toBytes());
        }
        if (sgid != null)
        {
            at = NetlinkAttribute.put(buffer, at, mandatory | RdmaNlLs.NLA_TYPE_SGID, sgid.toBytes());
        }
        if (tclass != null)
        {
            at = NetlinkAttribute.putU8(buffer, at, mandatory | RdmaNlLs.NLA_TYPE_TCLASS, tclass);
        }
        if (pkey != null)
        {
            at = NetlinkAttribute.putU16(buffer, at, mandatory | RdmaNlLs.NLA_TYPE_PKEY, pkey);
        }
        if (qosClass != null)
        {
            at = NetlinkAttribute.putU16(buffer, at, mandatory | RdmaNlLs.NLA_TYPE_QOS_CLASS, qosClass);
        }
        new NetlinkMessageHeader().wrap(buffer, offset).length(at - offset)
            .type(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_RESOLVE)).flags(NetlinkMessageHeader.NLM_F_REQUEST)
            .sequence(seq).portId(0);
        return at - offset;
    }

    /**
     * The path record template ibacm builds from the request: service ID, GIDs, TClass, P_Key and
     * QoS class in network order, reversible with one path unless the path use is unidirectional.
     * Like ibacm, the QoS class is masked with 0xfff0 into qosclass_sl as given.
     */
    public byte[] pathTemplate()
    {
        final UnsafeBuffer bytes = new UnsafeBuffer(new byte[PATH_LENGTH]);
        final IbvPathRecord path = new IbvPathRecord().wrap(bytes, 0);
        if (serviceId != null)
        {
            path.serviceId(serviceId);
        }
        if (dgid != null)
        {
            path.dgid(dgid);
        }
        if (sgid != null)
        {
            path.sgid(sgid);
        }
        if (tclass != null)
        {
            path.tClass(tclass);
        }
        path.reversible(pathUse != RdmaNlLs.PATH_USE_UNIDIRECTIONAL).numbPath(1);
        if (pkey != null)
        {
            path.pKey(pkey);
        }
        if (qosClass != null)
        {
            path.qosClass((qosClass & 0xfff0) >>> IbvPathRecord.QOS_CLASS_SHIFT);
        }
        return bytes.byteArray();
    }

    private static final class Builder
    {
        private final long seq;
        private final String deviceName;
        private final int portNum;
        private final int pathUse;
        private Long serviceId;
        private Gid dgid;
        private Gid sgid;
        private Integer tclass;
        private Integer pkey;
        private Integer qosClass;

        Builder(final long seq, final String deviceName, final int portNum, final int pathUse)
        {
            this.seq = seq;
            this.deviceName = deviceName;
            this.portNum = portNum;
            this.pathUse = pathUse;
        }

        void onAttribute(final int rawType, final DirectBuffer buffer, final int payload, final int length)
        {
            final int type = rawType & RdmaNlLs.NLA_TYPE_MASK;
            switch (type)
            {
                case RdmaNlLs.NLA_TYPE_SERVICE_ID -> serviceId = buffer.getLong(payload(type, length, 8, payload), HOST_ORDER);
                case RdmaNlLs.NLA_TYPE_DGID -> dgid = gid(buffer, payload(type, length, 16, payload));
                case RdmaNlLs.NLA_TYPE_SGID -> sgid = gid(buffer, payload(type, length, 16, payload));
                case RdmaNlLs.NLA_TYPE_TCLASS -> tclass = buffer.getByte(payload(type, length, 1, payload)) & 0xff;
                case RdmaNlLs.NLA_TYPE_PKEY -> pkey = buffer.getShort(payload(type, length, 2, payload), HOST_ORDER) & 0xffff;
                case RdmaNlLs.NLA_TYPE_QOS_CLASS ->
                    qosClass = buffer.getShort(payload(type, length, 2, payload), HOST_ORDER) & 0xffff;
                default ->
                {
                    if ((rawType & RdmaNlLs.NLA_F_MANDATORY) != 0)
                    {
                        throw new MalformedMessageException("LS RESOLVE request: attribute type " + type
                            + " is unknown and marked mandatory");
                    }
                }
            }
        }

        private static int payload(final int type, final int length, final int expected, final int payload)
        {
            if (length != expected)
            {
                throw new MalformedMessageException("LS RESOLVE request: attribute type " + type + " has "
                    + length + " payload bytes, must be " + expected);
            }
            return payload;
        }

        private static Gid gid(final DirectBuffer buffer, final int offset)
        {
            return new Gid(buffer.getLong(offset, BIG_ENDIAN), buffer.getLong(offset + 8, BIG_ENDIAN));
        }

        LsResolveRequest build()
        {
            return new LsResolveRequest(seq, deviceName, portNum, pathUse, serviceId, dgid, sgid, tclass, pkey, qosClass);
        }
    }
}
