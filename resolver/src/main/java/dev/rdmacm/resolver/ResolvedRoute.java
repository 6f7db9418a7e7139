package dev.rdmacm.resolver;

import java.util.List;
import java.util.Objects;

/**
 * The route of an id after ROUTE_RESOLVED, immutable: its paths, primary first, each the path record
 * and the {@code ibv_path_data} flags the kernel gives it ({@link RoutePath}). The wire forms (the REQ's
 * path, {@code RDMA_OPTION_IB_PATH}'s records, an ACM answer) are derived from these values where they
 * are needed.
 *
 * @param kind  how it was found.
 * @param paths the paths, primary first; an unmodifiable copy of the list given.
 */
public record ResolvedRoute(Kind kind, List<RoutePath> paths)
{
    /** Where a route came from. */
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

    /** Copies the paths, which must be there. */
    public ResolvedRoute
    {
        Objects.requireNonNull(kind, "kind");
        paths = List.copyOf(paths);
    }

    /**
     * A route of one path.
     *
     * @param kind how it was found.
     * @param path the path.
     */
    public ResolvedRoute(final Kind kind, final RoutePath path)
    {
        this(kind, List.of(path));
    }

    /**
     * The first path, the one a connection uses ({@code route.path_rec[0]}).
     *
     * @return the primary path.
     * @throws IllegalStateException when the route has no path.
     */
    public RoutePath primary()
    {
        if (paths.isEmpty())
        {
            throw new IllegalStateException("the route has no path");
        }
        return paths.getFirst();
    }
}
