package dev.rdmacm.addrinfo;

import java.util.StringJoiner;

/**
 * The {@code ai_flags} bits of {@code struct rdma_addrinfo} ({@code rdma/rdma_cma.h}). Bits that are not
 * named here are carried through and ignored, as librdmacm ignores them.
 */
public final class RaiFlags
{
    public static final int PASSIVE = 0x0000_0001;
    public static final int NUMERICHOST = 0x0000_0002;
    public static final int NOROUTE = 0x0000_0004;
    public static final int FAMILY = 0x0000_0008;
    /** Upstream librdmacm v60+: resolve the service through SA ServiceRecords; absent from 44.0. */
    public static final int SA = 0x0000_0010;
    /** Upstream librdmacm v60+: the DNS path; only meaningful together with {@link #SA} (an error then). */
    public static final int DNS = 0x0000_0020;
    /** librdmacm-internal (cma.h): set by rdma_resolve_route, suppresses the prepended AF_IB entry. */
    public static final int ROUTEONLY = 0x0100_0000;

    private static final int[] BITS = {PASSIVE, NUMERICHOST, NOROUTE, FAMILY, SA, DNS, ROUTEONLY};
    private static final String[] NAMES = {"RAI_PASSIVE", "RAI_NUMERICHOST", "RAI_NOROUTE", "RAI_FAMILY", "RAI_SA", "RAI_DNS",
        "RAI_ROUTEONLY"};

    private RaiFlags()
    {
    }

    /** {@code RAI_PASSIVE|0x40000000}: named bits by name, the unknown rest in hex; empty for 0. */
    public static String describe(final int flags)
    {
        final StringJoiner text = new StringJoiner("|");
        int rest = flags;
        for (int i = 0; i < BITS.length; i++)
        {
            if ((flags & BITS[i]) != 0)
            {
                text.add(NAMES[i]);
                rest &= ~BITS[i];
            }
        }
        if (rest != 0)
        {
            text.add("0x" + Integer.toHexString(rest));
        }
        return text.toString();
    }
}
