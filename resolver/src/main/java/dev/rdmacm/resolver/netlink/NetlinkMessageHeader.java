package dev.rdmacm.resolver.netlink;

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
 * Messages are padded to 4 bytes ({@link #align(int)}); a datagram may hold several.
 */
public final class NetlinkMessageHeader
{
    public static final ByteOrder ORDER = ByteOrder.nativeOrder();

    public static final int LENGTH_OFFSET = 0;
    public static final int TYPE_OFFSET = 4;
    public static final int FLAGS_OFFSET = 6;
    public static final int SEQUENCE_OFFSET = 8;
    public static final int PORT_ID_OFFSET = 12;
    public static final int LENGTH = 16;
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

    public static final int NLM_F_REQUEST = 0x1;
    public static final int NLM_F_MULTI = 0x2;
    public static final int NLM_F_ACK = 0x4;
    public static final int NLM_F_DUMP = 0x300;
    public static final int NLM_F_REPLACE = 0x100;
    public static final int NLM_F_CREATE = 0x400;
    /** In an NLMSG_ERROR: the original request was not echoed back in full. */
    public static final int NLM_F_CAPPED = 0x100;
    /** In an NLMSG_ERROR: extended-ack attributes follow the (possibly capped) original request. */
    public static final int NLM_F_ACK_TLVS = 0x200;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    public static int align(final int length)
    {
        return (length + ALIGNMENT - 1) & -ALIGNMENT;
    }

    public NetlinkMessageHeader wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer m ? m : null;
        this.offset = offset;
        return this;
    }

    public int offset()
    {
        return offset;
    }

    /** Offset of the message body (rtmsg, ifinfomsg, nlmsgerr...) in the buffer. */
    public int bodyOffset()
    {
        return offset + LENGTH;
    }

    public long length()
    {
        return buffer.getInt(offset + LENGTH_OFFSET, ORDER) & 0xffff_ffffL;
    }

    public NetlinkMessageHeader length(final long length)
    {
        mutableBuffer.putInt(offset + LENGTH_OFFSET, (int)length, ORDER);
        return this;
    }

    public int type()
    {
        return buffer.getShort(offset + TYPE_OFFSET, ORDER) & 0xffff;
    }

    public NetlinkMessageHeader type(final int type)
    {
        mutableBuffer.putShort(offset + TYPE_OFFSET, (short)type, ORDER);
        return this;
    }

    public int flags()
    {
        return buffer.getShort(offset + FLAGS_OFFSET, ORDER) & 0xffff;
    }

    public NetlinkMessageHeader flags(final int flags)
    {
        mutableBuffer.putShort(offset + FLAGS_OFFSET, (short)flags, ORDER);
        return this;
    }

    public long sequence()
    {
        return buffer.getInt(offset + SEQUENCE_OFFSET, ORDER) & 0xffff_ffffL;
    }

    public NetlinkMessageHeader sequence(final long sequence)
    {
        mutableBuffer.putInt(offset + SEQUENCE_OFFSET, (int)sequence, ORDER);
        return this;
    }

    public long portId()
    {
        return buffer.getInt(offset + PORT_ID_OFFSET, ORDER) & 0xffff_ffffL;
    }

    public NetlinkMessageHeader portId(final long portId)
    {
        mutableBuffer.putInt(offset + PORT_ID_OFFSET, (int)portId, ORDER);
        return this;
    }
}
