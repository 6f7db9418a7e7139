package dev.rdmacm.cli;

import dev.rdmacm.verbs.CompletionChannel;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.VerbsContext;

/**
 * The CQs every QP of a cmtime run shares: librdmacm's {@code rdma_create_qp(id, NULL, attr)} makes a receive
 * and a send CQ, each with its own completion channel and as many entries as the QP's work requests
 * ({@code ucma_create_cqs}), only when {@code attr} names none, and then writes the CQs it made into
 * {@code attr}. cmtime (rdma-core 44) passes the same static {@code init_qp_attr} for every connection, so
 * the first connection's call makes the CQs and every later one's QP takes them. Measured in the kernel
 * guest (issue 32, {@code strace -C -y} of a round of 100): librdmacm's cmtime makes 7.1 verbs ioctls per
 * connection and closes no completion channel; making them per connection here made 13.1 and closed two.
 * One set per device (cmtime's would fail on a second device; this keeps a run on several devices working).
 * Closed after the QPs ({@link #close}), as a CQ with a QP on it cannot go.
 */
final class CmtimeCompletionQueues implements AutoCloseable
{
    private final CompletionChannel receiveChannel;
    private final CompletionQueue receiveCq;
    private final CompletionChannel sendChannel;
    private final CompletionQueue sendCq;

    private CmtimeCompletionQueues(final CompletionChannel receiveChannel, final CompletionQueue receiveCq,
        final CompletionChannel sendChannel, final CompletionQueue sendCq)
    {
        this.receiveChannel = receiveChannel;
        this.receiveCq = receiveCq;
        this.sendChannel = sendChannel;
        this.sendCq = sendCq;
    }

    /** {@code ucma_create_cqs}: the receive CQ with its channel, then the send CQ with its own; on failure nothing is left behind. */
    static CmtimeCompletionQueues create(final VerbsContext context, final int receiveEntries, final int sendEntries)
    {
        CompletionChannel receiveChannel = null;
        CompletionQueue receiveCq = null;
        CompletionChannel sendChannel = null;
        CompletionQueue sendCq = null;
        try
        {
            receiveChannel = context.createCompletionChannel();
            receiveCq = context.createCompletionQueue(receiveEntries, receiveChannel);
            sendChannel = context.createCompletionChannel();
            sendCq = context.createCompletionQueue(sendEntries, sendChannel);
            return new CmtimeCompletionQueues(receiveChannel, receiveCq, sendChannel, sendCq);
        }
        catch (final RuntimeException ex)
        {
            closeAll(sendCq, sendChannel, receiveCq, receiveChannel);
            throw ex;
        }
    }

    CompletionQueue receiveCq()
    {
        return receiveCq;
    }

    CompletionQueue sendCq()
    {
        return sendCq;
    }

    /** {@code ucma_destroy_cqs}: the CQs, then their channels. */
    @Override
    public void close()
    {
        closeAll(sendCq, sendChannel, receiveCq, receiveChannel);
    }

    private static void closeAll(final CompletionQueue sendCq, final CompletionChannel sendChannel, final CompletionQueue receiveCq,
        final CompletionChannel receiveChannel)
    {
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
