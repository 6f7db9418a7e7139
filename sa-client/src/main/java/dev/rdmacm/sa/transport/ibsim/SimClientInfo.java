package dev.rdmacm.sa.transport.ibsim;

import org.agrona.MutableDirectBuffer;

import java.nio.charset.StandardCharsets;

import static java.nio.ByteOrder.LITTLE_ENDIAN;

/**
 * Flyweight over ibsim's {@code struct sim_client_info}, the data of a CONNECT {@link SimCtl},
 * little-endian like it.
 * <pre>
 *   0               4               8               12
 *  +---------------+---------------+---------------+-------------------------------+
 *  |   id u32 LE   |   qp u32 LE   |  issm u32 LE  |  nodeid char[32], NUL-padded  |
 *  +---------------+---------------+---------------+-------------------------------+
 * </pre>
 * In a request, {@code id} is the client's data UDP port (never 0); in the reply it is the client index
 * ibsim gave us, which also selects ibsim's data port (ctl port + 1 + index).
 */
public final class SimClientInfo
{
    public static final int ID_OFFSET = 0;
    public static final int QP_OFFSET = 4;
    public static final int ISSM_OFFSET = 8;
    public static final int NODE_ID_OFFSET = 12;
    public static final int NODE_ID_LENGTH = 32;
    public static final int LENGTH = NODE_ID_OFFSET + NODE_ID_LENGTH;

    private MutableDirectBuffer buffer;
    private int offset;

    public SimClientInfo wrap(final MutableDirectBuffer buffer, final int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public long id()
    {
        return buffer.getInt(offset + ID_OFFSET, LITTLE_ENDIAN) & 0xffff_ffffL;
    }

    public SimClientInfo id(final long value)
    {
        buffer.putInt(offset + ID_OFFSET, (int)value, LITTLE_ENDIAN);
        return this;
    }

    public SimClientInfo qp(final long value)
    {
        buffer.putInt(offset + QP_OFFSET, (int)value, LITTLE_ENDIAN);
        return this;
    }

    /** Non-zero would make us the SM: ibsim would then send us every unsolicited QP0/QP1 MAD. */
    public SimClientInfo issm(final long value)
    {
        buffer.putInt(offset + ISSM_OFFSET, (int)value, LITTLE_ENDIAN);
        return this;
    }

    /**
     * @throws IllegalArgumentException when the name does not fit in 31 ASCII bytes plus the NUL.
     */
    public SimClientInfo nodeId(final String name)
    {
        final byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length >= NODE_ID_LENGTH || bytes.length == 0)
        {
            throw new IllegalArgumentException(
                "ibsim node name '" + name + "' must be 1.." + (NODE_ID_LENGTH - 1) + " ASCII characters");
        }
        buffer.setMemory(offset + NODE_ID_OFFSET, NODE_ID_LENGTH, (byte)0);
        buffer.putBytes(offset + NODE_ID_OFFSET, bytes);
        return this;
    }

    public String nodeId()
    {
        final StringBuilder name = new StringBuilder();
        for (int i = 0; i < NODE_ID_LENGTH; i++)
        {
            final byte b = buffer.getByte(offset + NODE_ID_OFFSET + i);
            if (b == 0)
            {
                break;
            }
            name.append((char)(b & 0xff));
        }
        return name.toString();
    }
}
