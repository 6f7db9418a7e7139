package dev.rdmacm.sa.path;

import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaResponse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * PathRecord queries over an {@link SaClient}: cached, coalesced and bounded by sa_depth like every
 * query with a cache key.
 */
public final class PathRecords
{
    private PathRecords()
    {
    }

    /** The paths for {@code query}; completes within {@code timeout}. */
    public static CompletableFuture<List<PathRecordValue>> query(
        final SaClient client, final PathQuery query, final Duration timeout)
    {
        return client.query(query.toRequest(), timeout).thenApply(PathRecords::decode);
    }

    /** Decodes every record of a PathRecord response. */
    public static List<PathRecordValue> decode(final SaResponse response)
    {
        final List<PathRecordValue> paths = new ArrayList<>(response.records().size());
        for (final byte[] record : response.records())
        {
            paths.add(PathRecordValue.decode(record));
        }
        return List.copyOf(paths);
    }
}
