package dev.rdmacm.acm;

/**
 * What an endpoint knows about the path to one destination (a GID or a LID), and the requests
 * waiting for it: ibacm's {@code acmp_dest} reduced to its route part.
 * <pre>
 *   IDLE --lookup--> QUEUED --SA slot free--> QUERYING --path--> READY --expiry--> IDLE
 *                                               \--error/timeout--> forgotten (waiters get the status)
 * </pre>
 */
final class AcmRoute extends AcmLookup<AcmRoute.State>
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
    byte[] path;

    AcmRoute(final AcmEndpoint endpoint, final AcmAddress destination, final byte[] template)
    {
        super(State.IDLE);
        this.endpoint = endpoint;
        this.destination = destination;
        this.template = template;
    }

    boolean isReady(final long nowNs)
    {
        return isValid(State.READY, nowNs);
    }

    @Override
    String traceName()
    {
        return "route " + endpoint.index() + "->" + destination;
    }

    @Override
    public String toString()
    {
        return traceName() + " " + state();
    }
}
