package dev.rdmacm.cli;

import dev.rdmacm.acm.AcmAddress;
import dev.rdmacm.acm.AcmAddressResolver;
import dev.rdmacm.acm.AcmEndpoint;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.acm.AcmStatus;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.CompletionException;

/**
 * acm-server's address misses answered by this stack's {@code rdma_resolve_addr}: the destination IP
 * resolved from one of the endpoint's own IP addresses (the same family) through netlink routes and
 * neighbours, as the kernel CM resolves it, and the resolution's DGID returned (the IPoIB neighbour's
 * GID, or the RoCE GID of the address). Names, GIDs and LIDs are not IP: ENODATA, as from ibacm
 * without a resolver for them.
 */
final class CmAddressResolver implements AcmAddressResolver
{
    private final RdmaCm cm;
    private final Duration timeout;

    CmAddressResolver(final RdmaCm cm, final Duration timeout)
    {
        this.cm = cm;
        this.timeout = timeout;
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
        final RdmaCmId id;
        try
        {
            id = cm.createId(null);
        }
        catch (final RuntimeException ex)
        {
            completion.onError(AcmStatus.ENOMEM, ex.getMessage());
            return;
        }
        id.resolveAddrAsync(source, target, timeout).whenComplete((resolution, failure) ->
        {
            id.close();
            if (failure != null)
            {
                completion.onError(timedOut(failure) ? AcmStatus.ETIMEDOUT : AcmStatus.ENODATA, failure.getMessage());
            }
            else
            {
                completion.onGid(resolution.dgid());
            }
        });
    }

    /** Whether the CM gave up for want of an answer (the neighbour's or the SA's): ETIMEDOUT for the client. */
    static boolean timedOut(final Throwable failure)
    {
        final Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof RdmaCmException cm && cm.errno() == Errno.ETIMEDOUT;
    }

    /** The endpoint's first IP address of the family asked for. */
    static InetAddress sourceOf(final AcmEndpoint endpoint, final boolean ipv4)
    {
        for (final AcmAddress address : endpoint.addresses())
        {
            final InetAddress ip = address.inetAddress();
            if (ip != null && (ip instanceof Inet4Address) == ipv4)
            {
                return ip;
            }
        }
        return null;
    }
}
