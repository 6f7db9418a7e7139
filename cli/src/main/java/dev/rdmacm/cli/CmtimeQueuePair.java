package dev.rdmacm.cli;

import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.verbs.CompletionChannel;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.VerbsContext;

/**
 * What librdmacm's {@code rdma_create_qp(id, NULL, attr)} makes for cmtime, so that the "create qp" step
 * does the same work: {@code ucma_create_cqs}' receive and send CQs, each with its own completion
 * channel and as many entries as the QP's work requests (1), then the RC QP on the device's PD with
 * cmtime's capabilities (one work request and one SGE each way), attached to the id, which moves it to
 * INIT ({@code ucma_init_conn_qp}). {@link #close} is {@code rdma_destroy_qp}: QP, then CQs, then channels.
 */
final class CmtimeQueuePair implements AutoCloseable
{
    private static final QueuePairCapabilities CAPABILITIES = new QueuePairCapabilities(1, 1, 1, 1, 0);

    private final CompletionChannel receiveChannel;
    private final CompletionQueue receiveCq;
    private final CompletionChannel sendChannel;
    private final CompletionQueue sendCq;
    private final RcQueuePair qp;

    private CmtimeQueuePair(final CompletionChannel receiveChannel, final CompletionQueue receiveCq, final CompletionChannel sendChannel,
        final CompletionQueue sendCq, final RcQueuePair qp)
    {
        this.receiveChannel = receiveChannel;
        this.receiveCq = receiveCq;
        this.sendChannel = sendChannel;
        this.sendCq = sendCq;
        this.qp = qp;
    }

    /** Creates the QP on {@code pd} and its CQs on {@code context}, attached to {@code id}; on failure nothing is left behind. */
    static CmtimeQueuePair create(final VerbsContext context, final ProtectionDomain pd, final RdmaCmId id)
    {
        CompletionChannel receiveChannel = null;
        CompletionQueue receiveCq = null;
        CompletionChannel sendChannel = null;
        CompletionQueue sendCq = null;
        RcQueuePair qp = null;
        try
        {
            receiveChannel = context.createCompletionChannel();
            receiveCq = context.createCompletionQueue(CAPABILITIES.maxRecvWr(), receiveChannel);
            sendChannel = context.createCompletionChannel();
            sendCq = context.createCompletionQueue(CAPABILITIES.maxSendWr(), sendChannel);
            qp = pd.createRcQueuePair(sendCq, receiveCq, CAPABILITIES);
            id.attachQp(qp);
            return new CmtimeQueuePair(receiveChannel, receiveCq, sendChannel, sendCq, qp);
        }
        catch (final RuntimeException ex)
        {
            closeAll(qp, sendCq, sendChannel, receiveCq, receiveChannel);
            throw ex;
        }
    }

    @Override
    public void close()
    {
        closeAll(qp, sendCq, sendChannel, receiveCq, receiveChannel);
    }

    private static void closeAll(final RcQueuePair qp, final CompletionQueue sendCq, final CompletionChannel sendChannel,
        final CompletionQueue receiveCq, final CompletionChannel receiveChannel)
    {
        if (qp != null)
        {
            qp.close();
        }
        if (sendCq != null)
        {
            sendCq.close();
        }
        if (sendChannel != null)
        {
            sendChannel.close();
        }
        if (receiveCq != null)
        {
            receiveCq.close();
        }
        if (receiveChannel != null)
        {
            receiveChannel.close();
        }
    }
}
