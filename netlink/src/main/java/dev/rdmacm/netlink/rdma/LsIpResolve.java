package dev.rdmacm.netlink.rdma;

import dev.rdmacm.netlink.wire.NetlinkAttribute;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.netlink.rdma.RdmaNlLs.HOST_ORDER;
import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * LS IP_RESOLVE: the kernel's address resolver ({@code ib_nl_fetch_ha}, for IB destinations behind a
 * gateway) asking userspace for the GID of an IP address, and the answer
 * ({@code ib_nl_handle_ip_res_resp}).
 * <pre>
 *  request:  nlmsghdr (type RDMA_NL_GET_TYPE(LS, IP_RESOLVE), NLM_F_REQUEST, seq)
 *            rdma_ls_ip_resolve_header: ifindex u32 host
 *            IPV4 (u32, network order) or IPV6 (16 bytes), flagged mandatory
 *  response: nlmsghdr (same type and seq; F_ERR on failure)
 *            DGID (16 bytes)
 * </pre>
 */
public record LsIpResolve(long seq, long ifindex, byte[] address)
{
    public static final int IFINDEX_OFFSET = 0;
    /** {@code sizeof(struct rdma_ls_ip_resolve_header)}. */
    public static final int HEADER_LENGTH = 4;

    public static LsIpResolve decode(final DirectBuffer buffer, final int offset, final int length)
    {
        final NetlinkMessageHeader header = new NetlinkMessageHeader().wrap(buffer, offset, length);
        final long nlmsgLen = header.length();
        if (nlmsgLen < NetlinkMessageHeader.LENGTH + HEADER_LENGTH || nlmsgLen > length)
        {
            throw new MalformedMessageException("LS IP_RESOLVE request: nlmsg_len " + nlmsgLen + " must be "
                + (NetlinkMessageHeader.LENGTH + HEADER_LENGTH) + ".." + length);
        }
        final long ifindex =
            buffer.getInt(offset + NetlinkMessageHeader.LENGTH + IFINDEX_OFFSET, HOST_ORDER) & 0xffff_ffffL;
        final byte[][] address = new byte[1][];
        final int attributes = offset + NetlinkMessageHeader.LENGTH + HEADER_LENGTH;
        NetlinkAttribute.forEach(buffer, attributes, (int)(offset + nlmsgLen - attributes),
            RdmaNlLs.NLA_TYPE_MASK, "LS IP_RESOLVE request", (type, b, payload, payloadLength) ->
            {
                final int bare = type & RdmaNlLs.NLA_TYPE_MASK;
                final int expected = bare == RdmaNlLs.NLA_TYPE_IPV4 ? 4 : bare == RdmaNlLs.NLA_TYPE_IPV6 ? 16 : -1;
                if (expected < 0)
                {
                    return;
                }
                if (payloadLength != expected)
                {
                    throw new MalformedMessageException("LS IP_RESOLVE request: attribute type " + bare + " has "
                        + payloadLength + " bytes, must be " + expected);
                }
                address[0] = new byte[expected];
                b.getBytes(payload, address[0]);
            });
        if (address[0] == null)
        {
            throw new MalformedMessageException("LS IP_RESOLVE request: no IPV4 or IPV6 attribute");
        }
        return new LsIpResolve(header.sequence(), ifindex, address[0]);
    }

    /** Encodes the request as the kernel does; returns its length. */
    public int encode(final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putInt(offset + NetlinkMessageHeader.LENGTH + IFINDEX_OFFSET, (int)ifindex, HOST_ORDER);
        final int type = RdmaNlLs.NLA_F_MANDATORY | (address.length == 4 ? RdmaNlLs.NLA_TYPE_IPV4 : RdmaNlLs.NLA_TYPE_IPV6);
        final int end =
            NetlinkAttribute.put(buffer, offset + NetlinkMessageHeader.LENGTH + HEADER_LENGTH, type, address);
        new NetlinkMessageHeader().wrap(buffer, offset).length(end - offset)
            .type(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_IP_RESOLVE)).flags(NetlinkMessageHeader.NLM_F_REQUEST)
            .sequence(seq).portId(0);
        return end - offset;
    }

    /** Encodes the answer carrying {@code dgid}; returns its length. */
    public int encodeResponse(final MutableDirectBuffer buffer, final int offset, final long pid, final Gid dgid)
    {
        final int end =
            NetlinkAttribute.put(buffer, offset + NetlinkMessageHeader.LENGTH, RdmaNlLs.NLA_TYPE_DGID, dgid.toBytes());
        new NetlinkMessageHeader().wrap(buffer, offset).length(end - offset)
            .type(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_IP_RESOLVE)).flags(0).sequence(seq).portId(pid);
        return end - offset;
    }

    /** Encodes a failed answer (F_ERR, no attribute); returns its length. */
    public int encodeError(final MutableDirectBuffer buffer, final int offset, final long pid)
    {
        new NetlinkMessageHeader().wrap(buffer, offset).length(NetlinkMessageHeader.LENGTH)
            .type(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_IP_RESOLVE)).flags(RdmaNlLs.F_ERR).sequence(seq)
            .portId(pid);
        return NetlinkMessageHeader.LENGTH;
    }

    /** The DGID of an answer, or null when it carries F_ERR. */
    public static Gid decodeResponse(final DirectBuffer buffer, final int offset, final int length)
    {
        final NetlinkMessageHeader header = new NetlinkMessageHeader().wrap(buffer, offset, length);
        if ((header.flags() & RdmaNlLs.F_ERR) != 0)
        {
            return null;
        }
        final Gid[] gid = new Gid[1];
        NetlinkAttribute.forEach(buffer, offset + NetlinkMessageHeader.LENGTH,
            RdmaNlLs.messageLength(header, length, "LS IP_RESOLVE response") - NetlinkMessageHeader.LENGTH, RdmaNlLs.NLA_TYPE_MASK,
            "LS IP_RESOLVE response", (type, b, payload, payloadLength) ->
            {
                if ((type & RdmaNlLs.NLA_TYPE_MASK) == RdmaNlLs.NLA_TYPE_DGID && payloadLength == 16)
                {
                    gid[0] = new Gid(b.getLong(payload, BIG_ENDIAN), b.getLong(payload + 8, BIG_ENDIAN));
                }
            });
        if (gid[0] == null)
        {
            throw new MalformedMessageException("LS IP_RESOLVE response: no F_ERR flag and no 16-byte DGID attribute");
        }
        return gid[0];
    }
}
