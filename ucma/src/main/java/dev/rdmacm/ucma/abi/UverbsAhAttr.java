package dev.rdmacm.ucma.abi;

import dev.rdmacm.protocol.Gid;

/**
 * Flyweight over {@code struct ib_uverbs_ah_attr} with its {@code struct ib_uverbs_global_route}
 * ({@code rdma/ib_user_verbs.h}): an address handle's attributes as the kernel hands them out, in the
 * primary and alternate path of {@link UverbsQpAttr} and in a UD event's {@link UdParam}. Host byte
 * order (the DLID and the flow label too: these are the kernel's values, not wire fields); the DGID is
 * its 16 network-order bytes.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  grh.dgid (16 bytes, network order)           |  0
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |                       grh.flow_label                          | 16
 *  +---------------+---------------+---------------+---------------+
 *  |grh.sgid_index | grh.hop_limit |grh.traffic_cl.| grh.reserved  | 20
 *  +---------------+---------------+---------------+---------------+
 *  |             dlid              |      sl       | src_path_bits | 24
 *  +---------------+---------------+---------------+---------------+
 *  |  static_rate  |   is_global   |   port_num    |   reserved    | 28
 *  +---------------+---------------+---------------+---------------+
 * </pre>
 */
public final class UverbsAhAttr extends UcmaStruct<UverbsAhAttr>
{
    public static final int DGID_OFFSET = 0;
    public static final int FLOW_LABEL_OFFSET = 16;
    public static final int SGID_INDEX_OFFSET = 20;
    public static final int HOP_LIMIT_OFFSET = 21;
    public static final int TRAFFIC_CLASS_OFFSET = 22;
    public static final int GRH_RESERVED_OFFSET = 23;
    public static final int DLID_OFFSET = 24;
    public static final int SL_OFFSET = 26;
    public static final int SRC_PATH_BITS_OFFSET = 27;
    public static final int STATIC_RATE_OFFSET = 28;
    public static final int IS_GLOBAL_OFFSET = 29;
    public static final int PORT_NUM_OFFSET = 30;
    public static final int RESERVED_OFFSET = 31;
    /** {@code sizeof(struct ib_uverbs_global_route)}. */
    public static final int GRH_LENGTH = 24;
    public static final int LENGTH = 32;

    public UverbsAhAttr()
    {
        super("ib_uverbs_ah_attr", LENGTH);
    }

    public Gid dgid()
    {
        return gidAt(DGID_OFFSET);
    }

    public long flowLabel()
    {
        return hostU32(FLOW_LABEL_OFFSET);
    }

    public short sgidIndex()
    {
        return u8(SGID_INDEX_OFFSET);
    }

    public short hopLimit()
    {
        return u8(HOP_LIMIT_OFFSET);
    }

    public short trafficClass()
    {
        return u8(TRAFFIC_CLASS_OFFSET);
    }

    public int dlid()
    {
        return hostU16(DLID_OFFSET);
    }

    public short sl()
    {
        return u8(SL_OFFSET);
    }

    public short srcPathBits()
    {
        return u8(SRC_PATH_BITS_OFFSET);
    }

    public short staticRate()
    {
        return u8(STATIC_RATE_OFFSET);
    }

    public boolean isGlobal()
    {
        return u8(IS_GLOBAL_OFFSET) != 0;
    }

    public short portNum()
    {
        return u8(PORT_NUM_OFFSET);
    }
}
