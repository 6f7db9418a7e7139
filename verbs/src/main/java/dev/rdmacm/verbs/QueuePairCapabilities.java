package dev.rdmacm.verbs;

/**
 * The queue sizes asked of {@code ibv_create_qp} ({@code struct ibv_qp_cap}).
 *
 * @param maxSendWr     send work requests outstanding.
 * @param maxRecvWr     receive work requests outstanding.
 * @param maxSendSge    scatter/gather entries per send.
 * @param maxRecvSge    scatter/gather entries per receive.
 * @param maxInlineData bytes a send may carry inline.
 */
public record QueuePairCapabilities(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData)
{
    public QueuePairCapabilities
    {
        if (maxSendWr < 1 || maxRecvWr < 1 || maxSendSge < 1 || maxRecvSge < 1 || maxInlineData < 0)
        {
            throw new IllegalArgumentException("QP capabilities " + maxSendWr + "/" + maxRecvWr + "/" + maxSendSge + "/"
                + maxRecvSge + "/" + maxInlineData + ": work requests and SGEs must be at least 1, inline data at least 0");
        }
    }

    /** Enough for MAD traffic: 16 sends and receives in flight, one SGE each, no inline data. */
    public static QueuePairCapabilities forMads()
    {
        return new QueuePairCapabilities(16, 16, 1, 1, 0);
    }
}
