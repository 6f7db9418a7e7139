package dev.rdmacm.acm;

/**
 * Where routes come from on a cache miss: normally an SA PathRecord query (sa-client). The service
 * keeps at most {@code sa_depth} queries outstanding per endpoint and enforces
 * {@code timeout * (retries + 1)} itself, so an implementation may retry as it likes but must
 * complete each query at most once, from any thread.
 */
public interface AcmPathQuerier extends AutoCloseable
{
    /** The querier used when no SA is configured: every query ends in ENODATA at once. */
    AcmPathQuerier NONE = (endpoint, template, completion) ->
        completion.onError(dev.rdmacm.protocol.acm.AcmStatus.ENODATA, "no SA backend configured");

    /**
     * Asks for the path that {@code template} describes (a 64-byte {@code ibv_path_record}, network
     * order): every field that is not zero constrains the answer, as in ibacm's {@code acm_path_comp_mask}.
     * The service's own route templates set SGID, SLID, P_Key and the DGID or DLID; a client's QUERY_SA
     * may set any field.
     */
    void query(AcmEndpoint endpoint, byte[] template, Completion completion);

    @Override
    default void close()
    {
    }

    /** Exactly one of the two methods is called, on any thread. */
    interface Completion
    {
        /** {@code path}: the 64-byte path record in network order. */
        void onPath(byte[] path);

        /** {@code acmStatus}: the status the waiting clients get (ENODATA, ETIMEDOUT...). */
        void onError(int acmStatus, String reason);
    }
}
