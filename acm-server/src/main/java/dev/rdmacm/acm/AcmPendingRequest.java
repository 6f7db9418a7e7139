package dev.rdmacm.acm;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * A RESOLVE request that waits for an address or route lookup: a copy of its bytes (the connection's
 * receive buffer is reused at once), the connection that owes the reply, and the source entry to
 * append when the server chose the source. {@link #answered} makes "exactly one reply" checkable.
 */
final class AcmPendingRequest
{
    final AcmClientChannel connection;
    final UnsafeBuffer request;
    final int length;
    final AcmEndpoint endpoint;
    /** The SOURCE entry the server chose (72 bytes), or null when the client gave one. */
    final byte[] selectedSource;
    boolean answered;

    AcmPendingRequest(final AcmClientChannel connection, final UnsafeBuffer source, final int length,
        final AcmEndpoint endpoint, final byte[] selectedSource)
    {
        this.connection = connection;
        final byte[] copy = new byte[length];
        source.getBytes(0, copy, 0, length);
        this.request = new UnsafeBuffer(copy);
        this.length = length;
        this.endpoint = endpoint;
        this.selectedSource = selectedSource;
    }
}
