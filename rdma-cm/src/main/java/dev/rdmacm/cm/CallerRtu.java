package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.StateTransitionListener;

import java.util.concurrent.CompletableFuture;

/**
 * The active side's RTU through the kernel's CM, sent on the thread that takes CONNECT_RESPONSE, as
 * librdmacm's {@code rdma_get_cm_event} sends it ({@code ucma_process_conn_resp}: the QP to RTR and RTS,
 * then {@code UCMA_CMD_ACCEPT}), not by the conductor: the RTU must reach the peer before its REP times
 * out, and a conductor behind on other ids' events made ib_cm resend hundreds of REPs per 1,000
 * connections (benchmarks/README.md, issue 32). The ACCEPT is one write on the kernel CM's channel, which
 * serialises it with the conductor's commands; the taker runs the conductor's own code for it
 * ({@link ConnectionPhase#readyToUse}, then ESTABLISHED), holding the id's {@link IdGuard}, so the
 * kernel's next event for the id (a REJ, a timeout) waits for it on the conductor, and the checks and
 * errnos are the conductor's.
 * <p>
 * What stays the conductor's ({@link IdCommand.ReadyToUse}): the userspace CM's RTU, which its port's
 * CM thread sends; a caller on the loop thread; a thread with a command of its own not run yet (the RTU
 * keeps its place behind it); an id whose context no command made; and every call of an {@link RdmaCm}
 * with a {@link StateTransitionListener}, which sees each change on the conductor's thread.
 */
final class CallerRtu
{
    private CallerRtu()
    {
    }

    /**
     * Sends the RTU here when the id's connection is the kernel's, and moves the id to ESTABLISHED.
     *
     * @return false when the conductor must send it (nothing was done).
     * @throws RdmaCmException as the conductor's {@link ConnectionPhase#readyToUse} throws it (EINVAL for an id no
     *                         longer connecting, the kernel's errno for a refused ACCEPT).
     */
    static boolean sent(final RdmaCm cm, final RdmaCmId id) throws RdmaCmException
    {
        if (cm.listener() != StateTransitionListener.NONE || cm.onLoopThread() || !ThreadCommands.ofThisThread().allRan())
        {
            return false;
        }
        final CompletableFuture<Void> reply = new CompletableFuture<>();
        synchronized (id.guard)
        {
            final IdContext c = id.guard.context();
            if (c == null || !(c.connection instanceof KernelConnection))
            {
                return false;
            }
            ConnectionPhase.readyToUse(c, reply);
        }
        // KernelConnection.sendRtu completed the reply (ConnectionPhase.rtuSent) before it returned, or threw
        return true;
    }
}
