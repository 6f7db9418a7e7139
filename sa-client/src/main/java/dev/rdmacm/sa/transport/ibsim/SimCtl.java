package dev.rdmacm.sa.transport.ibsim;

import org.agrona.MutableDirectBuffer;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Flyweight over ibsim's {@code struct sim_ctl} (include/ibsim.h): the control message on ibsim's ctl
 * socket. It is in the host byte order of ibsim's machine, little-endian on x86_64, unlike the MADs.
 * <pre>
 *   0               4               8               12              16
 *  +---------------+---------------+---------------+---------------+-----------------//----+
 *  | magic u32 LE  | clientid u32  |   type u32    |   len u32     |   data[64]            |
 *  | 0xdeadbeef    |               |               |               |                       |
 *  +---------------+---------------+---------------+---------------+-----------------//----+
 * </pre>
 * A reply of type {@link #TYPE_ERROR} means the request failed.
 */
public final class SimCtl
{
    public static final int MAGIC_OFFSET = 0;
    public static final int CLIENT_ID_OFFSET = 4;
    public static final int TYPE_OFFSET = 8;
    public static final int LEN_OFFSET = 12;
    public static final int DATA_OFFSET = 16;
    public static final int DATA_LENGTH = 64;
    public static final int LENGTH = DATA_OFFSET + DATA_LENGTH;

    public static final int MAGIC = 0xdeadbeef;
    public static final int TYPE_ERROR = 0;
    public static final int TYPE_CONNECT = 1;
    public static final int TYPE_DISCONNECT = 2;
    public static final int TYPE_GET_NODEINFO = 7;
    public static final int TYPE_GET_PORTINFO = 8;

    private MutableDirectBuffer buffer;
    private int offset;

    public SimCtl wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    /** Zeroes the whole message, then sets magic, client id, type and data length. */
    public SimCtl reset(final int clientId, final int type, final int len)
    {
        buffer.setMemory(offset, LENGTH, (byte)0);
        buffer.putInt(offset + MAGIC_OFFSET, MAGIC, LITTLE_ENDIAN);
        buffer.putInt(offset + CLIENT_ID_OFFSET, clientId, LITTLE_ENDIAN);
        buffer.putInt(offset + TYPE_OFFSET, type, LITTLE_ENDIAN);
        buffer.putInt(offset + LEN_OFFSET, len, LITTLE_ENDIAN);
        return this;
    }

    public long magic()
    {
        return buffer.getInt(offset + MAGIC_OFFSET, LITTLE_ENDIAN) & 0xffff_ffffL;
    }

    public long clientId()
    {
        return buffer.getInt(offset + CLIENT_ID_OFFSET, LITTLE_ENDIAN) & 0xffff_ffffL;
    }

    public long type()
    {
        return buffer.getInt(offset + TYPE_OFFSET, LITTLE_ENDIAN) & 0xffff_ffffL;
    }

    public long len()
    {
        return buffer.getInt(offset + LEN_OFFSET, LITTLE_ENDIAN) & 0xffff_ffffL;
    }

    /** The absolute offset of the data area in the wrapped buffer. */
    public int dataOffset()
    {
        return offset + DATA_OFFSET;
    }

    public MutableDirectBuffer buffer()
    {
        return buffer;
    }
}
