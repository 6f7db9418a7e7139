package dev.rdmacm.resolver.acm;

import dev.rdmacm.protocol.Gid;

import java.util.ArrayDeque;

/**
 * The address cache's entry for one destination address (IP, IPv6 or name): its GID once known, and
 * the requests waiting while the address resolver looks it up.
 * <pre>
 *   (absent) --miss--> QUERYING --gid--> RESOLVED --expiry--> (absent)
 *                         \--error/timeout--> (absent, waiters get the status)
 * </pre>
 */
final class AcmAddressEntry
{
    enum State
    {
        QUERYING,
        RESOLVED
    }

    final AcmAddress address;
    final ArrayDeque<AcmPendingRequest> waiters = new ArrayDeque<>();
    private State state;
    Gid gid;
    long expiresAtNs;
    long deadlineNs;
    long generation;

    AcmAddressEntry(final AcmAddress address, final State initial)
    {
        this.address = address;
        this.state = initial;
    }

    State state()
    {
        return state;
    }

    State transition(final State next)
    {
        final State previous = state;
        state = next;
        return previous;
    }

    boolean isResolved(final long nowNs)
    {
        return state == State.RESOLVED && nowNs < expiresAtNs;
    }
}
