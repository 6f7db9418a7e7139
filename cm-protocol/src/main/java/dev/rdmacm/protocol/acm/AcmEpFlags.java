package dev.rdmacm.protocol.acm;

/**
 * The 32-bit {@code flags} of an address entry. Request entries use {@code ACM_EP_FLAG_*} and
 * {@code ACM_FLAGS_*} from {@code infiniband/acm.h}; PATH entries of replies carry the
 * {@code IBV_PATH_FLAG_*} bits of {@code struct ibv_path_data} ({@code infiniband/sa.h}), because
 * librdmacm hands such an entry to the application as an {@code ibv_path_data} unchanged.
 */
public final class AcmEpFlags
{
    public static final int SOURCE = 1;
    public static final int DEST = 1 << 1;
    /** Answer now from the cache or with ENODATA; any lookup it starts continues in the background. */
    public static final int NODELAY = 1 << 30;
    /** On a PATH entry: ask the SA for this path instead of resolving it (ib_acme -v). */
    public static final int QUERY_SA = 1 << 31;

    public static final int PATH_GMP = 1;
    public static final int PATH_PRIMARY = 1 << 1;
    public static final int PATH_ALTERNATE = 1 << 2;
    public static final int PATH_OUTBOUND = 1 << 3;
    public static final int PATH_INBOUND = 1 << 4;
    public static final int PATH_INBOUND_REVERSE = 1 << 5;
    public static final int PATH_BIDIRECTIONAL = PATH_OUTBOUND | PATH_INBOUND_REVERSE;
    /** What ibacm's acmp provider puts on the path it resolved: GMP|PRIMARY|BIDIRECTIONAL = 0x2b. */
    public static final int RESOLVED_PATH = PATH_GMP | PATH_PRIMARY | PATH_BIDIRECTIONAL;

    private AcmEpFlags()
    {
    }
}
