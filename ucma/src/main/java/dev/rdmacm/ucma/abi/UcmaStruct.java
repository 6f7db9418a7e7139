package dev.rdmacm.ucma.abi;

import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What every ucma struct's flyweight shares: its C name and size, the two wraps (reading checks that
 * the whole struct lies in the message; writing wraps over a buffer the caller sized) and the byte
 * ranges that several structs hold (socket addresses, private data). The ABI is the CPU's byte order
 * ({@code __u16}, {@code __u32}, {@code __aligned_u64}); the few big-endian fields are named as such by
 * the subclass that holds them.
 *
 * @param <T> the subclass, so that the fluent setters keep its type.
 */
public abstract class UcmaStruct<T extends UcmaStruct<T>> extends Flyweight
{
    /** {@code sizeof(struct __kernel_sockaddr_storage)}: the room of every address field of the AF_IB-era commands. */
    public static final int SOCKADDR_STORAGE_LENGTH = 128;
    /** {@code sizeof(struct sockaddr_in6)}: the room of the address fields of the pre-AF_IB commands. */
    public static final int SOCKADDR_IN6_LENGTH = 28;

    private final String cName;
    private final int length;

    protected UcmaStruct(final String cName, final int length)
    {
        this.cName = cName;
        this.length = length;
    }

    /** {@code sizeof} the struct on x86_64, as gcc computes it from the header. */
    public final int length()
    {
        return length;
    }

    /** The struct's C name, e.g. {@code rdma_ucm_query_addr_resp}. */
    public final String cName()
    {
        return cName;
    }

    /** Wraps for reading, checking that {@link #length()} bytes lie inside the message. */
    public final T wrap(final DirectBuffer buffer, final int offset, final int messageLength)
    {
        wrapForReading(cName, buffer, offset, messageLength, length);
        wrapped(buffer, offset);
        return self();
    }

    /** Wraps for writing (and reading back) over a buffer the caller sized. */
    public final T wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        wrapped(buffer, offset);
        return self();
    }

    /** Zeroes the whole struct, reserved bytes included: the kernel refuses some non-zero reserved words. */
    public final T clear()
    {
        zero(0, length);
        return self();
    }

    /** Wraps the structs embedded in this one; called after every wrap. */
    protected void wrapped(final DirectBuffer buffer, final int offset)
    {
    }

    /** {@code count} bytes from {@code field}, copied out. */
    protected final byte[] bytes(final int field, final int count)
    {
        final byte[] bytes = new byte[count];
        buffer.getBytes(offset + field, bytes);
        return bytes;
    }

    /**
     * Writes {@code bytes} into a field of {@code capacity} bytes and zeroes the rest of it.
     *
     * @throws IllegalArgumentException naming {@code what} when {@code bytes} does not fit.
     */
    protected final void putBytes(final String what, final int field, final int capacity, final byte[] bytes)
    {
        if (bytes.length > capacity)
        {
            throw new IllegalArgumentException(cName + "." + what + ": " + bytes.length + " bytes, the field holds " + capacity);
        }
        zero(field, capacity);
        mutableBuffer.putBytes(offset + field, bytes);
    }

    /**
     * Writes {@code address}'s C bytes into a field of {@code capacity} bytes, the rest zeroed, and
     * returns their length (what the {@code *_size} fields carry): 16 for {@code sockaddr_in}, 28 for
     * {@code sockaddr_in6}, 48 for {@code sockaddr_ib}, the only sizes the kernel takes.
     *
     * @throws IllegalArgumentException naming {@code what} for any other family or size.
     */
    protected final int putSockaddr(final String what, final int field, final int capacity, final RdmaSockaddr address)
    {
        final byte[] bytes = address.toBytes();
        if (bytes.length != 16 && bytes.length != SOCKADDR_IN6_LENGTH && bytes.length != 48 || bytes.length > capacity)
        {
            throw new IllegalArgumentException(cName + "." + what + ": " + address.toText() + " is a " + bytes.length +
                "-byte address of family " + address.family() + "; the kernel takes sockaddr_in (16), sockaddr_in6 (28) " +
                "and sockaddr_ib (48)" + (capacity < 48 ? " only up to " + capacity + " bytes here" : ""));
        }
        putBytes(what, field, capacity, bytes);
        return bytes.length;
    }

    /** The {@code size} bytes of the address at {@code field}, or null when {@code size} is 0 (no address). */
    protected final RdmaSockaddr sockaddr(final int field, final int size)
    {
        return size == 0 ? null : RdmaSockaddr.fromBytes(bytes(field, size));
    }

    @SuppressWarnings("unchecked")
    private T self()
    {
        return (T)this;
    }
}
