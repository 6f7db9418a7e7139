package dev.rdmacm.cm.kernel;

import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.IbvConstants;
import dev.rdmacm.verbs.MemoryRegion;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.QueuePairTransitionListener;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;

/**
 * One side's verbs objects for the kernel CM's guest cases: a QP with one send and one receive, and 64
 * bytes of registered memory (or as many as a case asks for), on the device the kernel bound the id to; closed in reverse.
 */
record VerbsEndpoint(VerbsContext context, ProtectionDomain pd, CompletionQueue cq, RcQueuePair qp, MemoryRegion region)
    implements AutoCloseable
{
    static VerbsEndpoint on(final String device)
    {
        return on(device, 1, 64);
    }

    /** {@code depth} sends and as many receives outstanding, one completion queue for both, {@code bytes} of memory. */
    static VerbsEndpoint on(final String device, final int depth, final int bytes)
    {
        final VerbsContext context = Verbs.open(device);
        final ProtectionDomain pd = context.allocateProtectionDomain();
        final CompletionQueue cq = context.createCompletionQueue(Math.max(4, 2 * depth), null);
        final RcQueuePair qp = pd.createRcQueuePair(cq, cq, new QueuePairCapabilities(depth, depth, 1, 1, 0),
            QueuePairTransitionListener.none());
        return new VerbsEndpoint(context, pd, cq, qp, pd.allocateMemoryRegion(bytes, IbvConstants.IBV_ACCESS_LOCAL_WRITE));
    }

    @Override
    public void close()
    {
        region.close();
        qp.close();
        cq.close();
        pd.close();
        context.close();
    }
}
