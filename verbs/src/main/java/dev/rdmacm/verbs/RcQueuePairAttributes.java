package dev.rdmacm.verbs;

import dev.rdmacm.protocol.sa.MtuCode;

import java.util.Optional;

/**
 * What {@code ibv_query_qp} reports about an RC QP, the kernel's view.
 *
 * @param state              the current state.
 * @param accessFlags        {@code qp_access_flags}: the {@code IBV_ACCESS_REMOTE_*} operations the
 *                           peer may do on this QP's memory.
 * @param pkeyIndex          the P_Key index.
 * @param port               the port number.
 * @param primaryPath        {@code ah_attr}, when the QP has one (from RTR on).
 * @param pathMtu            {@code path_mtu}, when set (from RTR on).
 * @param remoteQpn          {@code dest_qp_num}.
 * @param rqPsn              {@code rq_psn}: the next PSN expected.
 * @param sqPsn              {@code sq_psn}: the next PSN to send.
 * @param responderResources {@code max_dest_rd_atomic}.
 * @param initiatorDepth     {@code max_rd_atomic}.
 * @param minRnrTimer        {@code min_rnr_timer}.
 * @param localAckTimeout    {@code timeout}.
 * @param retryCount         {@code retry_cnt}.
 * @param rnrRetryCount      {@code rnr_retry}.
 * @param capabilities       {@code cap}: the queue sizes the provider gave.
 */
public record RcQueuePairAttributes(QpState state, int accessFlags, int pkeyIndex, int port, Optional<AddressVector> primaryPath,
    Optional<MtuCode> pathMtu, int remoteQpn, int rqPsn, int sqPsn, int responderResources, int initiatorDepth, int minRnrTimer,
    int localAckTimeout, int retryCount, int rnrRetryCount, QueuePairCapabilities capabilities)
{
}
