package dev.rdmacm.sa.transport;

import org.agrona.DirectBuffer;

/** Receives MADs from {@link MadTransport#poll}; the buffer is valid only during the call. */
@FunctionalInterface
public interface MadReceiver
{
    /**
     * @param sourceLid the LID the MAD came from, as the fabric reports it (not as the MAD claims).
     * @param sourceQp  the QP the MAD came from.
     */
    void onMad(int sourceLid, int sourceQp, DirectBuffer buffer, int offset, int length);
}
