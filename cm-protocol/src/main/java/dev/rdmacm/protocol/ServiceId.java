package dev.rdmacm.protocol;

/**
 * The 64-bit IB Service ID and the RDMA CM's mapping of IP port spaces onto it
 * ({@code RDMA_IB_IP_*} in {@code rdma/rdma_cma.h}): {@code (ps << 16) | port}, so that TCP port 18515
 * becomes {@code 0x0000000001064853}. Service IDs are plain {@code long}s; these methods take them apart
 * without allocating.
 */
public final class ServiceId
{
    /** {@code RDMA_IB_IP_PS_MASK}: the bits that name the port space. */
    public static final long PS_MASK = 0xffff_ffff_ffff_0000L;
    /** {@code RDMA_IB_IP_PORT_MASK}: the bits that hold the port. */
    public static final long PORT_MASK = 0x0000_0000_0000_ffffL;
    /** {@code RDMA_IB_IP_PS_TCP}. */
    public static final long PS_TCP = 0x0000_0000_0106_0000L;
    /** {@code RDMA_IB_IP_PS_UDP}. */
    public static final long PS_UDP = 0x0000_0000_0111_0000L;
    /** {@code RDMA_IB_PS_IB}. */
    public static final long PS_IB = 0x0000_0000_013f_0000L;
    private static final int PS_SHIFT = 16;

    private ServiceId()
    {
    }

    /**
     * {@code (ps << 16) | port}.
     *
     * @throws IllegalArgumentException when {@code port} is not 0-65535.
     */
    public static long of(final PortSpace space, final int port)
    {
        if (port < 0 || port > 0xffff)
        {
            throw new IllegalArgumentException("port " + port + " is not 0-65535");
        }
        return ((long)space.code() << PS_SHIFT) | port;
    }

    /** The port in the low 16 bits. */
    public static int port(final long serviceId)
    {
        return (int)(serviceId & PORT_MASK);
    }

    /** The port space whose prefix the Service ID carries, or {@code null} when it carries none. */
    public static PortSpace portSpace(final long serviceId)
    {
        final long prefix = serviceId & PS_MASK;
        if (prefix == PS_TCP)
        {
            return PortSpace.TCP;
        }
        if (prefix == PS_UDP)
        {
            return PortSpace.UDP;
        }
        if (prefix == PS_IB)
        {
            return PortSpace.IB;
        }
        return prefix == ((long)PortSpace.IPOIB.code() << PS_SHIFT) ? PortSpace.IPOIB : null;
    }

    /** Whether the Service ID is one the RDMA CM builds from an IP port (TCP or UDP). */
    public static boolean isRdmaIp(final long serviceId)
    {
        final long prefix = serviceId & PS_MASK;
        return prefix == PS_TCP || prefix == PS_UDP;
    }

    /** {@code 0x0000000001064853}: 16 hex digits, as the CM's debugfs and Wireshark print it. */
    public static String format(final long serviceId)
    {
        return String.format("0x%016x", serviceId);
    }

    /**
     * Parses {@code 0x1064853} or a decimal number.
     *
     * @throws IllegalArgumentException naming the text and the rule it breaks.
     */
    public static long parse(final String text)
    {
        return UnsignedText.parse64("Service ID", text);
    }
}
