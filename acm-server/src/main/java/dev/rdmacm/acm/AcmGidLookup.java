package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;

/**
 * Where destination GIDs come from on an address-cache miss: the lookup of a destination address's
 * GID (normally through the netlink neighbour table: an IPoIB neighbour's hardware address holds the
 * GID in bytes 4-19). Not an address resolver in rdma_cm's sense, which binds a source too: only the
 * GID. Completes each lookup at most once, from any thread; the service enforces the deadline.
 */
public interface AcmGidLookup extends AutoCloseable
{
    /** The resolver used when none is configured: every lookup ends in ENODATA at once. */
    AcmGidLookup NONE = (endpoint, destination, completion) ->
        completion.onError(dev.rdmacm.protocol.acm.AcmStatus.ENODATA, "no address resolver configured");

    void resolve(AcmEndpoint endpoint, AcmAddress destination, Completion completion);

    @Override
    default void close()
    {
    }

    interface Completion
    {
        void onGid(Gid gid);

        void onError(int acmStatus, String reason);
    }
}
