package dev.rdmacm.netlink;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What every rtnetlink message body (rtmsg, ifinfomsg, ndmsg, ifaddrmsg) shares: a fixed-length
 * host-order struct whose first byte is the address family, followed by attributes.
 *
 * @param <T> the concrete flyweight, so that fluent setters return it.
 */
abstract class MessageBody<T extends MessageBody<T>> extends Flyweight
{
    public static final int FAMILY_OFFSET = 0;

    /** The fixed length of the struct. */
    abstract int length();

    /** The C struct's name, for errors. */
    abstract String structName();

    @SuppressWarnings("unchecked")
    private T self()
    {
        return (T)this;
    }

    /**
     * Wraps a received body of {@code length} bytes (struct and attributes).
     *
     * @throws dev.rdmacm.protocol.MalformedMessageException when it is shorter than the struct.
     */
    public T wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading(structName(), buffer, offset, length, length());
        return self();
    }

    /** Wraps for encoding a request. */
    public T wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
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
        zero(0, length());
        return self();
    }

    public short family()
    {
        return u8(FAMILY_OFFSET);
    }

    public T family(final int family)
    {
        putU8(FAMILY_OFFSET, family);
        return self();
    }
}
