package dev.rdmacm.acm;

import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmOp;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * A test client that speaks raw bytes to the server's unix socket, to send what no real client
 * sends: malformed, truncated, fuzzed or byte-at-a-time requests. Reads time out instead of hanging.
 */
final class RawAcmClient implements AutoCloseable
{
    /** A transaction id no test request uses, to tell the marker's reply from any other. */
    private static final long MARKER_TID = 0x6d61_726b_6572_0001L;

    private final SocketChannel channel;
    private final Selector selector;

    RawAcmClient(final Path socket) throws IOException
    {
        channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        channel.configureBlocking(false);
        selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
    }

    void send(final byte[] bytes) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining())
        {
            if (channel.write(buffer) == 0)
            {
                Thread.onSpinWait();
            }
        }
    }

    /** Writes what the socket takes now, without waiting; returns the bytes written. */
    int sendSome(final byte[] bytes, final int offset) throws IOException
    {
        return channel.write(ByteBuffer.wrap(bytes, offset, bytes.length - offset));
    }

    /** Reads one reply, framed by its header's length in the byte order of its opcode. */
    byte[] receive(final long timeoutMs) throws IOException
    {
        final byte[] header = readExactly(AcmHeader.LENGTH, timeoutMs);
        final int length = new AcmHeader().wrap(new UnsafeBuffer(header), 0, header.length).length();
        if (length <= AcmHeader.LENGTH)
        {
            return header;
        }
        final byte[] body = readExactly(length - AcmHeader.LENGTH, timeoutMs);
        final byte[] all = new byte[length];
        System.arraycopy(header, 0, all, 0, AcmHeader.LENGTH);
        System.arraycopy(body, 0, all, AcmHeader.LENGTH, body.length);
        return all;
    }

    /**
     * True when the next reply is the one to a marker request sent now, that is when no other reply was
     * still to come. The server answers one connection's requests in order, so unlike
     * {@link #silentFor(long)} this has no quiet period that a slow machine could outlast.
     */
    boolean nothingBeforeMarker(final long timeoutMs) throws IOException
    {
        final byte[] marker = AcmRequests.perfQuery();
        new AcmHeader().wrap(new UnsafeBuffer(marker), 0).tid(MARKER_TID);
        send(marker);
        final AcmHeader reply = AcmRequests.header(receive(timeoutMs));
        return reply.opcode() == (AcmOp.PERF_QUERY | AcmOp.ACK) && reply.tid() == MARKER_TID;
    }

    /** True when nothing arrives within {@code timeoutMs}. */
    boolean silentFor(final long timeoutMs) throws IOException
    {
        selector.selectedKeys().clear();
        if (selector.select(timeoutMs) == 0)
        {
            return true;
        }
        final ByteBuffer one = ByteBuffer.allocate(1);
        return channel.read(one) == 0;
    }

    private byte[] readExactly(final int count, final long timeoutMs) throws IOException
    {
        final ByteBuffer buffer = ByteBuffer.allocate(count);
        final long deadline = System.nanoTime() + timeoutMs * 1_000_000L;
        while (buffer.hasRemaining())
        {
            final int read = channel.read(buffer);
            if (read < 0)
            {
                throw new IOException("server closed the connection after " + buffer.position() + " of " + count + " bytes");
            }
            if (read == 0)
            {
                final long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0)
                {
                    throw new IOException("no reply within " + timeoutMs + " ms (" + buffer.position() + " of " + count
                        + " bytes)");
                }
                selector.selectedKeys().clear();
                selector.select(left);
            }
        }
        return buffer.array();
    }

    @Override
    public void close() throws IOException
    {
        selector.close();
        channel.close();
    }
}
