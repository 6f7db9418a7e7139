package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.StateTransitionListener;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.resolver.engine.RouteResolver;
import dev.rdmacm.resolver.engine.TrafficClassCache;
import dev.rdmacm.verbs.GidType;

import java.util.concurrent.CompletableFuture;

/**
 * A synchronous {@code rdma_resolve_route} of a RoCE id, finished on the caller's thread: on RoCE the
 * route is local synthesis ({@code cma_resolve_iboe_route}), nothing to wait for, so the caller runs the
 * conductor's own code for it ({@link RoutePhase#roceOnCaller}) through the id's {@link IdGuard}
 * ({@link IdGuard#runOnCaller}), as {@link CallerResolution} does for the address. The netdev comes from the conductor's mirror, as the address lookup's links do (asked
 * when the mirror does not have it); its traffic classes are asked on a pooled rtnetlink client in the
 * {@link RdmaCm}'s namespace, afresh (the conductor's cache of them is its own).
 * <p>
 * What stays the conductor's: InfiniBand (the SA), a route that asks ACM first (librdmacm's question,
 * while an ACM service may answer), an id not ADDR_RESOLVED (its errors are the conductor's), a call
 * behind a command of its thread still not run when the call's spin ({@link RdmaCm.Options#spin}) is
 * over, every pooled client lent out, and every call of an {@link RdmaCm} with a
 * {@link StateTransitionListener}.
 */
final class CallerRoute
{
    private CallerRoute()
    {
    }

    /**
     * Finishes the call here if it is a RoCE route with nothing to ask.
     *
     * @return true when the call is over (its errors in {@code accepted}, as from the conductor; the
     *         event posted); false to send the command.
     * @throws RdmaCmException what the conductor's up-front checks would throw.
     */
    static boolean resolve(final RdmaCm cm, final RdmaCmId id, final ConductorProxy proxy, final int timeoutMs,
        final CompletableFuture<Void> accepted, final CompletableFuture<ResolvedRoute> completion) throws RdmaCmException
    {
        final IdView view = id.view();
        final CallerAddressLookup lookup = cm.callerLookup();
        if (lookup == null || view.state() != CmIdState.ADDR_RESOLVED || view.resolution() == null ||
            view.resolution().binding().gidType() == GidType.IB || cm.listener() != StateTransitionListener.NONE ||
            id.isDestroyed())
        {
            return false;
        }
        return IdGuard.runOnCaller(cm, id, IdGuard.WhenQueued.SPIN, lookup, (c, pooled) ->
        {
            final RoutePhase routes = proxy.routes();
            if (id.isDestroyed() || c.state != CmIdState.ADDR_RESOLVED || c.pendingRoute != null ||
                c.resolution.binding().gidType() == GidType.IB || routes.asksAcm(c))
            {
                return false;
            }
            final Rtnetlink client = pooled.borrow();
            if (client == null)
            {
                return false;
            }
            try
            {
                routes.roceOnCaller(c, timeoutMs, accepted, completion,
                    query -> RouteResolver.synthesizeRoce(query, client, new TrafficClassCache(), pooled.mirror()));
                return true;
            }
            finally
            {
                pooled.release(client);
            }
        });
    }
}
