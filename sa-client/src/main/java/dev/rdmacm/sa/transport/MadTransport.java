package dev.rdmacm.sa.transport;

import dev.rdmacm.protocol.mad.MadAddress;
import org.agrona.DirectBuffer;

/**
 * The seam between the SA query engine and the wire: sends and receives whole MADs on the GSI (QP1)
 * of one local port. Implementations: {@code IbsimTransport} (an ibsim fabric over UDP), a verbs UD QP,
 * and a fault-injecting double in the tests.
 * <p>
 * Not thread-safe: the engine's one agent thread is the only caller of {@link #send}, {@link #poll} and
 * {@link #awaitReadable}; {@link #wakeUp} is the one method any thread may call.
 * <p>
 * Waiting belongs to the transport because only it knows what "a MAD may have arrived" looks like: a
 * selectable socket (ibsim), a completion channel's file descriptor (verbs), a queue in memory (tests).
 * The engine blocks in {@link #awaitReadable} when it has nothing to do, with the deadline of its
 * earliest timer, and other threads call {@link #wakeUp} after handing it a query; so an idle engine
 * costs no CPU and a busy one neither spins nor sleeps in steps.
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

    /**
     * Blocks the calling (engine) thread until a MAD may be ready for {@link #poll}, {@link #wakeUp} is
     * called, or {@link System#nanoTime()} reaches {@code deadlineNanos} ({@link Long#MAX_VALUE}: no
     * deadline). It may return early; the caller polls and calls again. A {@link #wakeUp} that came
     * before this call makes it return at once.
     *
     * @throws MadTransportException when the transport is broken.
     */
    void awaitReadable(long deadlineNanos);

    /** Any thread: makes a current {@link #awaitReadable} return now, or the next one return at once. */
    void wakeUp();

    /** Releases the socket or QP; idempotent. */
    @Override
    void close();
}
