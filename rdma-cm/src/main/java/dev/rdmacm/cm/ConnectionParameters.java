package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * librdmacm's {@code struct rdma_conn_param} for an RC connection: what {@link RdmaCmId#connect} puts in
 * the REQ and {@link RdmaCmId#accept} in the REP. Immutable: the private data is copied on the way in and
 * out, and compared and printed by content.
 *
 * @param privateData        the consumer's private data; on an IP id rdma_cm puts its 36-byte IP CM
 *                           header before it, which leaves 56 bytes in a REQ and 196 in a REP.
 * @param responderResources the RDMA reads and atomics the local QP answers at once, 0-255.
 * @param initiatorDepth     the RDMA reads and atomics the local QP issues at once, 0-255.
 * @param flowControl        end-to-end flow control.
 * @param retryCount         transport retries, 0-7 (larger values are cut to 7, as {@code cma_connect_ib} does).
 * @param rnrRetryCount      RNR retries, 0-7, 7 meaning forever (cut to 7 likewise).
 */
public record ConnectionParameters(byte[] privateData, int responderResources, int initiatorDepth, boolean flowControl,
                                   int retryCount, int rnrRetryCount)
{
    /** The REQ's private data: 92 bytes, of which rdma_cm's IP CM header takes 36. */
    public static final int REQ_PRIVATE_DATA_LIMIT = 92 - 36;
    /** The REP's private data: 196 bytes, all the consumer's. */
    public static final int REP_PRIVATE_DATA_LIMIT = 196;
    /** A SIDR_REQ's private data: 216 bytes, of which rdma_cm's IP CM header takes 36. */
    public static final int SIDR_REQ_PRIVATE_DATA_LIMIT = 216 - 36;
    /** A SIDR_REP's private data, {@code IB_CM_SIDR_REP_PRIVATE_DATA_SIZE}, all the consumer's. */
    public static final int SIDR_REP_PRIVATE_DATA_LIMIT = 136;
    /** The REJ's private data, {@code IB_CM_REJ_PRIVATE_DATA_SIZE}. */
    public static final int REJ_PRIVATE_DATA_LIMIT = 148;

    /**
     * Checks every field against its wire field's width and copies the private data.
     *
     * @throws IllegalArgumentException naming the field and its range.
     */
    public ConnectionParameters
    {
        privateData = privateData == null ? new byte[0] : privateData.clone();
        requireByte("responder resources", responderResources);
        requireByte("initiator depth", initiatorDepth);
        if (retryCount < 0 || rnrRetryCount < 0)
        {
            throw new IllegalArgumentException("connection parameters: retry count " + retryCount + " and RNR retry count "
                + rnrRetryCount + " must not be negative");
        }
        if (privateData.length > REP_PRIVATE_DATA_LIMIT)
        {
            throw new IllegalArgumentException("connection parameters: " + privateData.length + " bytes of private data, "
                + "at most " + REP_PRIVATE_DATA_LIMIT + " fit a REP and " + REQ_PRIVATE_DATA_LIMIT + " a REQ");
        }
    }

    /**
     * What rping asks for: one read each way, 7 retries of both kinds, no private data.
     *
     * @param responderResources the RDMA reads and atomics the local QP answers at once, 0-255.
     * @param initiatorDepth     the RDMA reads and atomics the local QP issues at once, 0-255.
     * @return the parameters.
     */
    public static ConnectionParameters of(final int responderResources, final int initiatorDepth)
    {
        return new ConnectionParameters(new byte[0], responderResources, initiatorDepth, false, 7, 7);
    }

    /**
     * These parameters with {@code data} as the private data.
     *
     * @param data the private data, copied; at most {@link #REP_PRIVATE_DATA_LIMIT} bytes.
     * @return the new parameters.
     */
    public ConnectionParameters privateData(final byte[] data)
    {
        return new ConnectionParameters(data, responderResources, initiatorDepth, flowControl, retryCount, rnrRetryCount);
    }

    /** {@return a copy of the private data} */
    @Override
    public byte[] privateData()
    {
        return privateData.clone();
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ConnectionParameters p && Arrays.equals(privateData, p.privateData) &&
            responderResources == p.responderResources && initiatorDepth == p.initiatorDepth &&
            flowControl == p.flowControl && retryCount == p.retryCount && rnrRetryCount == p.rnrRetryCount;
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(privateData) +
            Objects.hash(responderResources, initiatorDepth, flowControl, retryCount, rnrRetryCount);
    }

    @Override
    public String toString()
    {
        return "ConnectionParameters[privateData=" + HexFormat.of().formatHex(privateData) + ", responderResources=" +
            responderResources + ", initiatorDepth=" + initiatorDepth + ", flowControl=" + flowControl + ", retryCount=" +
            retryCount + ", rnrRetryCount=" + rnrRetryCount + "]";
    }

    private static void requireByte(final String what, final int value)
    {
        if (value < 0 || value > 255)
        {
            throw new IllegalArgumentException("connection parameters: " + what + " " + value + " must be 0-255");
        }
    }

    /** {@code rdma_connect}'s check: the private data fits a REQ, or a SIDR_REQ, after rdma_cm's IP CM header. */
    void requireRoomInRequest(final boolean sidr) throws RdmaCmException
    {
        final int limit = sidr ? SIDR_REQ_PRIVATE_DATA_LIMIT : REQ_PRIVATE_DATA_LIMIT;
        if (privateData.length > limit)
        {
            throw new RdmaCmException("rdma_connect", Errno.EINVAL, privateData.length +
                " bytes of private data: a " + (sidr ? "SIDR_REQ" : "REQ") + " has room for " + limit +
                " after rdma_cm's 36-byte IP CM header", true);
        }
    }
}
