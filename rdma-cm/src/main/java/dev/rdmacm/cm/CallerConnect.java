package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.StateTransitionListener;

/**
 * {@code rdma_connect} through the kernel's CM on the caller's thread, as librdmacm makes it inside the
 * caller's writes: the kernel id's CREATE_ID, its options and RESOLVE_ADDR are ucma writes that need
 * nothing of the conductor, so the caller runs the conductor's own code for the call
 * ({@link ConnectionPhase#connect}: the checks, the kernel id, CONNECT), holding the id's {@link IdGuard},
 * once every command its thread sent has run ({@link ThreadCommands}; {@code rdma_create_qp}'s hand-over
 * among them). The kernel id is registered before RESOLVE_ADDR ({@link KernelCm#register}); its
 * ADDR_RESOLVED, read by the conductor, waits for the guard. The events, errnos, trace and the kernel
 * differences are the conductor's: the same code makes them, and what follows the kernel's events (QUERY,
 * our path, CONNECT) stays on the conductor, which reads them.
 * <p>
 * What stays the conductor's ({@link IdCommand.Connect}): the userspace CM, and AUTO before it chose
 * (its choice opens the ports' userspace CM, a conductor's work); an id whose context no command or caller
 * made; a call behind a command of its thread still not run when the call's spin
 * ({@link RdmaCm.Options#spin}) is over; a caller on the loop thread; and every call of an {@link RdmaCm}
 * with a {@link StateTransitionListener}, which sees each change on the conductor's thread.
 */
final class CallerConnect
{
    private CallerConnect()
    {
    }

    /**
     * Makes the call here when the kernel's CM runs it.
     *
     * @return false when the conductor must make it (nothing was done).
     * @throws RdmaCmException as the conductor's {@link ConnectionPhase#connect} throws it.
     */
    static boolean connected(final RdmaCm cm, final RdmaCmId id, final ConnectionParameters parameters) throws RdmaCmException
    {
        if (cm.listener() != StateTransitionListener.NONE || cm.onLoopThread() || !cm.managers().kernelChosen() ||
            !ThreadCommands.ofThisThread().awaitAllRan(cm.spinNanos(), cm::wakeUp))
        {
            return false;
        }
        synchronized (id.guard)
        {
            final IdContext c = id.guard.context();
            if (c == null)
            {
                return false;
            }
            ConnectionPhase.connect(c, parameters);
            return true;
        }
    }
}
