package dev.rdmacm.ibcm;

import java.util.Objects;

/**
 * What the active side puts in its REQ: ib_cm's {@code struct ib_cm_req_param} without the alternate
 * path (no LAP here) and without the starting PSN, which the engine draws itself (random 24 bits, as
 * rdma_cm's {@code seq_num}). rdma_cm's values: both CM response timeouts 20 ({@code
 * CMA_CM_RESPONSE_TIMEOUT}), 15 CM retries ({@code CMA_MAX_CM_RETRIES}), retry and RNR retry 7.
 *
 * @param serviceId                 the Service ID the passive side listens on (rdma_cm: port space and port).
 * @param peer                      the remote CM's address.
 * @param path                      the primary path.
 * @param localQpn                  the RC (or UC) QP this connection is for, 24 bits.
 * @param unreliable                UC instead of RC.
 * @param responderResources        RDMA reads and atomics the local QP accepts at once, 8 bits.
 * @param initiatorDepth            RDMA reads and atomics the local QP issues at once, 8 bits.
 * @param remoteCmResponseTimeout   5-bit exponent: how long the passive CM may take to answer.
 * @param localCmResponseTimeout    5-bit exponent: how long this CM takes to answer a REP.
 * @param maxCmRetries              4 bits: how often a REQ (and the REP, DREQ) is re-sent.
 * @param retryCount                3 bits: the QP's transport retries.
 * @param rnrRetryCount             3 bits: the QP's RNR retries.
 * @param flowControl               end-to-end flow control.
 * @param srq                       the local QP uses an SRQ.
 * @param privateData               at most 92 bytes (rdma_cm puts its IP CM header first).
 */
public record ConnectParameters(long serviceId, IbCmPeerAddress peer, IbCmPath path, int localQpn, boolean unreliable,
                                int responderResources, int initiatorDepth, int remoteCmResponseTimeout,
                                int localCmResponseTimeout, int maxCmRetries, int retryCount, int rnrRetryCount,
                                boolean flowControl, boolean srq, byte[] privateData)
{
    public ConnectParameters
    {
        Objects.requireNonNull(peer, "peer");
        Objects.requireNonNull(path, "path");
        Limits.requireBits("ConnectParameters localQpn", localQpn, 24);
        Limits.requireBits("ConnectParameters responderResources", responderResources, 8);
        Limits.requireBits("ConnectParameters initiatorDepth", initiatorDepth, 8);
        Limits.requireBits("ConnectParameters remoteCmResponseTimeout", remoteCmResponseTimeout, 5);
        Limits.requireBits("ConnectParameters localCmResponseTimeout", localCmResponseTimeout, 5);
        Limits.requireBits("ConnectParameters maxCmRetries", maxCmRetries, 4);
        Limits.requireBits("ConnectParameters retryCount", retryCount, 3);
        Limits.requireBits("ConnectParameters rnrRetryCount", rnrRetryCount, 3);
        privateData = Limits.privateData("REQ", privateData, Limits.REQ_PRIVATE_DATA_SIZE);
    }

    /** rdma_cm's choices (cma.c {@code cma_connect_ib}) for an RC connection to {@code serviceId}. */
    public static ConnectParameters rdmaCmDefaults(final long serviceId, final IbCmPeerAddress peer, final IbCmPath path,
        final int localQpn, final int responderResources, final int initiatorDepth, final byte[] privateData)
    {
        return new ConnectParameters(serviceId, peer, path, localQpn, false, responderResources, initiatorDepth,
            20, 20, 15, 7, 7, true, false, privateData);
    }

    @Override
    public byte[] privateData()
    {
        return privateData.clone();
    }
}
