package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.StateTransitionListener;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.engine.AddressQuery;
import dev.rdmacm.resolver.engine.ResolutionFailure;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;

/**
 * A synchronous {@code rdma_resolve_addr} that needs no waiting, finished on the caller's thread, as the
 * kernel finishes it inside the caller's write: the caller's lookup ({@link CallerAddressLookup}) found
 * a valid neighbour, so the id's moves (the auto-bind, ADDR_QUERY, ADDR_RESOLVED), its port, its event
 * and the call's outcome need the conductor for nothing. The caller runs the conductor's own code for
 * them ({@link AddressPhase#begin}, {@link AddressPhase#resolved}), holding the id's {@link IdGuard},
 * once every command its thread sent has run ({@link ThreadCommands}); the conductor learns of the id
 * after, not asked ({@link IdConductor#adopt}, not woken), when it has not seen the id before.
 * <p>
 * What stays the conductor's: an id in any other state (its errors are the conductor's), a call
 * behind a command of its thread still not run when the call's spin ({@link RdmaCm.Options#spin}) is
 * over, a concrete source to bind, a neighbour to wait for, a loopback
 * destination, the first resolution of a namespace and any while the conductor's {@code NetlinkMirror}
 * is not whole (the conductor fills it when it starts a resolution; the default hop limit's sysctl is
 * opened there too, in the namespace), and every call of an {@link RdmaCm} with a
 * {@link StateTransitionListener}, which sees each change on the conductor's thread. The events,
 * errnos and trace are the conductor's: the same code makes them, in the same order.
 */
final class CallerResolution
{
    private CallerResolution()
    {
    }

    /**
     * Finishes the call here if it needs no waiting.
     *
     * @return true when the call is over (ADDR_RESOLVED, or ADDR_ERROR for a completion that failed, as on
     *         the conductor: its event is posted and {@code completion} completed); false to go the
     *         conductor's way with {@code early} as attempted.
     * @throws RdmaCmException what the conductor's up-front checks would throw (a port in use).
     */
    static boolean resolve(final RdmaCm cm, final RdmaCmId id, final ConductorProxy proxy,
        final CallerAddressLookup lookup, final AddressQuery early, final InetAddress source,
        final InetAddress destination, final int sourcePort, final int destinationPort,
        final CompletableFuture<Void> accepted, final CompletableFuture<AddressResolution> completion) throws RdmaCmException
    {
        if (early.earlyStatus() != 0 || cm.listener() != StateTransitionListener.NONE || id.isDestroyed() ||
            !lookup.mirrorLive())
        {
            return false;
        }
        return IdGuard.runOnCallerMakingContext(cm, id, IdGuard.WhenQueued.SPIN, early, (c, query) ->
            finish(c, proxy, lookup, query, source, destination, sourcePort, destinationPort, accepted, completion));
    }

    /** Under the id's guard, on its context or a new one ({@link IdGuard#runOnCallerMakingContext}). */
    private static boolean finish(final IdContext c, final ConductorProxy proxy, final CallerAddressLookup lookup,
        final AddressQuery early, final InetAddress source, final InetAddress destination, final int sourcePort,
        final int destinationPort, final CompletableFuture<Void> accepted,
        final CompletableFuture<AddressResolution> completion) throws RdmaCmException
    {
        final IdGuard guard = c.id.guard;
        if (c.id.isDestroyed() || !adopts(c, source, destination, early))
        {
            return false;
        }
        AddressResolution resolution = null;
        ResolutionFailure failure = null;
        try
        {
            resolution = lookup.complete(early);
            if (resolution == null)
            {
                return false;
            }
        }
        catch (final ResolutionFailure ex)
        {
            failure = ex;
        }
        final boolean made = guard.context() == null;
        if (made)
        {
            guard.context(c);
        }
        try
        {
            final PendingResolution p = AddressPhase.begin(c, source, destination, sourcePort, destinationPort,
                early.timeoutMs(), early.startNanos(), early, accepted, completion);
            // what the conductor's process_one_req does with an attempt of status 0, in its order
            c.pending = p;
            early.earlyUsed();
            p.synchronousPhase = false;
            p.endCall(null);
            if (failure != null)
            {
                lookup.transition(p, PendingResolution.State.FAILED);
                AddressPhase.resolutionFailed(c, p, failure.errno(), failure.getMessage());
            }
            else
            {
                lookup.transition(p, PendingResolution.State.RESOLVED);
                AddressPhase.resolved(c, p, resolution);
            }
        }
        finally
        {
            if (made)
            {
                // the conductor learns of the id at its next duty cycle, not woken (it takes the guard for it)
                proxy.adopt(c.id);
            }
        }
        return true;
    }

    /** Whether the conductor, finding the id as it is, would adopt the caller's attempt and bind nothing concrete. */
    private static boolean adopts(final IdContext c, final InetAddress source, final InetAddress destination,
        final AddressQuery early)
    {
        if (!c.multicasts.isEmpty() || c.pending != null)
        {
            return false;
        }
        return switch (c.state)
        {
            case IDLE -> (source == null || source.isAnyLocalAddress() && sameFamily(source, destination)) &&
                early.asks(null, scopeOf(destination), destination, early.timeoutMs());
            case ADDR_BOUND -> c.ibSource == null && c.boundSource != null && c.boundSource.isAnyLocalAddress() &&
                sameFamily(c.boundSource, destination) && early.asks(null, c.boundIfindex, destination, early.timeoutMs());
            default -> false;
        };
    }

    private static int scopeOf(final InetAddress destination)
    {
        return destination instanceof Inet6Address v6 && v6.isLinkLocalAddress() ? v6.getScopeId() : 0;
    }

    private static boolean sameFamily(final InetAddress a, final InetAddress b)
    {
        return (a instanceof Inet4Address) == (b instanceof Inet4Address);
    }
}
