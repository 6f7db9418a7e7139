package dev.rdmacm.resolver.engine;

import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.ResolutionTrace;

import java.net.InetAddress;

/**
 * The kernel's {@code rdma_resolve_addr} steps against one view of the network: binding a concrete
 * source, one resolution attempt, and the final device binding. {@link AddressResolver} runs them on
 * the IP stack over rtnetlink; {@link HostsAddressResolver} on an ibacm hosts file that stands in for
 * the IPoIB neighbour table of a fabric without an IP layer.
 */
public interface AddressRules extends AutoCloseable
{
    /** {@code rdma_bind_addr} of a concrete address (EADDRNOTAVAIL, ENODEV, EINVAL). */
    AddressResolver.BoundSource bindSource(InetAddress source, ResolutionTrace trace) throws ResolutionFailure;

    /** One pass of {@code addr_resolve}: 0 when resolved, ENODATA while waiting, else the errno. */
    int attempt(AddressQuery p) throws ResolutionFailure;

    /** {@code addr_handler}: the device binding and the GIDs. */
    AddressResolution complete(AddressQuery p) throws ResolutionFailure;

    /** Releases what the rules hold open (sysctl descriptors); on the loop thread, at its end. */
    @Override
    default void close()
    {
    }
}
