package dev.rdmacm.sa;

import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One SA transaction in the engine (pooled: the engine reuses them, so a query allocates none): the request MAD (built once, resent unchanged with the same TID),
 * where it went, its timers and, while a multi-packet answer arrives, the reassembly state. Owned by
 * the engine thread; every state change goes through {@link SaEngine#transition}.
 */
final class SaTransaction
{
    /** The life of a transaction. */
    enum State
    {
        /** Waiting for a free slot: sa_depth transactions are outstanding. */
        QUEUED,
        /** Sent; waiting for the response (or its first RMPP segment). */
        AWAITING_RESPONSE,
        /** RMPP segments are arriving; we ACK them. */
        RECEIVING_SEGMENTS,
        /** Answered, failed or timed out; nothing more happens. */
        DONE
    }

    final UnsafeBuffer mad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    final List<CompletableFuture<SaResponse>> waiters = new ArrayList<>(1);
    SaRequest request;
    long tid48;
    long startNanos;
    long deadlineNanos;
    boolean internal;

    State state = State.QUEUED;
    MadAddress destination;
    long timerId = DeadlineTimers.NULL_TIMER;
    long intervalNanos;
    int retriesSent;
    boolean sent;

    // RMPP reassembly
    long fullTid;
    long expectedSegment;
    long windowLast;
    int firstStatus;
    int attributeOffsetWords;
    long firstPayloadLength;
    final ExpandableArrayBuffer segments = new ExpandableArrayBuffer(0);
    int segmentBytes;

    /** Makes a pooled transaction new again, for another request. */
    SaTransaction reset(final SaRequest request, final long tid48, final long startNanos, final long deadlineNanos,
        final boolean internal)
    {
        this.request = request;
        this.tid48 = tid48;
        this.startNanos = startNanos;
        this.deadlineNanos = deadlineNanos;
        this.internal = internal;
        mad.setMemory(0, MadHeader.MAD_SIZE, (byte)0);
        waiters.clear();
        state = State.QUEUED;
        destination = null;
        timerId = DeadlineTimers.NULL_TIMER;
        intervalNanos = 0;
        retriesSent = 0;
        sent = false;
        fullTid = 0;
        expectedSegment = 0;
        windowLast = 0;
        firstStatus = 0;
        attributeOffsetWords = 0;
        firstPayloadLength = 0;
        segmentBytes = 0;
        return this;
    }

    @Override
    public String toString()
    {
        return (request == null ? "(free)" : request.description()) + " [tid 0x" + Long.toHexString(tid48) + ", " + state +
            ", to " + destination + "]";
    }
}
