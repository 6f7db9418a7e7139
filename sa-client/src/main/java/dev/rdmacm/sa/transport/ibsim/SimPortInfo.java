package dev.rdmacm.sa.transport.ibsim;

import org.agrona.DirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * The fields this transport reads from a PortInfo attribute (IBA 14.2.5.6), as ibsim's GET_PORTINFO
 * returns it in IB wire order (big-endian). LID and MasterSMLID are live values.
 * <pre>
 *   0                               8                               16      18      20
 *  +-------------------------------+-------------------------------+-------+-------+-- ... --+
 *  | M_Key                         | GidPrefix                     | LID   | Master|         |
 *  |                               |                               |       | SMLID |         |
 *  +-------------------------------+-------------------------------+-------+-------+-- ... --+
 *  28      ...     36
 *  +-------+-- .. -+---+---+
 *  | Local |       |Nbr|SM |   byte 36: NeighborMTU (high nibble), MasterSMSL (low nibble)
 *  | PortN |       |MTU|SL |
 *  +-------+-- .. -+---+---+
 * </pre>
 */
public final class SimPortInfo
{
    public static final int GID_PREFIX_OFFSET = 8;
    public static final int LID_OFFSET = 16;
    public static final int MASTER_SM_LID_OFFSET = 18;
    public static final int LOCAL_PORT_NUM_OFFSET = 28;
    public static final int NEIGHBOR_MTU_MASTER_SM_SL_OFFSET = 36;

    private SimPortInfo()
    {
    }

    public static long gidPrefix(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + GID_PREFIX_OFFSET, BIG_ENDIAN);
    }

    public static int lid(final DirectBuffer buffer, final int offset)
    {
        return buffer.getShort(offset + LID_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public static int masterSmLid(final DirectBuffer buffer, final int offset)
    {
        return buffer.getShort(offset + MASTER_SM_LID_OFFSET, BIG_ENDIAN) & 0xffff;
    }

    public static short localPortNum(final DirectBuffer buffer, final int offset)
    {
        return (short)(buffer.getByte(offset + LOCAL_PORT_NUM_OFFSET) & 0xff);
    }

    public static short masterSmSl(final DirectBuffer buffer, final int offset)
    {
        return (short)(buffer.getByte(offset + NEIGHBOR_MTU_MASTER_SM_SL_OFFSET) & 0x0f);
    }
}
