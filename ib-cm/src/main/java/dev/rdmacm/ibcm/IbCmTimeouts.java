package dev.rdmacm.ibcm;

/**
 * ib_cm's time arithmetic (drivers/infiniband/core/cm.c, Linux 6.1), kept to its roundings: the
 * engine's timers must wait exactly as long as the kernel's, or a test against the kernel would see
 * different retry times. IBA times are 5-bit exponents: 4.096 us * 2^t.
 */
public final class IbCmTimeouts
{
    private IbCmTimeouts()
    {
    }

    /**
     * cm.c {@code cm_convert_to_ms}: {@code 1 << max(iba_time - 8, 0)}, "approximate conversion to ms
     * from 4.096us x 2^iba_time" (2^8 * 4.096 us = 1.05 ms taken as 1 ms, anything below as 1 ms).
     */
    public static long convertToMillis(final int ibaTime)
    {
        return 1L << Math.max(ibaTime - 8, 0);
    }

    /**
     * cm.c {@code cm_ack_timeout}: the QP's local ACK timeout for a CA ACK delay and a packet life time,
     * {@code 4.096x2^ack_timeout = 4.096x2^ack_delay + 2x4.096x2^life_time}, approximated as the larger of
     * {@code ack_delay} and {@code life_time + 1}, rounded up by one when the other is within 50%, at most 31.
     */
    public static int ackTimeout(final int caAckDelay, final int packetLifeTime)
    {
        int ackTimeout = packetLifeTime + 1;
        if (ackTimeout >= caAckDelay)
        {
            ackTimeout += caAckDelay >= ackTimeout - 1 ? 1 : 0;
        }
        else
        {
            ackTimeout = caAckDelay + (ackTimeout >= caAckDelay - 1 ? 1 : 0);
        }
        return Math.min(31, ackTimeout);
    }
}
