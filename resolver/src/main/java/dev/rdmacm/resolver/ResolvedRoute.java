package dev.rdmacm.resolver;

import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.sa.path.PathRecordValue;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The route of an id after ROUTE_RESOLVED: its paths as {@code ibv_path_data} records (72 bytes each,
 * flags in host order then the 64-byte wire path), the first one primary.
 *
 * @param kind     how it was found.
 * @param pathData the records.
 */
public record ResolvedRoute(Kind kind, List<byte[]> pathData)
{
    public enum Kind
    {
        /** An SA PathRecord Get ({@code cma_query_ib_route}). */
        SA_QUERY,
        /** Built locally for RoCE ({@code cma_resolve_iboe_route}). */
        ROCE_SYNTHESIZED,
        /** Given by the application ({@code RDMA_OPTION_IB_PATH}). */
        GIVEN,
        /** Asked of an ACM service first and set as {@code RDMA_OPTION_IB_PATH}, as librdmacm's {@code ucma_set_ib_route}. */
        ACM
    }

    public ResolvedRoute
    {
        for (final byte[] record : pathData)
        {
            if (record.length != IbvPathData.LENGTH)
            {
                throw new IllegalArgumentException("ibv_path_data must be " + IbvPathData.LENGTH + " bytes, got " +
                    record.length);
            }
        }
        pathData = List.copyOf(pathData);
    }

    /** The paths' fields, decoded from the records. */
    public List<PathRecordValue> paths()
    {
        final List<PathRecordValue> paths = new ArrayList<>(pathData.size());
        for (final byte[] record : pathData)
        {
            paths.add(PathRecordValue.decode(Arrays.copyOfRange(record, IbvPathData.PATH_OFFSET, IbvPathData.LENGTH)));
        }
        return paths;
    }

    /** The paths as librdmacm hands them to an application ({@code id->route.path_rec}). */
    public List<PathRec> applicationPaths()
    {
        return pathData.stream().map(PathRec::fromPathData).toList();
    }

    /** The {@code IBV_PATH_FLAG_*} bits of record {@code index}. */
    public long flags(final int index)
    {
        return new IbvPathData().wrap(new UnsafeBuffer(pathData.get(index)), 0,
            IbvPathData.LENGTH).flags();
    }
}
