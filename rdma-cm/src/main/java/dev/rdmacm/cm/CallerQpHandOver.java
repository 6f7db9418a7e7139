package dev.rdmacm.cm;

import dev.rdmacm.verbs.RcQueuePair;

/**
 * {@code rdma_create_qp}'s hand-over of an RC id's QP ({@link RdmaCmId#attachQp(RcQueuePair)}), made on the
 * caller's thread when nothing of the conductor's is needed for it: the id's context exists and every
 * command the thread sent has run ({@link ThreadCommands}), so under the id's {@link IdGuard} the context
 * is the one the queued hand-over would find, and a command the thread sends after it (a connect, an
 * accept) finds the QP, as {@link CallerResolution} finishes a resolution. Otherwise (an id no command or
 * resolution has reached, a command of the thread still queued, the loop thread) the hand-over is queued
 * as before. The queued one was 12% of cmtime's create qp step in the guest (issue 32): a command, a
 * closure and a queue slot per QP.
 */
final class CallerQpHandOver
{
    private CallerQpHandOver()
    {
    }

    /** @return true when {@code queuePair} is the id's now; false to queue the hand-over. */
    static boolean handOver(final RdmaCm cm, final RdmaCmId id, final RcQueuePair queuePair)
    {
        return IdGuard.runOnCaller(cm, id, IdGuard.WhenQueued.GIVE_UP, queuePair, CallerQpHandOver::attach);
    }

    private static boolean attach(final IdContext c, final RcQueuePair queuePair)
    {
        ConnectionPhase.attachQp(c, queuePair);
        return true;
    }
}
