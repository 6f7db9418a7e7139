package dev.rdmacm.protocol.rdmanl;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over {@code struct nlmsghdr} (16 bytes, host order) as RDMA netlink LS messages use it.
 * <pre>
 *   0                   1                   2                   3
 *  +---------------------------------------------------------------+
 *  |                      nlmsg_len (host)                         |  0
 *  +-------------------------------+-------------------------------+
 *  |      nlmsg_type (host)        |      nlmsg_flags (host)       |  4
 *  +-------------------------------+-------------------------------+
 *  |                      nlmsg_seq (host)                         |  8
 *  +---------------------------------------------------------------+
 *  |                      nlmsg_pid (host)                         | 12
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class NlMsgHeader extends Flyweight
{
    public static final int LEN_OFFSET = 0;
    public static final int TYPE_OFFSET = 4;
    public static final int FLAGS_OFFSET = 6;
    public static final int SEQ_OFFSET = 8;
    public static final int PID_OFFSET = 12;
    /** {@code NLMSG_HDRLEN}. */
    public static final int LENGTH = 16;
    /** {@code NLM_F_REQUEST}. */
    public static final int F_REQUEST = 1;


    public NlMsgHeader wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("netlink header", buffer, offset, length, LENGTH);
        return this;
    }

    public NlMsgHeader wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        return this;
    }

    public long len()
    {
        return buffer.getInt(offset + LEN_OFFSET, HOST_ORDER) & 0xffff_ffffL;
    }

    public NlMsgHeader len(final long value)
    {
        mutableBuffer.putInt(offset + LEN_OFFSET, (int)value, HOST_ORDER);
        return this;
    }

    public int type()
    {
        return buffer.getShort(offset + TYPE_OFFSET, HOST_ORDER) & 0xffff;
    }

    public NlMsgHeader type(final int value)
    {
        mutableBuffer.putShort(offset + TYPE_OFFSET, (short)value, HOST_ORDER);
        return this;
    }

    public int flags()
    {
        return buffer.getShort(offset + FLAGS_OFFSET, HOST_ORDER) & 0xffff;
    }

    public NlMsgHeader flags(final int value)
    {
        mutableBuffer.putShort(offset + FLAGS_OFFSET, (short)value, HOST_ORDER);
        return this;
    }

    public long seq()
    {
        return buffer.getInt(offset + SEQ_OFFSET, HOST_ORDER) & 0xffff_ffffL;
    }

    public NlMsgHeader seq(final long value)
    {
        mutableBuffer.putInt(offset + SEQ_OFFSET, (int)value, HOST_ORDER);
        return this;
    }

    public long pid()
    {
        return buffer.getInt(offset + PID_OFFSET, HOST_ORDER) & 0xffff_ffffL;
    }

    public NlMsgHeader pid(final long value)
    {
        mutableBuffer.putInt(offset + PID_OFFSET, (int)value, HOST_ORDER);
        return this;
    }
}
