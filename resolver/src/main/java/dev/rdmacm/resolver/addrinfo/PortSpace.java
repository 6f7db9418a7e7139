package dev.rdmacm.resolver.addrinfo;

/**
 * The {@code enum rdma_port_space} values and the IB Service ID they map to ({@code ucma_set_sid}):
 * {@code SID = (ps << 16) | port}, mask {@code 0xFFFFFFFFFFFF0000} when a port space is set plus
 * {@code 0xFFFF} when a port is set.
 * <p>
 * Temporary: replaced by cm-protocol's {@code PortSpace}/{@code ServiceId} once they are on main.
 */
public final class PortSpace
{
    public static final int IPOIB = 0x0002;
    public static final int TCP = 0x0106;
    public static final int UDP = 0x0111;
    public static final int IB = 0x013F;

    static final long PS_MASK = 0xFFFF_FFFF_FFFF_0000L;
    static final long PORT_MASK = 0x0000_0000_0000_FFFFL;

    private PortSpace()
    {
    }

    public static long serviceId(final int portSpace, final int port)
    {
        return ((long)portSpace << 16) + port;
    }

    public static long serviceIdMask(final int portSpace, final int port)
    {
        return (portSpace != 0 ? PS_MASK : 0) | (port != 0 ? PORT_MASK : 0);
    }

    public static String name(final int portSpace)
    {
        return switch (portSpace)
        {
            case 0 -> "unset";
            case IPOIB -> "RDMA_PS_IPOIB";
            case TCP -> "RDMA_PS_TCP";
            case UDP -> "RDMA_PS_UDP";
            case IB -> "RDMA_PS_IB";
            default -> "port space 0x" + Integer.toHexString(portSpace);
        };
    }

    /** Parses the CLI spelling {@code tcp}, {@code udp}, {@code ib} or {@code ipoib}. */
    public static int parse(final String text)
    {
        return switch (text)
        {
            case "tcp" -> TCP;
            case "udp" -> UDP;
            case "ib" -> IB;
            case "ipoib" -> IPOIB;
            default -> throw new IllegalArgumentException("port space '" + text + "' is not one of tcp, udp, ib, ipoib");
        };
    }
}
