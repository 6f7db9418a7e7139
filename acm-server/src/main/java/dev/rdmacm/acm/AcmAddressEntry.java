package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;

/**
 * The address cache's entry for one destination address (IP, IPv6 or name): its GID once known, and
 * the requests waiting while the address resolver looks it up.
 * <pre>
 *   (absent) --miss--> QUERYING --gid--> RESOLVED --expiry--> (absent)
 *                         \--error/timeout--> (absent, waiters get the status)
 * </pre>
 */
final class AcmAddressEntry extends AcmLookup<AcmAddressEntry.State>
{
    enum State
    {
        QUERYING,
        RESOLVED
    }

    final AcmAddress address;
    Gid gid;
    /** The endpoint whose address-query count this entry holds while QUERYING. */
    AcmEndpoint queriedBy;

    AcmAddressEntry(final AcmAddress address, final State initial)
    {
        super(initial);
        this.address = address;
    }

    @Override
    String traceName()
    {
        return "address " + address;
    }

    boolean isResolved(final long nowNs)
    {
        return isValid(State.RESOLVED, nowNs);
    }
}
