package dev.rdmacm.cm.testing;

import dev.rdmacm.protocol.acm.AcmHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A test double of an ACM service that takes questions and never answers: what no ibacm does on
 * demand, and what the CM's reply timer is for. It listens on a unix socket as ibacm's unix mode does,
 * accepts one client and reads what it sends; it writes nothing.
 */
public final class SilentAcmService implements AutoCloseable
{
    private final Path socket;
    private final ServerSocketChannel listener;
    private SocketChannel client;
    private long received;

    private SilentAcmService(final Path socket, final ServerSocketChannel listener)
    {
        this.socket = socket;
        this.listener = listener;
    }

    /** Listens on {@code socket} (its directory created if need be). */
    public static SilentAcmService listen(final Path socket) throws IOException
    {
        Files.createDirectories(socket.getParent());
        return new SilentAcmService(socket, ServerSocketChannel.open(StandardProtocolFamily.UNIX)
            .bind(UnixDomainSocketAddress.of(socket)));
    }

    public Path socket()
    {
        return socket;
    }

    /** Blocks until the client has connected and sent one whole message; returns its header's length. */
    public int awaitQuestion() throws IOException
    {
        client = listener.accept();
        final ByteBuffer header = ByteBuffer.allocate(AcmHeader.LENGTH);
        readFully(header);
        final int length = new AcmHeader().wrap(new UnsafeBuffer(header.array()), 0, AcmHeader.LENGTH).length();
        readFully(ByteBuffer.allocate(length - AcmHeader.LENGTH));
        return length;
    }

    /** Reads until the client closes its end; returns every byte it sent, the first question's included. */
    public long receivedUntilClosed() throws IOException
    {
        final ByteBuffer rest = ByteBuffer.allocate(4096);
        int read;
        while ((read = client.read(rest.clear())) >= 0)
        {
            received += read;
        }
        return received;
    }

    private void readFully(final ByteBuffer into) throws IOException
    {
        while (into.hasRemaining())
        {
            if (client.read(into) < 0)
            {
                throw new IOException("the ACM client closed after " + (received + into.position()) + " bytes");
            }
        }
        received += into.position();
    }

    @Override
    public void close() throws IOException
    {
        try (listener; SocketChannel ignored = client)
        {
            Files.deleteIfExists(socket);
        }
    }
}
