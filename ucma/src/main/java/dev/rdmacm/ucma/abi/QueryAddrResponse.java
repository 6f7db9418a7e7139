package dev.rdmacm.ucma.abi;

import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.SockaddrIb;

/**
 * Flyweight over {@code struct rdma_ucm_query_addr_resp}, what QUERY answers for
 * {@link UcmaConstants#RDMA_USER_CM_QUERY_ADDR} (the id's device, port, P_Key and its two addresses as
 * bound and resolved) and for {@link UcmaConstants#RDMA_USER_CM_QUERY_GID} (the same fields, the two
 * addresses then being {@code sockaddr_ib}s that carry the source and destination GIDs). Host byte order
 * except {@code node_guid} (the device's GUID as its 8 network-order bytes) and {@code pkey} (big-endian).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |           node_guid (8 bytes, network order; 0: no device)    |  0
 *  +---------------+---------------+-------------------------------+
 *  |   port_num    |   reserved    |        pkey (big-endian)      |  8
 *  +---------------+---------------+-------------------------------+
 *  |           src_size            |           dst_size            | 12
 *  +-------------------------------+-------------------------------+
 *  |              src_addr (128-byte sockaddr_storage)             | 16
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |              dst_addr (128-byte sockaddr_storage)             | 144
 *  ~                                                               ~
 *  +---------------------------------------------------------------+
 *  |     ibdev_index (5.8+; left as it was by older kernels)       | 272
 *  +---------------------------------------------------------------+
 *  |                           reserved1                           | 276
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class QueryAddrResponse extends UcmaStruct<QueryAddrResponse>
{
    public static final int NODE_GUID_OFFSET = 0;
    public static final int PORT_NUM_OFFSET = 8;
    public static final int RESERVED_OFFSET = 9;
    public static final int PKEY_OFFSET = 10;
    public static final int SRC_SIZE_OFFSET = 12;
    public static final int DST_SIZE_OFFSET = 14;
    public static final int SRC_ADDR_OFFSET = 16;
    public static final int DST_ADDR_OFFSET = SRC_ADDR_OFFSET + SOCKADDR_STORAGE_LENGTH;
    public static final int IBDEV_INDEX_OFFSET = DST_ADDR_OFFSET + SOCKADDR_STORAGE_LENGTH;
    public static final int RESERVED1_OFFSET = IBDEV_INDEX_OFFSET + 4;
    public static final int LENGTH = RESERVED1_OFFSET + 4;
    /** What {@code ibdev_index} holds when the kernel did not write it: librdmacm pre-fills this and so do we. */
    public static final long NO_IBDEV_INDEX = 0xffff_ffffL;

    public QueryAddrResponse()
    {
        super("rdma_ucm_query_addr_resp", LENGTH);
    }

    /** The GUID as a number (its bytes read big-endian, as sysfs prints it); 0 when the id has no device. */
    public long nodeGuid()
    {
        return u64(NODE_GUID_OFFSET);
    }

    public short portNum()
    {
        return u8(PORT_NUM_OFFSET);
    }

    public int pkey()
    {
        return u16(PKEY_OFFSET);
    }

    public int srcSize()
    {
        return hostU16(SRC_SIZE_OFFSET);
    }

    public int dstSize()
    {
        return hostU16(DST_SIZE_OFFSET);
    }

    /** The bound source, or null when none is set. */
    public RdmaSockaddr source()
    {
        return sockaddr(SRC_ADDR_OFFSET, srcSize());
    }

    /** The destination, or null when none is set. */
    public RdmaSockaddr destination()
    {
        return sockaddr(DST_ADDR_OFFSET, dstSize());
    }

    /** For a GID answer: the source GID, the {@code sib_addr} of the source {@code sockaddr_ib}. */
    public Gid sourceGid()
    {
        return gidAt(SRC_ADDR_OFFSET + SockaddrIb.ADDR_OFFSET);
    }

    /** For a GID answer: the destination GID. */
    public Gid destinationGid()
    {
        return gidAt(DST_ADDR_OFFSET + SockaddrIb.ADDR_OFFSET);
    }

    /** The device's index in the kernel (RDMA netlink's), or {@link #NO_IBDEV_INDEX} from a kernel before 5.8. */
    public long ibdevIndex()
    {
        return hostU32(IBDEV_INDEX_OFFSET);
    }

    /** Pre-fills the index before the query, so that an old kernel's silence reads as {@link #NO_IBDEV_INDEX}. */
    public QueryAddrResponse ibdevIndex(final long value)
    {
        putHostU32(IBDEV_INDEX_OFFSET, value);
        return this;
    }
}
