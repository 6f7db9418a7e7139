package dev.rdmacm.ibcm;

import java.util.Objects;

/**
 * A SIDR_REQ: ib_cm's {@code struct ib_cm_sidr_req_param}. rdma_cm (RDMA_PS_UDP) uses a 4096 ms
 * timeout ({@code 1 << (CMA_CM_RESPONSE_TIMEOUT - 8)}) and 15 retries.
 *
 * @param serviceId   the Service ID to resolve.
 * @param peer        the remote CM's address.
 * @param pkey        the P_Key the REQ names, 16 bits.
 * @param timeoutMs   how long to wait for the SIDR_REP each time, at least 1.
 * @param maxCmRetries how often to re-send, 4 bits.
 * @param privateData at most 216 bytes (rdma_cm puts its IP CM header first).
 */
public record SidrRequestParameters(long serviceId, IbCmPeerAddress peer, int pkey, long timeoutMs, int maxCmRetries,
                                    byte[] privateData)
{
    public SidrRequestParameters
    {
        Objects.requireNonNull(peer, "peer");
        Limits.requireBits("SidrRequestParameters pkey", pkey, 16);
        if (timeoutMs < 1)
        {
            throw new IllegalArgumentException("SidrRequestParameters timeoutMs: " + timeoutMs + " is not at least 1");
        }
        Limits.requireBits("SidrRequestParameters maxCmRetries", maxCmRetries, 4);
        privateData = Limits.privateData("SIDR_REQ", privateData, Limits.SIDR_REQ_PRIVATE_DATA_SIZE);
    }

    @Override
    public byte[] privateData()
    {
        return privateData.clone();
    }
}
