package dev.rdmacm.cli;

import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;

/**
 * What librdmacm's {@code rdma_create_qp(id, NULL, attr)} makes for cmtime, so that the "create qp" step
 * does the same work: the RC QP on the device's PD with cmtime's capabilities (one work request and one
 * SGE each way), on the run's shared CQs ({@link CmtimeCompletionQueues}, made by the first connection's
 * call, as cmtime's static {@code init_qp_attr} makes librdmacm share them), attached to the id, which
 * moves it to INIT ({@code ucma_init_conn_qp}). {@link #close} is {@code rdma_destroy_qp} of a QP whose
 * CQs are shared: the QP alone.
 */
final class CmtimeQueuePair implements AutoCloseable
{
    static final QueuePairCapabilities CAPABILITIES = new QueuePairCapabilities(1, 1, 1, 1, 0);

    private final RcQueuePair qp;

    private CmtimeQueuePair(final RcQueuePair qp)
    {
        this.qp = qp;
    }

    /** Creates the QP on {@code pd} and {@code cqs}, attached to {@code id}; on failure nothing is left behind. */
    static CmtimeQueuePair create(final ProtectionDomain pd, final CmtimeCompletionQueues cqs, final RdmaCmId id)
    {
        final RcQueuePair qp = pd.createRcQueuePair(cqs.sendCq(), cqs.receiveCq(), CAPABILITIES);
        try
        {
            id.attachQp(qp);
            return new CmtimeQueuePair(qp);
        }
        catch (final RuntimeException ex)
        {
            qp.close();
            throw ex;
        }
    }

    @Override
    public void close()
    {
        qp.close();
    }
}
