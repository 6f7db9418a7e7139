package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.StateTransitionListener;

import java.util.concurrent.CompletableFuture;

/**
 * The calls through the kernel's CM that are ucma writes and need nothing of the conductor, made on the
 * caller's thread, as librdmacm makes them inside the caller's writes: {@code rdma_connect} (the kernel
 * id's CREATE_ID, its options and RESOLVE_ADDR), the active side's RTU (ACCEPT without parameters, on the
 * thread that takes CONNECT_RESPONSE, as {@code rdma_get_cm_event}'s {@code ucma_process_conn_resp}) and
 * {@code rdma_disconnect} (DISCONNECT). The caller runs the conductor's own code for each
 * ({@link ConnectionPhase#connect}, {@link ConnectionPhase#readyToUse}, {@link ConnectionPhase#disconnect}),
 * holding the id's {@link IdGuard}, once every command its thread sent has run ({@link ThreadCommands};
 * {@code rdma_create_qp}'s hand-over among them), so the checks, errnos, transitions, trace, events and kernel
 * differences are the conductor's. What follows the kernel's events (QUERY, our path, CONNECT) stays on the
 * conductor, which reads them; its work on an event for the id waits for the guard. A kernel id made here is
 * registered before RESOLVE_ADDR ({@link KernelCm#register}), as the conductor may read its event at once.
 * <p>
 * Why: the RTU must reach the peer before its REP times out, and queued behind the conductor's other work it
 * came late (ib_cm resent hundreds of REPs per 1,000 connections); and each {@code rdma_connect} waited in the
 * conductor's queue (benchmarks/README.md, issue 32; docs/decisions.md).
 * <p>
 * What stays the conductor's: the userspace CM's calls (its port's CM thread sends the MADs); AUTO's
 * {@code rdma_connect} before it chose (the choice opens the ports' userspace CM); an id whose context no
 * command or caller made; a call behind a command of its thread still not run when the call's spin
 * ({@link RdmaCm.Options#spin}) is over; a caller on the loop thread; and every call of an {@link RdmaCm} with a
 * {@link StateTransitionListener}, which sees each change on the conductor's thread.
 */
final class CallerKernelCm
{
    private CallerKernelCm()
    {
    }

    /** {@code rdma_connect}'s call: here ({@link #connected}), else the conductor's command, waited for. */
    static void connect(final RdmaCm cm, final RdmaCmId id, final ConductorProxy proxy, final ConnectionParameters parameters)
        throws RdmaCmException
    {
        if (!connected(cm, id, parameters))
        {
            ConductorReply.await(proxy.connect(id, parameters), cm.spinNanos());
        }
    }

    /** The RTU of a CONNECT_RESPONSE taken ({@link RdmaCmId#taken}): here ({@link #rtuSent}), else the conductor's command. */
    static void readyToUse(final RdmaCm cm, final RdmaCmId id, final ConductorProxy proxy) throws RdmaCmException
    {
        if (!rtuSent(cm, id))
        {
            ConductorReply.await(proxy.readyToUse(id), cm.spinNanos());
        }
    }

    /** {@code rdma_disconnect}'s call after the QP's move: here ({@link #disconnected}), else the conductor's command. */
    static void disconnect(final RdmaCm cm, final RdmaCmId id, final ConductorProxy proxy) throws RdmaCmException
    {
        if (!disconnected(cm, id))
        {
            ConductorReply.await(proxy.disconnect(id), cm.spinNanos());
        }
    }

    /**
     * {@code rdma_connect} here when the kernel's CM runs the connections (KERNEL, or AUTO once it chose).
     *
     * @return false when the conductor must make the call (nothing was done).
     * @throws RdmaCmException as the conductor's {@link ConnectionPhase#connect} throws it.
     */
    static boolean connected(final RdmaCm cm, final RdmaCmId id, final ConnectionParameters parameters) throws RdmaCmException
    {
        return mayCallHere(cm) &&
            IdGuard.runOnCaller(cm, id, IdGuard.WhenQueued.SPIN, parameters, CallerKernelCm::connectIfKernelChosen);
    }

    private static boolean connectIfKernelChosen(final IdContext c, final ConnectionParameters parameters) throws RdmaCmException
    {
        // AUTO chooses on the conductor: asked once the thread's commands ran, as before the guard
        if (!c.cm.managers().kernelChosen())
        {
            return false;
        }
        ConnectionPhase.connect(c, parameters);
        return true;
    }

    /**
     * The RTU here when the id's connection is the kernel's, and the id moved to ESTABLISHED.
     *
     * @return false when the conductor must send it (nothing was done).
     * @throws RdmaCmException as the conductor's {@link ConnectionPhase#readyToUse} throws it (EINVAL for an id no
     *                         longer connecting, the kernel's errno for a refused ACCEPT).
     */
    static boolean rtuSent(final RdmaCm cm, final RdmaCmId id) throws RdmaCmException
    {
        // KernelConnection.sendRtu completes it (ConnectionPhase.rtuSent) before it returns, or throws
        return onKernelConnection(cm, id, c -> ConnectionPhase.readyToUse(c, new CompletableFuture<>()));
    }

    /**
     * {@code rdma_disconnect} here when the id's connection is the kernel's (the QP already moved to ERR).
     *
     * @return false when the conductor must make the call (nothing was done).
     * @throws RdmaCmException as the conductor's {@link ConnectionPhase#disconnect} throws it.
     */
    static boolean disconnected(final RdmaCm cm, final RdmaCmId id) throws RdmaCmException
    {
        return onKernelConnection(cm, id, ConnectionPhase::disconnect);
    }

    /** Runs {@code call} under the id's guard when this thread may and the id's connection is the kernel's. */
    private static boolean onKernelConnection(final RdmaCm cm, final RdmaCmId id, final KernelCall call) throws RdmaCmException
    {
        return mayCallHere(cm) &&
            IdGuard.runOnCaller(cm, id, IdGuard.WhenQueued.SPIN, call, CallerKernelCm::runIfKernelConnection);
    }

    private static boolean runIfKernelConnection(final IdContext c, final KernelCall call) throws RdmaCmException
    {
        if (!(c.connection instanceof KernelConnection))
        {
            return false;
        }
        call.run(c);
        return true;
    }

    /** One of the conductor's calls on a kernel connection, made on the caller's thread. */
    @FunctionalInterface
    private interface KernelCall
    {
        void run(IdContext c) throws RdmaCmException;
    }

    /** A listener sees each change on the conductor's thread. */
    private static boolean mayCallHere(final RdmaCm cm)
    {
        return cm.listener() == StateTransitionListener.NONE;
    }
}
