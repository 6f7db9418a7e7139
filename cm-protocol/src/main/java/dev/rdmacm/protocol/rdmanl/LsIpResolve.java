package dev.rdmacm.protocol.rdmanl;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.MalformedMessageException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static dev.rdmacm.protocol.rdmanl.RdmaNlLs.HOST_ORDER;
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
        final NlMsgHeader header = new NlMsgHeader().wrap(buffer, offset, length);
        final long nlmsgLen = header.len();
        if (nlmsgLen < NlMsgHeader.LENGTH + HEADER_LENGTH || nlmsgLen > length)
        {
            throw new MalformedMessageException("LS IP_RESOLVE request: nlmsg_len " + nlmsgLen + " must be "
                + (NlMsgHeader.LENGTH + HEADER_LENGTH) + ".." + length);
        }
        final long ifindex = buffer.getInt(offset + NlMsgHeader.LENGTH + IFINDEX_OFFSET, HOST_ORDER) & 0xffff_ffffL;
        final byte[][] address = new byte[1][];
        final int attributes = offset + NlMsgHeader.LENGTH + HEADER_LENGTH;
        NlAttribute.forEach(buffer, attributes, (int)(offset + nlmsgLen - attributes), "LS IP_RESOLVE request",
            (type, b, payload, payloadLength) ->
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
        return new LsIpResolve(header.seq(), ifindex, address[0]);
    }

    /** Encodes the request as the kernel does; returns its length. */
    public int encode(final MutableDirectBuffer buffer, final int offset)
    {
        buffer.putInt(offset + NlMsgHeader.LENGTH + IFINDEX_OFFSET, (int)ifindex, HOST_ORDER);
        final int type = RdmaNlLs.NLA_F_MANDATORY | (address.length == 4 ? RdmaNlLs.NLA_TYPE_IPV4 : RdmaNlLs.NLA_TYPE_IPV6);
        final int end = NlAttribute.put(buffer, offset + NlMsgHeader.LENGTH + HEADER_LENGTH, type, address);
        new NlMsgHeader().wrap(buffer, offset).len(end - offset)
            .type(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_IP_RESOLVE)).flags(NlMsgHeader.F_REQUEST).seq(seq).pid(0);
        return end - offset;
    }

    /** Encodes the answer carrying {@code dgid}; returns its length. */
    public int encodeResponse(final MutableDirectBuffer buffer, final int offset, final long pid, final Gid dgid)
    {
        final int end = NlAttribute.put(buffer, offset + NlMsgHeader.LENGTH, RdmaNlLs.NLA_TYPE_DGID, dgid.toBytes());
        new NlMsgHeader().wrap(buffer, offset).len(end - offset)
            .type(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_IP_RESOLVE)).flags(0).seq(seq).pid(pid);
        return end - offset;
    }

    /** Encodes a failed answer (F_ERR, no attribute); returns its length. */
    public int encodeError(final MutableDirectBuffer buffer, final int offset, final long pid)
    {
        new NlMsgHeader().wrap(buffer, offset).len(NlMsgHeader.LENGTH)
            .type(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_IP_RESOLVE)).flags(RdmaNlLs.F_ERR).seq(seq).pid(pid);
        return NlMsgHeader.LENGTH;
    }

    /** The DGID of an answer, or null when it carries F_ERR. */
    public static Gid decodeResponse(final DirectBuffer buffer, final int offset, final int length)
    {
        final NlMsgHeader header = new NlMsgHeader().wrap(buffer, offset, length);
        if ((header.flags() & RdmaNlLs.F_ERR) != 0)
        {
            return null;
        }
        final Gid[] gid = new Gid[1];
        NlAttribute.forEach(buffer, offset + NlMsgHeader.LENGTH, (int)header.len() - NlMsgHeader.LENGTH,
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
