package dev.rdmacm.acm;

import org.agrona.DirectBuffer;

/**
 * Where the answer to one ACM request goes: a client socket ({@link AcmConnection}) or the kernel's
 * netlink local service ({@link AcmKernelBridge}). Called on the server thread, exactly once per
 * request.
 */
interface AcmClientChannel
{
    /** A number for logs. */
    long id();

    /** Sends the reply bytes; a channel whose peer is gone drops them. */
    void reply(DirectBuffer buffer, int offset, int length);
}
