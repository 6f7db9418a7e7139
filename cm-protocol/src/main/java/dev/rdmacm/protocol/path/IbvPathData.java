package dev.rdmacm.protocol.path;

import dev.rdmacm.protocol.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Flyweight over librdmacm's {@code struct ibv_path_data} ({@code infiniband/sa.h}), 72 bytes: a path
 * and what it is for. Unlike the path, {@code flags} is a plain {@code uint32_t} in host byte order.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                   flags (uint32_t, host order)                |  0
 *  +---------------------------------------------------------------+
 *  |                           reserved                            |  4
 *  +---------------------------------------------------------------+
 *  |            path: struct ibv_path_record (64 bytes)            |  8
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class IbvPathData extends Flyweight
{
    public static final int FLAGS_OFFSET = 0;
    public static final int RESERVED_OFFSET = 4;
    public static final int PATH_OFFSET = 8;
    public static final int LENGTH = PATH_OFFSET + IbvPathRecord.LENGTH;

    /** {@code IBV_PATH_FLAG_GMP}: the path may carry general management packets (CM MADs). */
    public static final int FLAG_GMP = 1 << 0;
    public static final int FLAG_PRIMARY = 1 << 1;
    public static final int FLAG_ALTERNATE = 1 << 2;
    /** The path from the local port to the remote one. */
    public static final int FLAG_OUTBOUND = 1 << 3;
    /** The path from the remote port to the local one. */
    public static final int FLAG_INBOUND = 1 << 4;
    /** An inbound path given in the outbound direction (its SGID is the local port). */
    public static final int FLAG_INBOUND_REVERSE = 1 << 5;
    public static final int FLAG_BIDIRECTIONAL = FLAG_OUTBOUND | FLAG_INBOUND_REVERSE;

    private static final String[] FLAG_NAMES = {
        "GMP", "PRIMARY", "ALTERNATE", "OUTBOUND", "INBOUND", "INBOUND_REVERSE",
    };

    private final IbvPathRecord path = new IbvPathRecord();

    public IbvPathData wrap(final DirectBuffer buffer, final int offset, final int length)
    {
        wrapForReading("ibv_path_data", buffer, offset, length, LENGTH);
        path.wrap(buffer, offset + PATH_OFFSET, IbvPathRecord.LENGTH);
        return this;
    }

    public IbvPathData wrap(final MutableDirectBuffer buffer, final int offset)
    {
        wrapForWriting(buffer, offset);
        path.wrap(buffer, offset + PATH_OFFSET);
        return this;
    }

    public IbvPathData clear()
    {
        zero(0, LENGTH);
        return this;
    }

    /** The {@code IBV_PATH_FLAG_*} bits. */
    public long flags()
    {
        return hostU32(FLAGS_OFFSET);
    }

    public IbvPathData flags(final long value)
    {
        putHostU32(FLAGS_OFFSET, value);
        putHostU32(RESERVED_OFFSET, 0);
        return this;
    }

    /** The path, over the same bytes. */
    public IbvPathRecord path()
    {
        return path;
    }

    /** {@code GMP|PRIMARY|BIDIRECTIONAL}-style names of the set flags, {@code 0} for none. */
    public static String flagNames(final long flags)
    {
        if (flags == 0)
        {
            return "0";
        }
        final StringBuilder text = new StringBuilder();
        for (int bit = 0; bit < 32; bit++)
        {
            if ((flags & (1L << bit)) != 0)
            {
                if (!text.isEmpty())
                {
                    text.append('|');
                }
                text.append(bit < FLAG_NAMES.length ? FLAG_NAMES[bit] : "0x" + Long.toHexString(1L << bit));
            }
        }
        return text.toString();
    }

    @Override
    public String toString()
    {
        if (!isWrapped())
        {
            return "ibv_path_data{unwrapped}";
        }
        return "ibv_path_data{flags=" + flagNames(flags()) + ", path=" + path + "}";
    }
}
