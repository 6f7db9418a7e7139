package dev.rdmacm.sa.transport.ibsim;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * Flyweight over ibsim's {@code struct sim_request}: one MAD on ibsim's data socket. Exactly
 * {@link #LENGTH} bytes; ibsim drops any other size as "bad packet size".
 * <pre>
 *   0               4               8               12              16              20
 *  +-------+-------+-------+-------+---------------+---------------+---------------+---------------+
 *  | DLID  | 0   0 | SLID  | 0   0 | DQP u32 BE    | SQP u32 BE    | status u32 BE | padding       |
 *  +-------+-------+-------+-------+---------------+---------------+---------------+---------------+
 *  24                              32                                                           288
 *  +-------------------------------+------------------------------------------------//----------+
 *  | length u64 BE (MAD bytes)     | mad[256]; bytes past length are stale                     |
 *  +-------------------------------+------------------------------------------------//----------+
 * </pre>
 * The LIDs are {@code htons(lid)} stored in a u32: the LID big-endian, then two zero bytes. SLID 0
 * lets ibsim fill in the sender's LID. A non-zero status ({@link #STATUS_BOUNCED}) means ibsim sent our
 * own packet back: no route or no receiver.
 */
public final class SimRequest
{
    public static final int DLID_OFFSET = 0;
    public static final int SLID_OFFSET = 4;
    public static final int DQP_OFFSET = 8;
    public static final int SQP_OFFSET = 12;
    public static final int STATUS_OFFSET = 16;
    public static final int LENGTH_OFFSET = 24;
    public static final int MAD_OFFSET = 32;
    public static final int MAD_CAPACITY = 256;
    public static final int LENGTH = MAD_OFFSET + MAD_CAPACITY;

    /** ETIMEDOUT: ibsim bounced the packet back to its sender. */
    public static final int STATUS_BOUNCED = 110;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutableBuffer;
    private int offset;

    public SimRequest wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.mutableBuffer = buffer;
        this.offset = offset;
        return this;
    }

    public int dlid()
    {
        return buffer.getShort(offset + DLID_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public SimRequest dlid(final int lid)
    {
        mutableBuffer.putInt(offset + DLID_OFFSET, 0);
        mutableBuffer.putShort(offset + DLID_OFFSET, (short)lid, BIG_ENDIAN);
        return this;
    }

    public int slid()
    {
        return buffer.getShort(offset + SLID_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public SimRequest slid(final int lid)
    {
        mutableBuffer.putInt(offset + SLID_OFFSET, 0);
        mutableBuffer.putShort(offset + SLID_OFFSET, (short)lid, BIG_ENDIAN);
        return this;
    }

    public long dqp()
    {
        return buffer.getInt(offset + DQP_OFFSET, BIG_ENDIAN) & 0xffff_ffffL;
    }

    public SimRequest dqp(final long qp)
    {
        mutableBuffer.putInt(offset + DQP_OFFSET, (int)qp, BIG_ENDIAN);
        return this;
    }

    public long sqp()
    {
        return buffer.getInt(offset + SQP_OFFSET, BIG_ENDIAN) & 0xffff_ffffL;
    }

    public SimRequest sqp(final long qp)
    {
        mutableBuffer.putInt(offset + SQP_OFFSET, (int)qp, BIG_ENDIAN);
        return this;
    }

    public long status()
    {
        return buffer.getInt(offset + STATUS_OFFSET, BIG_ENDIAN) & 0xffff_ffffL;
    }

    public SimRequest status(final long value)
    {
        mutableBuffer.putInt(offset + STATUS_OFFSET, (int)value, BIG_ENDIAN);
        mutableBuffer.putInt(offset + STATUS_OFFSET + 4, 0);
        return this;
    }

    public long length()
    {
        return buffer.getLong(offset + LENGTH_OFFSET, BIG_ENDIAN);
    }

    public SimRequest length(final long value)
    {
        mutableBuffer.putLong(offset + LENGTH_OFFSET, value, BIG_ENDIAN);
        return this;
    }

    public int madOffset()
    {
        return offset + MAD_OFFSET;
    }
}
