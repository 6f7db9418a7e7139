package dev.rdmacm.netlink.rdma;

import dev.rdmacm.netlink.wire.NetlinkAttribute;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.MalformedMessageException;

import java.nio.ByteOrder;

/**
 * Constants of the RDMA netlink local service ({@code RDMA_NL_LS}, uapi {@code rdma/rdma_netlink.h}):
 * the channel through which the kernel's SA client and address resolver ask a userspace daemon
 * (ibacm, or this stack's acm-server) for path records and IP-to-GID resolutions. The kernel
 * multicasts requests to group {@link #GROUP_LS} of {@code NETLINK_RDMA}; the daemon answers with the
 * request's type and sequence number.
 * <p>
 * Every field of these messages is in host order except GIDs and IP addresses (network order).
 */
public final class RdmaNlLs
{
    /** Netlink headers and attribute values are in the host's order (GIDs and IPs excepted). */
    public static final ByteOrder HOST_ORDER = NetlinkMessageHeader.ORDER;

    public static final int CLIENT_IWCM = 2;
    /** {@code RDMA_NL_LS}. */
    public static final int CLIENT_LS = 4;
    public static final int CLIENT_NLDEV = 5;
    /** {@code RDMA_NL_GROUP_LS}: multicast group of LS requests (bit {@code 1 << (3 - 1)}). */
    public static final int GROUP_LS = 3;

    public static final int OP_RESOLVE = 0;
    public static final int OP_SET_TIMEOUT = 1;
    public static final int OP_IP_RESOLVE = 2;

    /** {@code RDMA_NL_LS_F_ERR}: nlmsg_flags bit of a failed response. */
    public static final int F_ERR = 0x0100;

    public static final int PATH_USE_ALL = 0;
    public static final int PATH_USE_UNIDIRECTIONAL = 1;
    public static final int PATH_USE_GMP = 2;

    /** {@code RDMA_NLA_F_MANDATORY}: the receiver must understand the attribute or reject the message. */
    public static final int NLA_F_MANDATORY = 1 << 13;
    /** {@code RDMA_NLA_TYPE_MASK}: the attribute type without the three flag bits (nlattr's two and MANDATORY). */
    public static final int NLA_TYPE_MASK = NetlinkAttribute.TYPE_MASK & ~NLA_F_MANDATORY;

    public static final int NLA_TYPE_UNSPEC = 0;
    public static final int NLA_TYPE_PATH_RECORD = 1;
    public static final int NLA_TYPE_TIMEOUT = 2;
    public static final int NLA_TYPE_SERVICE_ID = 3;
    public static final int NLA_TYPE_DGID = 4;
    public static final int NLA_TYPE_SGID = 5;
    public static final int NLA_TYPE_TCLASS = 6;
    public static final int NLA_TYPE_PKEY = 7;
    public static final int NLA_TYPE_QOS_CLASS = 8;
    public static final int NLA_TYPE_IPV4 = 9;
    public static final int NLA_TYPE_IPV6 = 10;
    public static final int NLA_TYPE_MAX = 11;

    private RdmaNlLs()
    {
    }

    /** {@code RDMA_NL_GET_TYPE(client, op)}: the nlmsg_type of an RDMA netlink message. */
    public static int type(final int client, final int op)
    {
        return (client << 10) + op;
    }

    /** {@code RDMA_NL_GET_CLIENT(type)}. */
    public static int client(final int type)
    {
        return (type & (((1 << 6) - 1) << 10)) >> 10;
    }

    /** {@code RDMA_NL_GET_OP(type)}. */
    public static int op(final int type)
    {
        return type & ((1 << 10) - 1);
    }

    /**
     * The nlmsg_len of {@code header}, checked against the {@code length} bytes the message was read from:
     * an answer's attributes are walked up to it, so one past the buffer is malformed, not a read beyond.
     */
    static int messageLength(final NetlinkMessageHeader header, final int length, final String message)
    {
        final long nlmsgLen = header.length();
        if (nlmsgLen < NetlinkMessageHeader.LENGTH || nlmsgLen > length)
        {
            throw new MalformedMessageException(message + ": nlmsg_len " + nlmsgLen + " must be "
                + NetlinkMessageHeader.LENGTH + ".." + length);
        }
        return (int)nlmsgLen;
    }
}
