package dev.rdmacm.ibcm;

/**
 * What the RC QP of a connection is set to at RTR and RTS, as ib_cm's {@code cm_init_qp_rtr_attr} and
 * {@code cm_init_qp_rts_attr} fill {@code struct ib_qp_attr} from the REQ and REP.
 *
 * @param path               the primary path (the QP's address vector: DGID, flow label, hop limit, traffic
 *                           class, SL, DLID).
 * @param pkey               the connection's P_Key.
 * @param remoteQpn          {@code dest_qp_num}.
 * @param receivePsn         {@code rq_psn}: the starting PSN the remote side sends with.
 * @param sendPsn            {@code sq_psn}: the starting PSN this side sends with.
 * @param pathMtu            {@code path_mtu}, the 4-bit IBA MTU code.
 * @param responderResources {@code max_dest_rd_atomic}.
 * @param initiatorDepth     {@code max_rd_atomic}.
 * @param minRnrTimer        {@code min_rnr_timer}; ib_cm always sets 0.
 * @param localAckTimeout    {@code timeout}: ib_cm's {@code av.timeout}, 5-bit exponent.
 * @param retryCount         {@code retry_cnt}.
 * @param rnrRetryCount      {@code rnr_retry}.
 * @param flowControl        the end-to-end flow control the REQ or REP announced.
 */
public record QpAttributes(IbCmPath path, int pkey, int remoteQpn, int receivePsn, int sendPsn, int pathMtu,
                           int responderResources, int initiatorDepth, int minRnrTimer, int localAckTimeout,
                           int retryCount, int rnrRetryCount, boolean flowControl)
{
}
