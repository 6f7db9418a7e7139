package dev.rdmacm.protocol;

/**
 * The RDMA CM port spaces ({@code enum rdma_port_space} in {@code rdma/rdma_cma.h}): the namespace a
 * port number lives in, and the upper bits of the IB Service ID that the CM builds from it (see
 * {@link ServiceId}).
 */
public enum PortSpace
{
    /** {@code RDMA_PS_IPOIB}: IP-over-IB datagrams; not mapped to a CM Service ID. */
    IPOIB(0x0002),
    /** {@code RDMA_PS_TCP}: reliable connected QPs, the usual {@code rdma_connect} case. */
    TCP(0x0106),
    /** {@code RDMA_PS_UDP}: unreliable datagram QPs resolved with SIDR. */
    UDP(0x0111),
    /** {@code RDMA_PS_IB}: any QP type, used with AF_IB addresses. */
    IB(0x013f);

    private final int code;

    PortSpace(final int code)
    {
        this.code = code;
    }

    public int code()
    {
        return code;
    }

    /** @throws IllegalArgumentException naming the code and the known port spaces. */
    public static PortSpace fromCode(final int code)
    {
        for (final PortSpace space : values())
        {
            if (space.code == code)
            {
                return space;
            }
        }
        throw new IllegalArgumentException(String.format(
            "port space 0x%04x is not one of RDMA_PS_IPOIB 0x0002, RDMA_PS_TCP 0x0106, RDMA_PS_UDP 0x0111, " +
            "RDMA_PS_IB 0x013f", code));
    }

    /** The Service ID the RDMA CM uses for {@code port} in this space: {@code (ps << 16) | port}. */
    public long serviceId(final int port)
    {
        return ServiceId.of(this, port);
    }
}
