package dev.rdmacm.ucma.abi;

import dev.rdmacm.protocol.path.IbvPathData;

/**
 * Flyweight over {@code struct rdma_ucm_query_path_resp}, what QUERY answers for
 * {@link UcmaConstants#RDMA_USER_CM_QUERY_PATH}: the id's paths, each an {@code ib_path_rec_data}
 * (= librdmacm's {@code ibv_path_data}: host-order flags, then the 64-byte big-endian wire PathRecord),
 * as many as the response's room holds. The header is host order.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                  num_paths (the id's paths)                   |  0
 *  +---------------------------------------------------------------+
 *  |                           reserved                            |  4
 *  +---------------------------------------------------------------+
 *  |          path_data[0] (72 bytes: flags, reserved, record)     |  8
 *  ~                       path_data[1] ...                        ~
 *  +---------------------------------------------------------------+
 * </pre>
 * {@code num_paths} is how many paths the id has (primary and alternate: at most 2); the kernel writes as
 * many of them as the header's {@code out} leaves room for, so the room is sized for more (librdmacm: 6).
 */
public final class QueryPathResponse extends UcmaStruct<QueryPathResponse>
{
    public static final int NUM_PATHS_OFFSET = 0;
    public static final int RESERVED_OFFSET = 4;
    public static final int PATH_DATA_OFFSET = 8;
    /** The fixed part: {@code sizeof(struct rdma_ucm_query_path_resp)}. */
    public static final int LENGTH = PATH_DATA_OFFSET;

    public QueryPathResponse()
    {
        super("rdma_ucm_query_path_resp", LENGTH);
    }

    /** The room for {@code paths} paths. */
    public static int lengthFor(final int paths)
    {
        return PATH_DATA_OFFSET + paths * IbvPathData.LENGTH;
    }

    public long numPaths()
    {
        return hostU32(NUM_PATHS_OFFSET);
    }

    /**
     * Wraps {@code path} over path {@code index}.
     *
     * @throws IndexOutOfBoundsException naming the index when it is not below {@link #numPaths()}.
     */
    public IbvPathData path(final int index, final IbvPathData path)
    {
        if (index < 0 || index >= numPaths())
        {
            throw new IndexOutOfBoundsException("rdma_ucm_query_path_resp: path " + index + " of " + numPaths());
        }
        final int at = offset + PATH_DATA_OFFSET + index * IbvPathData.LENGTH;
        return path.wrap(buffer, at, IbvPathData.LENGTH);
    }
}
