package dev.rdmacm.conformance;

import dev.rdmacm.cm.RdmaCmException;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.QueuePairTransitionListener;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;

/**
 * The smallest RC endpoint a guest peer program connects with: one send and one receive on one CQ, on
 * the id's device, attached to the id; closed in reverse.
 */
record RcEndpoint(VerbsContext context, ProtectionDomain pd, CompletionQueue cq, RcQueuePair qp) implements AutoCloseable
{
    static RcEndpoint on(final RdmaCmId id) throws RdmaCmException
    {
        return on(id, QueuePairTransitionListener.none());
    }

    /** As {@link #on(RdmaCmId)}, every move of the QP told to {@code moves}. */
    static RcEndpoint on(final RdmaCmId id, final QueuePairTransitionListener moves) throws RdmaCmException
    {
        final VerbsContext context = Verbs.open(id.binding().device());
        final ProtectionDomain pd = context.allocateProtectionDomain();
        final CompletionQueue cq = context.createCompletionQueue(4, null);
        final RcQueuePair qp = pd.createRcQueuePair(cq, cq, new QueuePairCapabilities(1, 1, 1, 1, 0), moves);
        id.attachQp(qp);
        return new RcEndpoint(context, pd, cq, qp);
    }

    @Override
    public void close()
    {
        qp.close();
        cq.close();
        pd.close();
        context.close();
    }
}
