package dev.rdmacm.netlink.rdma;

/**
 * Layout of {@code struct rdma_ls_resolve_header}, the family header of an LS RESOLVE request,
 * padded to {@link #ALIGNED_LENGTH} in the message ({@code NLMSG_ALIGN}).
 * <pre>
 *  +---------------------------------------------------------------+
 *  |        device_name: 64 bytes, NUL-terminated (e.g. mlx5_0)    |  0
 *  +---------------+---------------+-------------------------------+
 *  |   port_num    |   path_use    |     padding (alignment)       | 64
 *  +---------------+---------------+-------------------------------+ 68
 * </pre>
 */
public final class LsResolveHeader
{
    public static final int DEVICE_NAME_OFFSET = 0;
    /** {@code LS_DEVICE_NAME_MAX}. */
    public static final int DEVICE_NAME_LENGTH = 64;
    public static final int PORT_NUM_OFFSET = 64;
    public static final int PATH_USE_OFFSET = 65;
    /** {@code sizeof(struct rdma_ls_resolve_header)}. */
    public static final int LENGTH = 66;
    public static final int ALIGNED_LENGTH = 68;

    private LsResolveHeader()
    {
    }
}
