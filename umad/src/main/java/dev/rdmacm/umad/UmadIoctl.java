package dev.rdmacm.umad;

/**
 * The umad ioctl requests ({@code <rdma/rdma_user_ioctl.h>}), magic {@code RDMA_IOCTL_MAGIC} 0x1b,
 * encoded as {@code _IOC(dir, type, nr, size)} = dir &lt;&lt; 30 | size &lt;&lt; 16 | type &lt;&lt; 8 | nr;
 * checked against the installed header by a gcc-compiled probe.
 */
final class UmadIoctl
{
    private static final int MAGIC = 0x1b;
    private static final int WRITE = 1;
    private static final int READ_WRITE = 3;

    /** {@code _IOWR(0x1b, 0x04, struct ib_user_mad_reg_req2)}. */
    static final long REGISTER_AGENT2 = request(READ_WRITE, 0x04, AgentRegistrationRequest.LENGTH);
    /** {@code _IOW(0x1b, 0x02, __u32)}: the agent id. */
    static final long UNREGISTER_AGENT = request(WRITE, 0x02, Integer.BYTES);
    /** {@code _IO(0x1b, 0x03)}: no argument. */
    static final long ENABLE_PKEY = request(0, 0x03, 0);

    private UmadIoctl()
    {
    }

    private static long request(final int direction, final int number, final int size)
    {
        return ((long)direction << 30) | ((long)size << 16) | (MAGIC << 8) | number;
    }
}
