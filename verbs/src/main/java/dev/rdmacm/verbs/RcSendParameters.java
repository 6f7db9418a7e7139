package dev.rdmacm.verbs;

/**
 * What an RC QP needs to go RTR -> RTS, named as the kernel's {@code ib_cm} names the REQ and REP
 * fields it takes them from ({@code cm_init_qp_rts_attr}).
 *
 * @param sqPsn           {@code sq_psn}: this side's own Starting PSN, the one its REQ or REP sent (24 bits).
 * @param localAckTimeout {@code timeout}: the 5-bit Local ACK Timeout code, 4.096 us * 2^code
 *                        (0 waits forever); ib_cm takes the path's packet life time plus the
 *                        target's ACK delay.
 * @param retryCount      {@code retry_cnt}: the REQ's Retry Count, 0-7 retransmissions after a timeout.
 * @param rnrRetryCount   {@code rnr_retry}: the peer's RNR Retry Count, 0-7 (7 retries forever).
 * @param initiatorDepth  {@code max_rd_atomic}: the RDMA reads and atomics this QP has outstanding at once.
 */
public record RcSendParameters(int sqPsn, int localAckTimeout, int retryCount, int rnrRetryCount, int initiatorDepth)
{
    public RcSendParameters
    {
        if (sqPsn < 0 || sqPsn > 0xff_ffff)
        {
            throw new IllegalArgumentException("RTS parameters: sqPsn 0x" + Integer.toHexString(sqPsn) + " is a 24-bit value (0-0xffffff)");
        }
        if (localAckTimeout < 0 || localAckTimeout > 31 || retryCount < 0 || retryCount > 7 || rnrRetryCount < 0
            || rnrRetryCount > 7 || initiatorDepth < 0 || initiatorDepth > 255)
        {
            throw new IllegalArgumentException("RTS parameters: localAckTimeout " + localAckTimeout + " (0-31), retryCount "
                + retryCount + " (0-7), rnrRetryCount " + rnrRetryCount + " (0-7) or initiatorDepth " + initiatorDepth
                + " (0-255) out of range");
        }
    }
}
