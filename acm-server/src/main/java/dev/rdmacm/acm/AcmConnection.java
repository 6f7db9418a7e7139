package dev.rdmacm.acm;

import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * One client connection: framing of requests out of a byte stream, and a bounded queue of reply
 * bytes. Memory per connection is fixed: one receive buffer of the protocol's maximum message and
 * one send buffer sized so that every request it lets in can be answered without growing it.
 * <p>
 * Framing follows ibacm: 16 header bytes, then {@code length - 16} more, with {@code length} in host
 * order for RESOLVE and big-endian otherwise. A length below 16 makes the header the whole message;
 * a length above the 592-byte maximum is read and dropped before the (error) reply, so the stream
 * stays in step and the client still gets exactly one answer.
 * <p>
 * Flow control: reading stops while the replies owed could overflow the send buffer
 * ({@link #canAcceptRequest()}), which is how a client that sends without reading is bounded without
 * being disconnected. The server closes a connection itself only when the client is too slow to
 * send a request ({@link #isSilentSince}) or was accepted past max_clients ({@link #isRejected()}).
 */
final class AcmConnection implements AcmClientChannel
{
    /** Largest reply: an EP_QUERY with {@link AcmEndpoint#MAX_ADDRESSES} addresses. */
    static final int MAX_REPLY_LENGTH = AcmHeader.LENGTH + 80 + AcmEndpoint.MAX_ADDRESSES * 64;
    /** Requests read but not yet answered, per connection. */
    static final int MAX_OWED_REPLIES = 4;
    static final int SEND_CAPACITY = MAX_REPLY_LENGTH * (MAX_OWED_REPLIES + 1);

    enum ReadState
    {
        HEADER,
        BODY,
        DISCARD
    }

    private final long id;
    private final SocketChannel channel;
    private final SelectionKey key;
    private final ByteBuffer receive = ByteBuffer.allocateDirect(AcmMessage.MAX_LENGTH);
    private final UnsafeBuffer request = new UnsafeBuffer(receive);
    private final ByteBuffer send = ByteBuffer.allocateDirect(SEND_CAPACITY);
    private final AcmHeader header = new AcmHeader();
    private ReadState readState = ReadState.HEADER;
    private int messageLength;
    private int discardRemaining;
    private int owedReplies;
    private boolean closed;

    private final Consumer<AcmConnection> onClose;
    private final NanoClock clock;
    private final boolean rejected;
    /** When the request being waited for began (connect, or its first bytes); {@link #NOT_WAITING} between requests. */
    private long waitingSinceNs;

    private static final long NOT_WAITING = Long.MIN_VALUE;

    /**
     * {@code onClose} runs once when the connection closes, whoever noticed first (read, write or server).
     * A {@code rejected} connection (past max_clients) is only held until its client has sent.
     */
    AcmConnection(final long id, final SocketChannel channel, final SelectionKey key,
        final Consumer<AcmConnection> onClose, final NanoClock clock, final boolean rejected)
    {
        this.id = id;
        this.channel = channel;
        this.key = key;
        this.onClose = onClose;
        this.clock = clock;
        this.rejected = rejected;
        this.waitingSinceNs = clock.nanoTime();
        receive.limit(AcmHeader.LENGTH);
    }

    boolean isRejected()
    {
        return rejected;
    }

    /**
     * Whether the client has owed us a whole request for {@code timeoutNs} at {@code nowNs}: since it
     * connected, or since the first bytes of a request it has not finished. Not while we owe it replies
     * (then it is us it waits for), nor between requests.
     */
    boolean isSilentSince(final long nowNs, final long timeoutNs)
    {
        return !closed && waitingSinceNs != NOT_WAITING && owedReplies == 0 && nowNs - waitingSinceNs >= timeoutNs;
    }

    @Override
    public long id()
    {
        return id;
    }

    boolean isClosed()
    {
        return closed;
    }

    /** Whether one more request can be read: its reply, and all owed ones, fit in the send buffer. */
    boolean canAcceptRequest()
    {
        return !closed && owedReplies < MAX_OWED_REPLIES
            && send.position() + (owedReplies + 1) * MAX_REPLY_LENGTH <= send.capacity();
    }

    /**
     * Reads what the socket has and hands every complete request to {@code sink}, stopping when no
     * more may be accepted.
     *
     * @return false at end of stream.
     */
    boolean onReadable(final RequestSink sink) throws IOException
    {
        while (canAcceptRequest())
        {
            final int read = channel.read(receive);
            if (read < 0)
            {
                return false;
            }
            if (read > 0 && waitingSinceNs == NOT_WAITING)
            {
                waitingSinceNs = clock.nanoTime();
            }
            if (receive.hasRemaining())
            {
                if (read == 0)
                {
                    break;
                }
                continue;
            }
            advance(sink);
        }
        updateInterest();
        return true;
    }

    private void advance(final RequestSink sink)
    {
        switch (readState)
        {
            case HEADER ->
            {
                header.wrap(request, 0, AcmHeader.LENGTH);
                messageLength = header.length();
                if (messageLength <= AcmHeader.LENGTH)
                {
                    deliver(sink, AcmHeader.LENGTH, messageLength);
                }
                else if (messageLength > AcmMessage.MAX_LENGTH)
                {
                    discardRemaining = messageLength - AcmHeader.LENGTH;
                    readState = ReadState.DISCARD;
                    receive.clear().position(AcmHeader.LENGTH).limit(AcmHeader.LENGTH
                        + Math.min(discardRemaining, AcmMessage.MAX_LENGTH - AcmHeader.LENGTH));
                }
                else
                {
                    readState = ReadState.BODY;
                    receive.limit(messageLength);
                }
            }
            case BODY -> deliver(sink, messageLength, messageLength);
            case DISCARD ->
            {
                discardRemaining -= receive.position() - AcmHeader.LENGTH;
                if (discardRemaining == 0)
                {
                    deliver(sink, AcmHeader.LENGTH, messageLength);
                }
                else
                {
                    receive.position(AcmHeader.LENGTH).limit(AcmHeader.LENGTH
                        + Math.min(discardRemaining, AcmMessage.MAX_LENGTH - AcmHeader.LENGTH));
                }
            }
        }
    }

    private void deliver(final RequestSink sink, final int bytesHeld, final int declaredLength)
    {
        owedReplies++;
        waitingSinceNs = NOT_WAITING;
        readState = ReadState.HEADER;
        try
        {
            sink.onRequest(this, request, bytesHeld, declaredLength);
        }
        finally
        {
            receive.clear().limit(AcmHeader.LENGTH);
        }
    }

    /**
     * Queues one reply. Called exactly once per request; the flow control above guarantees room.
     * A reply to a connection the client has closed is dropped.
     */
    @Override
    public void reply(final DirectBuffer buffer, final int offset, final int length)
    {
        if (closed)
        {
            return;
        }
        if (owedReplies <= 0 || send.remaining() < length)
        {
            throw new IllegalStateException("connection " + id + ": reply without a request or beyond the send buffer");
        }
        owedReplies--;
        if (owedReplies == 0 && waitingSinceNs != NOT_WAITING)
        {
            // the client's next request began while we owed it this reply: its time starts now
            waitingSinceNs = clock.nanoTime();
        }
        buffer.getBytes(offset, send, send.position(), length);
        send.position(send.position() + length);
        flush();
    }

    /** Writes queued reply bytes; whatever the socket does not take waits for OP_WRITE. */
    void flush()
    {
        if (closed)
        {
            return;
        }
        try
        {
            send.flip();
            channel.write(send);
            send.compact();
        }
        catch (final IOException ex)
        {
            send.clear();
            close();
            return;
        }
        updateInterest();
    }

    int owedReplies()
    {
        return owedReplies;
    }

    int unsentBytes()
    {
        return send.position();
    }

    private void updateInterest()
    {
        if (closed || !key.isValid())
        {
            return;
        }
        int ops = 0;
        if (canAcceptRequest())
        {
            ops |= SelectionKey.OP_READ;
        }
        if (send.position() > 0)
        {
            ops |= SelectionKey.OP_WRITE;
        }
        key.interestOps(ops);
    }

    void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        key.cancel();
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // the client is gone either way
        }
        onClose.accept(this);
    }

    /** Receives each complete request; {@code bytesHeld} bytes of it are in {@code request}. */
    @FunctionalInterface
    interface RequestSink
    {
        void onRequest(AcmClientChannel connection, UnsafeBuffer request, int bytesHeld, int declaredLength);
    }
}
