package dev.rdmacm.acm.backend;

import dev.rdmacm.acm.AcmAddress;
import dev.rdmacm.acm.AcmGidLookup;
import dev.rdmacm.acm.AcmEndpoint;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.protocol.acm.AcmStatus;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;

/**
 * acm-server's address misses answered by this stack's {@code rdma_resolve_addr}: the destination IP
 * resolved from one of the endpoint's own IP addresses (the same family) through netlink routes and
 * neighbours, as the kernel CM resolves it, and the resolution's DGID returned (the IPoIB neighbour's
 * GID, or the RoCE GID of the address). Names, GIDs and LIDs are not IP: ENODATA, as from ibacm
 * without a resolver for them.
 */
final class CmGidLookup extends CmBackend implements AcmGidLookup
{
    CmGidLookup(final RdmaCm cm, final Duration timeout)
    {
        super(cm, timeout);
    }

    @Override
    public void resolve(final AcmEndpoint endpoint, final AcmAddress destination, final Completion completion)
    {
        final InetAddress target = destination.inetAddress();
        final InetAddress source = target == null ? null : sourceOf(endpoint, target instanceof Inet4Address);
        if (source == null)
        {
            completion.onError(AcmStatus.ENODATA, target == null ? destination + " is not an IP address" :
                endpoint + " has no address of " + destination + "'s family");
            return;
        }
        final RdmaCmId id = probe((reason, status) -> completion.onError(status, reason));
        if (id == null)
        {
            return;
        }
        id.resolveAddrAsync(source, target, timeout).whenComplete((resolution, failure) ->
        {
            id.close();
            if (failure != null)
            {
                completion.onError(status(failure), failure.getMessage());
            }
            else
            {
                completion.onGid(resolution.dgid());
            }
        });
    }
}
