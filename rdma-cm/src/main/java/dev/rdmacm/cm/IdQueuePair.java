package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.verbs.QpState;
import dev.rdmacm.verbs.RcQueuePair;

/**
 * An RC id's QP as librdmacm moves it: on the application's threads, never on the CM's. The conductor hands
 * over what a move needs ({@link ConnectResponseMoves}); the thread that calls ({@code rdma_accept},
 * {@code rdma_disconnect}) or takes the event ({@code rdma_get_cm_event}) makes the move with
 * {@code ibv_modify_qp} itself. Thread-safe: both fields are written once per step and read by the mover.
 */
final class IdQueuePair
{
    private volatile RcQueuePair qp;
    /** What the CM thread handed over with the last CONNECT_RESPONSE: the QP's attributes for RTR and RTS. */
    private volatile ConnectResponseMoves connectResponse;

    /** {@code rdma_create_qp}'s: the QP this id's moves are made on from now on. */
    void attach(final RcQueuePair queuePair)
    {
        qp = queuePair;
    }

    /** From the CM thread, before it posts CONNECT_RESPONSE. */
    void connectResponse(final ConnectResponseMoves moves)
    {
        connectResponse = moves;
    }

    /**
     * The event the application gets for {@code event}, taken on this thread, which does librdmacm's
     * {@code rdma_get_cm_event} work:
     * <ul>
     * <li>CONNECT_RESPONSE of an id with an RC QP ({@code ucma_process_conn_resp}): the QP to RTR and RTS, then
     *     {@code rtuNow} (the RTU sent and the id moved to ESTABLISHED, by the conductor or, through the kernel's
     *     CM, on this thread, {@link CallerKernelCm}; it throws when it could not);
     *     ESTABLISHED with the REP's private data, or, when a move or the RTU failed, the QP to ERR and
     *     CONNECT_ERROR with librdmacm's status -1 ({@code rdma_seterrno}). Without a QP it stays CONNECT_RESPONSE.</li>
     * <li>REJECTED: the QP to ERR ({@code ucma_modify_qp_err}).</li>
     * </ul>
     */
    CmEvent taken(final CmEvent event, final Runnable rtuNow)
    {
        final RcQueuePair queuePair = qp;
        if (queuePair == null)
        {
            return event;
        }
        return switch (event)
        {
            case CmEvent.ConnectResponse response -> established(response, queuePair, rtuNow);
            case CmEvent.Rejected rejected ->
            {
                errorQuietly(queuePair);
                yield rejected;
            }
            default -> event;
        };
    }

    private CmEvent established(final CmEvent.ConnectResponse response, final RcQueuePair queuePair, final Runnable rtuNow)
    {
        final ConnectResponseMoves moves = connectResponse;
        if (moves == null)
        {
            return response;
        }
        try
        {
            moves.readyToSend(queuePair);
            rtuNow.run();
        }
        catch (final RuntimeException failed)
        {
            // ucma_process_conn_resp's err: the QP to ERR, and rdma_seterrno's -1 as the event's status
            errorQuietly(queuePair);
            return new CmEvent.ConnectError(response.id(), -1);
        }
        return new CmEvent.Established(response.id(), moves.privateData());
    }

    /**
     * {@code rdma_accept}'s {@code ucma_modify_qp_rtr} and {@code ucma_modify_qp_rts}, then {@code sendReply}
     * ({@code UCMA_CMD_ACCEPT}): a move that fails throws its errno, nothing sent; a reply that fails moves the QP
     * to ERR and throws.
     */
    void accept(final ConnectResponseMoves moves, final Runnable sendReply)
    {
        final RcQueuePair queuePair = qp;
        try
        {
            moves.readyToSend(queuePair);
        }
        catch (final RuntimeException failed)
        {
            throw refused("rdma_accept", failed);
        }
        try
        {
            sendReply.run();
        }
        catch (final RuntimeException failed)
        {
            errorQuietly(queuePair);
            throw failed;
        }
    }

    /** {@code rdma_disconnect}'s {@code ucma_shutdown}: the QP, if any, to ERR; a move that fails throws its errno. */
    void shutdown()
    {
        final RcQueuePair queuePair = qp;
        if (queuePair != null)
        {
            try
            {
                queuePair.errorIfOpen();
            }
            catch (final RuntimeException failed)
            {
                throw refused("rdma_disconnect", failed);
            }
        }
    }

    private static RdmaCmException refused(final String call, final RuntimeException failed)
    {
        return new RdmaCmException(call, failed instanceof ErrnoException e ? e.errno() : Errno.EINVAL, failed.getMessage(), true);
    }

    private static void errorQuietly(final RcQueuePair queuePair)
    {
        if (queuePair.state() == QpState.ERR)
        {
            return;
        }
        try
        {
            queuePair.errorIfOpen();
        }
        catch (final RuntimeException ignored)
        {
            // librdmacm ignores ucma_modify_qp_err's result on these paths
        }
    }
}
