package dev.rdmacm.addrinfo;

import dev.rdmacm.protocol.acm.AcmEpAddrData;
import dev.rdmacm.protocol.acm.AcmEpFlags;
import dev.rdmacm.protocol.acm.AcmEpType;
import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.protocol.acm.AcmMessage;
import dev.rdmacm.protocol.acm.AcmOp;
import dev.rdmacm.protocol.path.IbvPathData;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * librdmacm 44's ACM client ({@code librdmacm/acm.c}) over the ibacm socket protocol
 * ({@code infiniband/acm.h}):
 * <ul>
 * <li>{@code ucma_ib_init}: once, at the first query, connect to {@code 127.0.0.1} on the port read
 *     from the port file (librdmacm's {@code IBACM_PORT_FILE}, Debian's {@code /run/ibacm.port}) when
 *     it holds a number, else to the unix socket ({@code IBACM_SERVER_PATH}, {@code /run/ibacm.sock}).
 *     When that fails there is no ACM for the life of the client: librdmacm never tries again.</li>
 * <li>{@code ucma_ib_resolve}: one RESOLVE, the SOURCE and DEST entries of the IP addresses and a PATH
 *     entry for AF_IB addresses or a hint route, then one {@code recv} of at most
 *     {@link AcmMessage#MAX_LENGTH} bytes; a short reply, a reply whose length is not the header's, or
 *     a non-zero status is "no answer".</li>
 * <li>{@code ucma_ib_save_resp}: the route is the PATH entries, copied as consecutive 72-byte
 *     {@code ibv_path_data} from the first of them, each with its type zeroed; the source is the first
 *     IP/IP6 entry flagged SOURCE.</li>
 * </ul>
 * One difference, on purpose: librdmacm waits for the reply forever; this client waits
 * {@code replyTimeout} and then, since a late reply would be taken for the next one, gives the
 * connection up as librdmacm gives up a failed one.
 * <pre>
 *   request: acm_hdr (16) | SOURCE ADDRESS_IP[6] (72) | DEST ADDRESS_IP[6] (72) | PATH (72)   (each optional)
 *   reply:   acm_hdr (16, status 0, length = bytes received) | entries (72 each), PATH flags 0x2b
 * </pre>
 * Thread-safe: one exchange at a time, as librdmacm's {@code acm_lock} has it.
 */
public final class AcmSocketClient implements AcmClient, AutoCloseable
{
    /** librdmacm 44's {@code IBACM_PORT_FILE} as Debian builds it ({@code CMAKE_INSTALL_RUNDIR} /run). */
    public static final Path LIBRDMACM_PORT_FILE = Path.of("/run/ibacm.port");
    /** librdmacm 44's {@code IBACM_SERVER_PATH} as Debian builds it. */
    public static final Path LIBRDMACM_SOCKET = Path.of("/run/ibacm.sock");
    public static final Duration DEFAULT_REPLY_TIMEOUT = Duration.ofSeconds(5);

    private final Path portFile;
    private final Path socket;
    private final Duration replyTimeout;
    private final UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(AcmMessage.MAX_LENGTH));
    private final AcmHeader header = new AcmHeader();
    private final AcmEpAddrData entry = new AcmEpAddrData();
    private boolean initialised;
    /**
     * Set once {@code ucma_ib_init} found no service or the connection was given up: from then on no
     * question is asked, for the life of the client. Volatile, so that a caller can skip the client
     * without waiting for the lock an exchange in progress holds.
     */
    private volatile boolean noService;
    private SocketChannel channel;
    private Selector selector;
    private long tid;

    /**
     * @param portFile     read first; when it holds a port number the client connects to 127.0.0.1 there.
     * @param socket       the unix socket otherwise.
     * @param replyTimeout how long one reply may take.
     */
    public AcmSocketClient(final Path portFile, final Path socket, final Duration replyTimeout)
    {
        if (replyTimeout.isNegative() || replyTimeout.isZero())
        {
            throw new IllegalArgumentException("ACM reply timeout " + replyTimeout + " must be positive");
        }
        this.portFile = portFile;
        this.socket = socket;
        this.replyTimeout = replyTimeout;
    }

    /** The files librdmacm 44 uses. */
    public static AcmSocketClient librdmacm()
    {
        return new AcmSocketClient(LIBRDMACM_PORT_FILE, LIBRDMACM_SOCKET, DEFAULT_REPLY_TIMEOUT);
    }

    /**
     * Whether this client will never ask again: {@code ucma_ib_init} found no service, or the connection
     * was given up. False before the first query. Takes no lock.
     */
    public boolean hasNoService()
    {
        return noService;
    }

    /** Whether {@code ucma_ib_init} found a service; false also before the first query. */
    public synchronized boolean connected()
    {
        return channel != null;
    }

    @Override
    public synchronized Optional<AcmAnswer> resolve(final AcmQuery query)
    {
        if (!initialised)
        {
            initialised = true;
            connect();
            noService = channel == null;
        }
        if (channel == null)
        {
            return Optional.empty();
        }
        final int length = encode(query);
        try
        {
            final ByteBuffer out = message.byteBuffer().duplicate().limit(length).position(0);
            while (out.hasRemaining())
            {
                channel.write(out);
            }
            final int received = receiveOnce();
            return decode(received);
        }
        catch (final IOException ex)
        {
            // librdmacm: a failed send or recv is no answer; a timed-out reply would be read as the next one
            drop();
            return Optional.empty();
        }
    }

    private void connect()
    {
        final SocketAddress address = portFileAddress();
        try
        {
            final SocketChannel opened = address instanceof UnixDomainSocketAddress ?
                SocketChannel.open(StandardProtocolFamily.UNIX) : SocketChannel.open();
            try
            {
                opened.connect(address);
                opened.configureBlocking(false);
                selector = Selector.open();
                opened.register(selector, SelectionKey.OP_READ);
                channel = opened;
            }
            catch (final IOException | RuntimeException ex)
            {
                opened.close();
            }
        }
        catch (final IOException ex)
        {
            channel = null;
        }
    }

    /** {@code ucma_set_server_port}: a number in the port file picks TCP on loopback; else the unix socket. */
    private SocketAddress portFileAddress()
    {
        try
        {
            final String text = Files.readString(portFile, StandardCharsets.US_ASCII).strip();
            final int port = Integer.parseInt(text.split("\\s+")[0]);
            if (port > 0 && port <= 0xffff)
            {
                return new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
            }
        }
        catch (final IOException | NumberFormatException | SecurityException ex)
        {
            // no port file, or no number in it: librdmacm's server_port 0
        }
        return UnixDomainSocketAddress.of(socket);
    }

    private int encode(final AcmQuery query)
    {
        message.setMemory(0, AcmMessage.MAX_LENGTH, (byte)0);
        int entries = 0;
        if (query.source() != null)
        {
            ipEntry(entries++, AcmEpFlags.SOURCE, query.source());
        }
        if (query.destination() != null)
        {
            ipEntry(entries++, AcmEpFlags.DEST | (query.noDelay() ? AcmEpFlags.NODELAY : 0), query.destination());
        }
        if (query.pathRecord() != null)
        {
            entry.wrap(message, entryOffset(entries++)).type(AcmEpType.PATH).info(query.pathRecord());
        }
        final int length = AcmMessage.resolveLength(entries);
        header.wrap(message, 0).version(AcmHeader.VERSION).opcode(AcmOp.RESOLVE).length(length).tid(++tid);
        return length;
    }

    private void ipEntry(final int index, final int flags, final RdmaSockaddr address)
    {
        final boolean ipv4 = address instanceof Ipv4Sockaddr;
        final byte[] bytes = ipv4 ? ((Ipv4Sockaddr)address).addressBytes() : ((Ipv6Sockaddr)address).address();
        entry.wrap(message, entryOffset(index)).flags(flags).type(ipv4 ? AcmEpType.ADDRESS_IP : AcmEpType.ADDRESS_IP6)
            .info(bytes);
    }

    private static int entryOffset(final int index)
    {
        return AcmHeader.LENGTH + index * AcmEpAddrData.LENGTH;
    }

    /** One read, as librdmacm's one {@code recv}, after waiting at most the reply timeout for it. */
    private int receiveOnce() throws IOException
    {
        selector.selectedKeys().clear();
        if (selector.select(Math.max(1, replyTimeout.toMillis())) == 0)
        {
            throw new IOException("no ACM reply within " + replyTimeout.toMillis() + " ms");
        }
        final ByteBuffer in = message.byteBuffer().duplicate().clear();
        message.setMemory(0, AcmMessage.MAX_LENGTH, (byte)0);
        final int read = channel.read(in);
        if (read < 0)
        {
            throw new IOException("the ACM service closed the connection");
        }
        return read;
    }

    private Optional<AcmAnswer> decode(final int received)
    {
        if (received < AcmHeader.LENGTH)
        {
            return Optional.empty();
        }
        header.wrap(message, 0, received);
        if (received != header.length() || header.status() != 0)
        {
            return Optional.empty();
        }
        final int count = (received - AcmHeader.LENGTH) / AcmEpAddrData.LENGTH;
        int firstPath = -1;
        int paths = 0;
        RdmaSockaddr source = null;
        for (int i = 0; i < count; i++)
        {
            entry.wrap(message, entryOffset(i));
            final int type = entry.type();
            if (type == AcmEpType.PATH)
            {
                entry.type(0);
                firstPath = firstPath < 0 ? i : firstPath;
                paths++;
            }
            else if ((type == AcmEpType.ADDRESS_IP || type == AcmEpType.ADDRESS_IP6) && source == null &&
                entry.hasFlag(AcmEpFlags.SOURCE))
            {
                source = sourceOf(type);
            }
        }
        final byte[] route = new byte[paths * IbvPathData.LENGTH];
        if (paths > 0)
        {
            // ucma_ib_save_resp copies path_cnt entries from the first PATH entry on, consecutive or not
            final int available = Math.min(route.length, AcmMessage.MAX_LENGTH - entryOffset(firstPath));
            message.getBytes(entryOffset(firstPath), route, 0, available);
        }
        return Optional.of(new AcmAnswer(route, source));
    }

    private RdmaSockaddr sourceOf(final int type)
    {
        final byte[] info = new byte[AcmEpAddrData.INFO_LENGTH];
        entry.getInfo(info);
        if (type == AcmEpType.ADDRESS_IP)
        {
            return new Ipv4Sockaddr(new UnsafeBuffer(info).getInt(0, ByteOrder.BIG_ENDIAN), 0);
        }
        final byte[] address = new byte[AcmEpAddrData.IPV6_LENGTH];
        System.arraycopy(info, 0, address, 0, address.length);
        return new Ipv6Sockaddr(address, 0, 0, 0);
    }

    private void drop()
    {
        try
        {
            if (selector != null)
            {
                selector.close();
            }
            if (channel != null)
            {
                channel.close();
            }
        }
        catch (final IOException ignored)
        {
            // closing a socket that already failed
        }
        selector = null;
        channel = null;
        noService = true;
    }

    /** {@code ucma_ib_cleanup}. */
    @Override
    public synchronized void close()
    {
        drop();
    }

    @Override
    public String toString()
    {
        return "AcmSocketClient{port file " + portFile + ", socket " + socket + ", " +
            (!initialised ? "not yet connected" : channel != null ? "connected" : "no service") + "}";
    }
}
