package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.acm.AcmStatus;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.path.PathQuery;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.function.IntFunction;

/**
 * Route misses answered by the SA through sa-client: the template becomes the PathRecord Get the
 * kernel sends (SGID/DGID or SLID/DLID, P_Key, reversible, one path) on the SA client of the
 * endpoint's port, and the first record comes back as an {@code ibv_path_record} (the SA record with
 * its RawTraffic bits, reserved in {@code ibv_path_record}, cleared).
 */
public final class SaPathQuerier implements AcmPathQuerier
{
    private final IntFunction<SaClient> clientOfEndpoint;
    private final Duration timeout;

    /**
     * @param clientOfEndpoint the SA client bound to the port of the endpoint with that 1-based index.
     * @param timeout          per query, retries included (the service enforces its own deadline too).
     */
    public SaPathQuerier(final IntFunction<SaClient> clientOfEndpoint, final Duration timeout)
    {
        this.clientOfEndpoint = clientOfEndpoint;
        this.timeout = timeout;
    }

    @Override
    public void query(final AcmEndpoint endpoint, final byte[] template, final Completion completion)
    {
        final SaClient client = clientOfEndpoint.apply(endpoint.index());
        if (client == null)
        {
            completion.onError(AcmStatus.ENODATA, "no SA client for " + endpoint);
            return;
        }
        final IbvPathRecord wanted = PathRecordTemplate.view(template);
        final Gid dgid = wanted.dgid();
        final Gid sgid = wanted.sgid();
        final int pkey = wanted.pKey();
        final PathQuery.Builder builder = PathQuery.builder().dgid(dgid.isZero() ? null : dgid)
            .sgid(sgid.isZero() ? null : sgid).dlid(wanted.dlid()).slid(wanted.slid()).numbPath(1)
            .reversible(wanted.reversible());
        final PathQuery query = (pkey == 0 ? builder : builder.pKey(pkey)).build();
        client.query(query.toRequest(), timeout).whenComplete((response, failure) ->
        {
            if (failure != null)
            {
                completion.onError(status(failure), failure.getMessage());
            }
            else if (response.records().isEmpty())
            {
                completion.onError(AcmStatus.ENODATA, "the SA returned no PathRecord");
            }
            else
            {
                final byte[] path = response.records().getFirst().clone();
                path[IbvPathRecord.FLOW_LABEL_HOP_LIMIT_OFFSET] &= 0x0f;
                completion.onPath(path);
            }
        });
    }

    /** The ACM status a client sees for an SA failure (libacm turns it into the errno ib_acme prints). */
    static int status(final Throwable failure)
    {
        final Throwable cause = failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause() : failure;
        if (cause instanceof SaQueryException sa)
        {
            return switch (sa.error())
            {
                case NO_RECORDS -> AcmStatus.ENODATA;
                case TIMED_OUT -> AcmStatus.ETIMEDOUT;
                case NO_RESOURCES -> AcmStatus.ENOMEM;
                case CLOSED, TRANSPORT_FAILED -> AcmStatus.ENOTCONN;
                default -> AcmStatus.EINVAL;
            };
        }
        return AcmStatus.EINVAL;
    }
}
