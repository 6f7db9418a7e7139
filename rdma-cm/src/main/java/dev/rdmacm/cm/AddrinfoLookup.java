package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.addrinfo.RdmaGetAddrInfo;
import dev.rdmacm.libc.Errno;

import java.util.List;

/**
 * The work of rdma-core HEAD's {@code __rdma_resolve_addrinfo}, on the caller's thread as there: the
 * hints choose DNS or the SA, DNS is {@code rdma_getaddrinfo} itself, and a failure becomes the call's
 * errno the way {@code cma.c} sets it. That way is {@code ERR(ret)} on whatever the branch returned,
 * which gives three kinds of errno, kept here errno for errno:
 * <ul>
 *   <li>a plain errno where the branch returns one, not -1: ENOTSUP (95) for RAI_SA with RAI_DNS or
 *       with a node;</li>
 *   <li>the negative {@code EAI_*} code that {@code rdma_getaddrinfo} returned, e.g. -2 (EAI_NONAME);</li>
 *   <li>-1 where the branch already failed with {@code ERR(e)} (-1 and errno e): {@code ERR(-1)} then
 *       overwrites e with -1. That is every errno failure of {@code rdma_getaddrinfo} (EINVAL for
 *       all-null inputs) and RAI_SA without a service (EINVAL in {@code resolve_ai_sa}).</li>
 * </ul>
 * No librdmacm here: {@code rdma_getaddrinfo} is the addrinfo module's.
 */
final class AddrinfoLookup
{
    static final String CALL = "rdma_resolve_addrinfo";
    /** librdmacm's ENOTSUP, which Linux defines as EOPNOTSUPP. */
    static final int ENOTSUP = Errno.EOPNOTSUPP;

    /** No ACM, no AF_IB: what {@code rdma_getaddrinfo} does on a host without ibacm; ids exist, so devices do. */
    private static final RdmaGetAddrInfo GETADDRINFO = RdmaGetAddrInfo.withDefaults();

    private AddrinfoLookup()
    {
    }

    /** The entries {@code rdma_query_addrinfo} will hand over, or the call's failure. */
    static List<RdmaAddrInfo> resolve(final String node, final String service, final RdmaAddrInfoHints hints)
        throws RdmaCmException
    {
        if (hints != null && (hints.flags() & RaiFlags.SA) != 0)
        {
            throw serviceResolution(node, service, hints);
        }
        return switch (GETADDRINFO.getaddrinfo(node, service, hints))
        {
            case AddrInfoResult.Success success -> success.entries();
            case AddrInfoResult.EaiError eai -> throw new RdmaCmException(CALL, eai.code(), eai.name(), eai.message(),
                "the EAI code rdma_getaddrinfo returned, as librdmacm's ERR(ret) sets errno to it");
            case AddrInfoResult.ErrnoError failed -> throw new RdmaCmException(CALL, -1, "ERR(-1)", "not an errno",
                "rdma_getaddrinfo failed with " + failed.name() + " (" + failed.message() +
                    "), which librdmacm's ERR(-1) overwrites with -1");
        };
    }

    /**
     * The RAI_SA branch: the refusals librdmacm makes before asking the kernel, then the kernel's
     * {@code RESOLVE_IB_SERVICE} on the id's bound port, which this resolver does not do yet.
     */
    private static RdmaCmException serviceResolution(final String node, final String service, final RdmaAddrInfoHints hints)
    {
        if ((hints.flags() & RaiFlags.DNS) != 0)
        {
            return new RdmaCmException(CALL, ENOTSUP, "RAI_SA and RAI_DNS exclude each other", true);
        }
        if (node != null)
        {
            return new RdmaCmException(CALL, ENOTSUP, "RAI_SA takes no node, only a service (node \"" + node + "\")", true);
        }
        if (service == null)
        {
            return new RdmaCmException(CALL, -1, "ERR(-1)", "not an errno",
                "RAI_SA needs a service: resolve_ai_sa's EINVAL, which librdmacm's ERR(-1) overwrites with -1");
        }
        return new RdmaCmException(CALL, Errno.EOPNOTSUPP, "RAI_SA (the kernel's RESOLVE_IB_SERVICE on the id's port) is " +
            "not implemented by this resolver; rdma_getaddrinfo with RAI_SA resolves services without an id", true);
    }
}
