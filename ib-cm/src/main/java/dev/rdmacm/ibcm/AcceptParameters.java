package dev.rdmacm.ibcm;

/**
 * What the passive side puts in its REP: ib_cm's {@code struct ib_cm_rep_param} without the starting
 * PSN (drawn by the engine, random 24 bits) and without ECE.
 *
 * @param localQpn           the local RC (or UC) QP, 24 bits.
 * @param responderResources 8 bits.
 * @param initiatorDepth     8 bits.
 * @param failoverAccepted   a {@code ConnectReply.FAILOVER_*} value; rdma_cm sends 0.
 * @param flowControl        end-to-end flow control.
 * @param rnrRetryCount      3 bits: the RNR retries the active QP is to use.
 * @param srq                the local QP uses an SRQ.
 * @param privateData        at most 196 bytes.
 */
public record AcceptParameters(int localQpn, int responderResources, int initiatorDepth, int failoverAccepted,
                               boolean flowControl, int rnrRetryCount, boolean srq, byte[] privateData)
{
    public AcceptParameters
    {
        Limits.requireBits("AcceptParameters localQpn", localQpn, 24);
        Limits.requireBits("AcceptParameters responderResources", responderResources, 8);
        Limits.requireBits("AcceptParameters initiatorDepth", initiatorDepth, 8);
        Limits.requireBits("AcceptParameters failoverAccepted", failoverAccepted, 2);
        Limits.requireBits("AcceptParameters rnrRetryCount", rnrRetryCount, 3);
        privateData = Limits.privateData("REP", privateData, Limits.REP_PRIVATE_DATA_SIZE);
    }

    @Override
    public byte[] privateData()
    {
        return privateData.clone();
    }
}
