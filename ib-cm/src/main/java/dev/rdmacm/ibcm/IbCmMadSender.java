package dev.rdmacm.ibcm;

import org.agrona.DirectBuffer;

/**
 * Where the engine's MADs go: the umad transport in production, an in-memory pipe in the engine's own
 * tests. Called on the engine's thread; the bytes are only valid during the call (copy them to keep them).
 * A send that fails throws; the engine treats it as a lost MAD, which its retries cover.
 */
@FunctionalInterface
public interface IbCmMadSender
{
    /** Sends the 256-byte CM MAD at {@code offset} to {@code to}. */
    void send(IbCmPeerAddress to, DirectBuffer mad, int offset, int length);
}
