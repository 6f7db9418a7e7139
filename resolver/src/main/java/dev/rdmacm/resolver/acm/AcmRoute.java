package dev.rdmacm.resolver.acm;

import java.util.ArrayDeque;

/**
 * What an endpoint knows about the path to one destination (a GID or a LID), and the requests
 * waiting for it: ibacm's {@code acmp_dest} reduced to its route part. A state machine in the style
 * of Aeron's Election: every change goes through {@link #transition}, which the service traces.
 * <pre>
 *   IDLE --lookup--> QUEUED --SA slot free--> QUERYING --path--> READY --expiry--> IDLE
 *                                               |  \--error/timeout--> IDLE (waiters get the status)
 * </pre>
 */
final class AcmRoute
{
    enum State
    {
        IDLE,
        QUEUED,
        QUERYING,
        READY
    }

    final AcmEndpoint endpoint;
    final AcmAddress destination;
    /** The 64-byte path record template sent to the SA: SGID/DGID or SLID/DLID, P_Key... */
    final byte[] template;
    final ArrayDeque<AcmPendingRequest> waiters = new ArrayDeque<>();
    private State state = State.IDLE;
    byte[] path;
    long expiresAtNs;
    long deadlineNs;
    /** Bumped on every query, so that a completion arriving after a timeout is recognised and dropped. */
    long generation;

    AcmRoute(final AcmEndpoint endpoint, final AcmAddress destination, final byte[] template)
    {
        this.endpoint = endpoint;
        this.destination = destination;
        this.template = template;
    }

    State state()
    {
        return state;
    }

    /** The one place a route changes state; returns the previous one for the trace. */
    State transition(final State next)
    {
        final State previous = state;
        state = next;
        return previous;
    }

    boolean isReady(final long nowNs)
    {
        return state == State.READY && nowNs < expiresAtNs;
    }

    @Override
    public String toString()
    {
        return "route " + endpoint.index() + "->" + destination + " " + state;
    }
}
