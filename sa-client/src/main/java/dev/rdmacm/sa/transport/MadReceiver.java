package dev.rdmacm.sa.transport;

import org.agrona.DirectBuffer;

/** Receives MADs from {@link MadTransport#poll}; the buffer and the source are valid only during the call. */
@FunctionalInterface
public interface MadReceiver
{
    /**
     * @param source where the MAD came from, as the fabric reports it (not as the MAD claims): LID, QP
     *               and, when the packet had a GRH, GID.
     */
    void onMad(MadSource source, DirectBuffer buffer, int offset, int length);
}
