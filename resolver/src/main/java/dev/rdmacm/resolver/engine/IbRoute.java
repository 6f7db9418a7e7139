package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.resolver.RoutePath;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaError;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.SaResponse;
import dev.rdmacm.sa.path.PathQuery;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code cma_resolve_ib_route}: sends the {@link IbRouteQuery} to the SA and turns the answer into
 * the route, or the failure into the errno the kernel puts in the ROUTE_ERROR event.
 */
final class IbRoute
{
    private IbRoute()
    {
    }

    /**
     * Queries the path. The kernel's retry rule (10 tries of {@code timeout/10}) is the SA client's
     * {@code RetryPolicy.KERNEL}; the future fails with a {@link RouteException}.
     */
    public static CompletableFuture<ResolvedRoute> resolve(
        final SaClient sa, final PathQuery query, final Duration timeout)
    {
        final CompletableFuture<ResolvedRoute> route = new CompletableFuture<>();
        sa.query(query.toRequest(), timeout).whenComplete((response, failure) -> complete(route, query, response, failure));
        return route;
    }

    /** Completes {@code route} from the SA client's answer to {@code query}, whatever reading it throws. */
    static void complete(final CompletableFuture<ResolvedRoute> route, final PathQuery query,
        final SaResponse response, final Throwable failure)
    {
        try
        {
            answer(route, query, response, failure);
        }
        catch (final Throwable unexpected)
        {
            // whenComplete swallows what its action throws, and the conductor waits on this future with no
            // deadline of its own: the id would stay in ROUTE_QUERY for good (seen with a class that failed
            // to load while another build rewrote target/classes)
            route.completeExceptionally(new RouteException(Errno.EIO, "PathRecord Get " + query +
                ": the answer could not be read: " + unexpected));
        }
    }

    private static void answer(final CompletableFuture<ResolvedRoute> route, final PathQuery query,
        final SaResponse response, final Throwable failure)
    {
        if (failure != null)
        {
            final Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
            route.completeExceptionally(new RouteException(errno(cause), "PathRecord Get " + query + ": " +
                cause.getMessage()));
        }
        else if (response.records().isEmpty())
        {
            // A Get answered with status 0 and no record: the kernel's callback gets no path (EINVAL).
            route.completeExceptionally(new RouteException(Errno.EINVAL, "PathRecord Get " + query +
                ": the SA answered without a record"));
        }
        else
        {
            route.complete(new ResolvedRoute(ResolvedRoute.Kind.SA_QUERY,
                RoutePath.fromSaRecord(response.records().get(0))));
        }
    }

    /**
     * The kernel's status for a failed query ({@code ib_sa}'s {@code recv_handler} and
     * {@code send_handler}, then {@code cma_query_handler}): any MAD status from the SA is -EINVAL, no
     * answer after the retries -ETIMEDOUT, a cancelled query -EINTR, a send error -EIO; a local
     * allocation failure -ENOMEM.
     */
    public static int errno(final Throwable failure)
    {
        if (!(failure instanceof SaQueryException sa))
        {
            return Errno.EIO;
        }
        if (sa.madStatus() > 0)
        {
            return Errno.EINVAL;
        }
        final SaError error = sa.error();
        return switch (error)
        {
            case TIMED_OUT -> Errno.ETIMEDOUT;
            case CLOSED -> Errno.EINTR;
            case NO_RESOURCES -> Errno.ENOMEM;
            case TRANSPORT_FAILED, RMPP_ABORTED -> Errno.EIO;
            default -> Errno.EINVAL;
        };
    }
}
