package dev.rdmacm.acm;

import dev.rdmacm.protocol.acm.AcmStatus;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.protocol.sa.PathRecordComponentMask;
import dev.rdmacm.protocol.sa.PathRecordLayout;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.sa.RecordCheck;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.SaRequest;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.function.IntFunction;

/**
 * Route misses and QUERY_SA answered by the SA through sa-client, as ibacm's acmp sends them: the
 * template's bytes are the PathRecord Get's record and {@link AcmPathComponentMask} its component mask
 * (every non-zero field), on the SA client of the endpoint's port; the first record comes back as an
 * {@code ibv_path_record} (the SA record with its RawTraffic bits, reserved in {@code ibv_path_record},
 * cleared).
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
        final long mask = AcmPathComponentMask.of(new UnsafeBuffer(template), 0);
        final SaRequest request = SaRequest.get(SaAttribute.PATH_RECORD)
            .description("PathRecord Get (ibacm template, mask 0x" + Long.toHexString(mask) + ") for " + endpoint)
            .componentMask(mask).payload(template).recordLength(PathRecord.LENGTH).check(matching(template, mask)).build();
        client.query(request, timeout).whenComplete((response, failure) ->
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

    /**
     * A record is the answer only if it has the GIDs, LIDs and P_Key the template fixed, so that a
     * stray or damaged record is dropped instead of returned to the client.
     */
    private static RecordCheck matching(final byte[] template, final long mask)
    {
        final UnsafeBuffer wanted = new UnsafeBuffer(template);
        return (buffer, offset, length) -> length >= PathRecord.LENGTH &&
            same(wanted, buffer, offset, mask, PathRecordComponentMask.DGID, PathRecordLayout.DGID_OFFSET, 16) &&
            same(wanted, buffer, offset, mask, PathRecordComponentMask.SGID, PathRecordLayout.SGID_OFFSET, 16) &&
            same(wanted, buffer, offset, mask, PathRecordComponentMask.DLID, PathRecordLayout.DLID_OFFSET, 2) &&
            same(wanted, buffer, offset, mask, PathRecordComponentMask.SLID, PathRecordLayout.SLID_OFFSET, 2) &&
            same(wanted, buffer, offset, mask, PathRecordComponentMask.P_KEY, PathRecordLayout.P_KEY_OFFSET, 2);
    }

    private static boolean same(
        final DirectBuffer wanted, final DirectBuffer record, final int offset, final long mask, final long bit,
        final int fieldOffset, final int length)
    {
        if ((mask & bit) == 0)
        {
            return true;
        }
        for (int i = 0; i < length; i++)
        {
            if (wanted.getByte(fieldOffset + i) != record.getByte(offset + fieldOffset + i))
            {
                return false;
            }
        }
        return true;
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
