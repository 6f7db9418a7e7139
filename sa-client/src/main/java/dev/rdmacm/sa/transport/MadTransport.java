package dev.rdmacm.sa.transport;

import org.agrona.DirectBuffer;

/**
 * The seam between the SA query engine and the wire: sends and receives whole MADs on the GSI (QP1)
 * of one local port. Implementations: {@code IbsimTransport} (an ibsim fabric over UDP), a verbs UD QP,
 * and a fault-injecting double in the tests.
 * <p>
 * Not thread-safe: the engine's one agent thread is the only caller of {@link #send} and {@link #poll}.
 */
public interface MadTransport extends AutoCloseable
{
    /** The local port this transport is attached to, as read when it attached. */
    LocalPort localPort();

    /**
     * Sends one MAD of {@code length} bytes (at most {@link MadAddress#MAX_MAD_LENGTH}) to {@code destination}.
     *
     * @return false when the transport cannot take it now (a full socket or send queue); the caller
     * treats that as a lost packet, which its retries cover.
     * @throws MadTransportException when the transport is broken (closed socket, fatal device error).
     */
    boolean send(MadAddress destination, DirectBuffer mad, int offset, int length);

    /**
     * Hands at most {@code limit} received MADs to {@code receiver} without blocking.
     *
     * @return how many were handed over.
     */
    int poll(MadReceiver receiver, int limit);

    /** Releases the socket or QP; idempotent. */
    @Override
    void close();
}
