package dev.rdmacm.netlink.wire;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over {@code struct nlmsghdr}, the 16-byte header of every netlink message. Netlink is
 * host byte order, so every multi-byte field is read and written in {@link ByteOrder#nativeOrder()}.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                     nlmsg_len (u32, incl. header)             |  0
 *  +-------------------------------+-------------------------------+
 *  |        nlmsg_type (u16)       |       nlmsg_flags (u16)       |  4
 *  +-------------------------------+-------------------------------+
 *  |                        nlmsg_seq (u32)                        |  8
 *  +---------------------------------------------------------------+
 *  |                 nlmsg_pid (u32, port id of sender)            | 12
 *  +---------------------------------------------------------------+
 * </pre>
 * Messages are padded to 4 bytes ({@link #align(int)}); a datagram may hold several. The one netlink
 * header of the project: the NETLINK_ROUTE client ({@code dev.rdmacm.netlink}) and the RDMA netlink
 * LS codecs ({@code dev.rdmacm.netlink.rdma}) both use it.
 */
public final class NetlinkMessageHeader extends Flyweight
{
    public static final ByteOrder ORDER = ByteOrder.nativeOrder();

    public static final int LENGTH_OFFSET = 0;
    public static final int TYPE_OFFSET = 4;
    public static final int FLAGS_OFFSET = 6;
    public static final int SEQUENCE_OFFSET = 8;
    public static final int PORT_ID_OFFSET = 12;
    /** {@code NLMSG_HDRLEN}. */
    public static final int LENGTH = 16;
    /** {@code NLMSG_ALIGNTO}, equal to {@code NLA_ALIGNTO}. */
    public static final int ALIGNMENT = 4;

    public static final int NLMSG_NOOP = 1;
    public static final int NLMSG_ERROR = 2;
    public static final int NLMSG_DONE = 3;
    public static final int NLMSG_OVERRUN = 4;

    public static final int RTM_NEWLINK = 16;
    public static final int RTM_DELLINK = 17;
    public static final int RTM_GETLINK = 18;
    public static final int RTM_NEWADDR = 20;
    public static final int RTM_DELADDR = 21;
    public static final int RTM_GETADDR = 22;
    public static final int RTM_NEWROUTE = 24;
    public static final int RTM_GETROUTE = 26;
    public static final int RTM_NEWNEIGH = 28;
    public static final int RTM_DELNEIGH = 29;
    public static final int RTM_GETNEIGH = 30;
    public static final int RTM_NEWQDISC = 36;
    public static final int RTM_DELQDISC = 37;
    public static final int RTM_GETQDISC = 38;

    public static final int NLM_F_REQUEST = 0x1;
    public static final int NLM_F_MULTI = 0x2;
    public static final int NLM_F_ACK = 0x4;
    /** In a dump's message: the table changed while it was dumped, so the dump is not consistent. */
    public static final int NLM_F_DUMP_INTR = 0x10;
    public static final int NLM_F_DUMP = 0x300;
    public static final int NLM_F_REPLACE = 0x100;
    public static final int NLM_F_CREATE = 0x400;
    /** In an NLMSG_ERROR: the original request was not echoed back in full. */
    public static final int NLM_F_CAPPED = 0x100;
    /** In an NLMSG_ERROR: extended-ack attributes follow the (possibly capped) original request. */
    public static final int NLM_F_ACK_TLVS = 0x200;

    /** {@code NLMSG_ALIGN}, and {@code NLA_ALIGN} (both round up to 4 bytes). */
    public static int align(final int length)
    {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }

    /**
     * Wraps a received message header with {@code available} bytes left in the datagram.
     *
     * @throws dev.rdmacm.protocol.MalformedMessageException when fewer than 16 bytes are left.
     */
    public NetlinkMessageHeader wrap(final DirectBuffer buffer, final int offset, final int available)
    {
        wrapForReading("nlmsghdr", buffer, offset, available, LENGTH);
        return this;
    }

    /** Wraps for encoding a request. */
    public NetlinkMessageHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    /** Offset of the message body (rtmsg, ifinfomsg, nlmsgerr...) in the buffer. */
    public int bodyOffset()
    {
        return offset + LENGTH;
    }

    public long length()
    {
        return hostU32(LENGTH_OFFSET);
    }

    public NetlinkMessageHeader length(final long length)
    {
        putHostU32(LENGTH_OFFSET, length);
        return this;
    }

    public int type()
    {
        return hostU16(TYPE_OFFSET);
    }

    public NetlinkMessageHeader type(final int type)
    {
        putHostU16(TYPE_OFFSET, type);
        return this;
    }

    public int flags()
    {
        return hostU16(FLAGS_OFFSET);
    }

    public NetlinkMessageHeader flags(final int flags)
    {
        putHostU16(FLAGS_OFFSET, flags);
        return this;
    }

    public long sequence()
    {
        return hostU32(SEQUENCE_OFFSET);
    }

    public NetlinkMessageHeader sequence(final long sequence)
    {
        putHostU32(SEQUENCE_OFFSET, sequence);
        return this;
    }

    public long portId()
    {
        return hostU32(PORT_ID_OFFSET);
    }

    public NetlinkMessageHeader portId(final long portId)
    {
        putHostU32(PORT_ID_OFFSET, portId);
        return this;
    }
}
