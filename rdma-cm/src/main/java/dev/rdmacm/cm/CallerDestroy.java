package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.StateTransitionListener;

/**
 * {@code rdma_destroy_id} of an id that needs nothing of the conductor, finished on the caller's thread,
 * as the kernel finishes it inside the caller's write: no connection, no listen, no group, no
 * resolution or route in flight, so the id's part is its move to DESTROYING and its port given back.
 * The caller does them under the id's {@link IdGuard}, once every command its thread sent has run
 * ({@link ThreadCommands}), with the conductor's own code; the conductor drops the id from its map
 * after, not asked ({@link IdConductor#forget}, not woken). A synchronous {@code resolveAddr} that
 * follows on the same thread then finds no destroy of its thread still queued, and runs on its own
 * thread too ({@link CallerResolution}).
 * <p>
 * What stays the conductor's: an id in any other state or with any of the above, a caller on the loop
 * thread, a thread with a command of its own not run yet (the destroy keeps its place behind it), and
 * every call of an {@link RdmaCm} with a {@link StateTransitionListener}, which sees each change on
 * the conductor's thread.
 */
final class CallerDestroy
{
    private CallerDestroy()
    {
    }

    /** Destroys the id's state here if it needs no conductor, else sends the destroy to the conductor. */
    static void destroy(final RdmaCm cm, final RdmaCmId id, final ConductorProxy proxy)
    {
        if (!destroyedHere(cm, id, proxy))
        {
            proxy.destroy(id);
        }
    }

    private static boolean destroyedHere(final RdmaCm cm, final RdmaCmId id, final ConductorProxy proxy)
    {
        return cm.listener() == StateTransitionListener.NONE &&
            IdGuard.runOnCallerMakingContext(cm, id, IdGuard.WhenQueued.GIVE_UP, proxy, CallerDestroy::destroyHere);
    }

    /** Under the id's guard: {@link IdConductor#destroy}'s steps for an id that needs no conductor, in its order. */
    private static boolean destroyHere(final IdContext c, final ConductorProxy proxy)
    {
        if (c.id.guard.context() == null)
        {
            // no command and no caller has made its context: one in DESTROYING answers any call still to come
            c.id.guard.context(c);
            c.transition(CmIdState.DESTROYING, "destroy");
            return true;
        }
        if (!needsNoConductor(c))
        {
            return false;
        }
        c.transition(CmIdState.DESTROYING, "destroy");
        c.releasePort();
        // the conductor drops it at its next duty cycle: it takes no guard for that, so asking here orders nothing
        proxy.forget(c.id);
        return true;
    }

    private static boolean needsNoConductor(final IdContext c)
    {
        return switch (c.state)
        {
            // a kernel id its groups hung on (KernelMemberships), left or not, is the conductor's to destroy
            case IDLE, ADDR_BOUND, ADDR_RESOLVED, ROUTE_RESOLVED -> c.connection == null && c.portListens.isEmpty() &&
                c.multicasts.isEmpty() && c.kernelGroups == null && c.pending == null && c.pendingRoute == null;
            default -> false;
        };
    }
}
