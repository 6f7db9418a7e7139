package dev.rdmacm.resolver.netlink;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What every rtnetlink message body (rtmsg, ifinfomsg, ndmsg, ifaddrmsg) shares: a fixed-length
 * struct whose first byte is the address family, followed by attributes.
 *
 * @param <T> the concrete flyweight, so that fluent setters return it.
 */
abstract class MessageBody<T extends MessageBody<T>>
{
    public static final int FAMILY_OFFSET = 0;

    DirectBuffer buffer;
    MutableDirectBuffer mutableBuffer;
    int offset;

    /** The fixed length of the struct. */
    abstract int length();

    @SuppressWarnings("unchecked")
    private T self()
    {
        return (T)this;
    }

    public T wrap(final DirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer instanceof MutableDirectBuffer m ? m : null;
        this.offset = offset;
        return self();
    }

    /** Where the attributes after the struct start. */
    public int attributesOffset()
    {
        return offset + length();
    }

    /** Zeroes the whole struct: the kernel's strict checking wants every field not set to be 0. */
    public T clear()
    {
        mutableBuffer.setMemory(offset, length(), (byte)0);
        return self();
    }

    public short family()
    {
        return (short)(buffer.getByte(offset + FAMILY_OFFSET) & 0xff);
    }

    public T family(final int family)
    {
        mutableBuffer.putByte(offset + FAMILY_OFFSET, (byte)family);
        return self();
    }
}
