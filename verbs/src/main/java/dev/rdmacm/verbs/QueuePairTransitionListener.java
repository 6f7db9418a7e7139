package dev.rdmacm.verbs;

/**
 * Sees every state change of an {@link RcQueuePair}, at the moment {@code ibv_modify_qp} succeeded:
 * the one transition method of the QP calls it, so a test (or a CM's trace) records the sequence
 * and the attribute mask of each step instead of inferring them.
 */
@FunctionalInterface
public interface QueuePairTransitionListener
{
    void onTransition(RcQueuePair qp, QpState from, QpState to, int attrMask);

    /** Sees nothing. */
    static QueuePairTransitionListener none()
    {
        return (qp, from, to, attrMask) -> { };
    }
}
