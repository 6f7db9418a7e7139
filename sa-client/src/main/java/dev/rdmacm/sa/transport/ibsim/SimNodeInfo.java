package dev.rdmacm.sa.transport.ibsim;

import org.agrona.DirectBuffer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * The fields this transport reads from a NodeInfo attribute (IBA 14.2.5.3), as ibsim's GET_NODEINFO
 * returns it in IB wire order (big-endian).
 * <pre>
 *   0       1       2       3       4                               12                              20
 *  +-------+-------+-------+-------+-------------------------------+-------------------------------+
 *  | Base  | Class | Node  | Num   | SystemImageGUID               | NodeGUID                      |
 *  | Ver   | Ver   | Type  | Ports |                               |                               |
 *  +-------+-------+-------+-------+-------------------------------+-------------------------------+
 *  20                              28
 *  +-------------------------------+-- ... --+
 *  | PortGUID (ibsim: = NodeGUID)  |         |
 *  +-------------------------------+-- ... --+
 * </pre>
 * ibsim's PortGUID equals the NodeGUID for HCAs; the port GUID is NodeGUID + LocalPortNum instead.
 */
public final class SimNodeInfo
{
    public static final int NODE_TYPE_OFFSET = 2;
    public static final int NUM_PORTS_OFFSET = 3;
    public static final int NODE_GUID_OFFSET = 12;

    private SimNodeInfo()
    {
    }

    public static long nodeGuid(final DirectBuffer buffer, final int offset)
    {
        return buffer.getLong(offset + NODE_GUID_OFFSET, BIG_ENDIAN);
    }

    public static short nodeType(final DirectBuffer buffer, final int offset)
    {
        return (short)(buffer.getByte(offset + NODE_TYPE_OFFSET) & 0xff);
    }
}
