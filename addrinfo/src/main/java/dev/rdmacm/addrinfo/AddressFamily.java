package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.SockaddrIb;

/** The socket address families that {@code rdma_getaddrinfo} deals in, with Linux's numbers. */
public final class AddressFamily
{
    public static final int AF_UNSPEC = 0;
    public static final int AF_INET = 2;
    public static final int AF_INET6 = 10;
    /** InfiniBand native addressing ({@code struct sockaddr_ib}), Linux {@code AF_IB}. */
    public static final int AF_IB = SockaddrIb.AF_IB;

    private AddressFamily()
    {
    }

    public static String name(final int family)
    {
        return switch (family)
        {
            case AF_UNSPEC -> "AF_UNSPEC";
            case AF_INET -> "AF_INET";
            case AF_INET6 -> "AF_INET6";
            case AF_IB -> "AF_IB";
            default -> "family " + family;
        };
    }

    /** Parses the CLI spelling {@code inet}, {@code inet6}, {@code ib} or {@code unspec}. */
    public static int parse(final String text)
    {
        return switch (text)
        {
            case "unspec" -> AF_UNSPEC;
            case "inet" -> AF_INET;
            case "inet6" -> AF_INET6;
            case "ib" -> AF_IB;
            default -> throw new IllegalArgumentException("family '" + text + "' is not one of unspec, inet, inet6, ib");
        };
    }
}
