package dev.rdmacm.sa;

import org.agrona.DirectBuffer;

/**
 * Sees every MAD the engine sends or receives (before any filtering), e.g. to write a pcap. Called on
 * the engine thread; the buffer is valid only during the call.
 */
@FunctionalInterface
public interface MadRecorder
{
    MadRecorder NONE = (sent, localLid, remoteLid, remoteQp, buffer, offset, length) -> { };

    void onMad(boolean sent, int localLid, int remoteLid, int remoteQp, DirectBuffer buffer, int offset, int length);
}
