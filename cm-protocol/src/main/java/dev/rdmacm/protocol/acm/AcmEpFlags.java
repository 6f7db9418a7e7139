package dev.rdmacm.protocol.acm;

import dev.rdmacm.protocol.path.IbvPathData;

/**
 * The 32-bit {@code flags} of an address entry. Request entries use {@code ACM_EP_FLAG_*} and
 * {@code ACM_FLAGS_*} from {@code infiniband/acm.h}; PATH entries of replies carry the
 * {@link IbvPathData} flags ({@code IBV_PATH_FLAG_*}), because
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

    public static final int RESOLVED_PATH =
        IbvPathData.FLAG_GMP | IbvPathData.FLAG_PRIMARY | IbvPathData.FLAG_BIDIRECTIONAL;

    private AcmEpFlags()
    {
    }
}
