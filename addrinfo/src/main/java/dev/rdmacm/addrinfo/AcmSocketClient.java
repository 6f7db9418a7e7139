package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.protocol.acm.AcmMessage;

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
 * connection up as librdmacm gives up a failed one. A TCP connect still under way is given the same
 * time ({@link AcmServiceSocket} does not block in connect).
 * <p>
 * The bytes are {@link AcmResolveMessage}'s and the socket {@link AcmServiceSocket}'s, which the CM
 * conductor's nonblocking exchange shares; this client only waits, on the caller's thread.
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
    private final AcmResolveMessage message = new AcmResolveMessage();
    private boolean initialised;
    /**
     * Set once {@code ucma_ib_init} found no service or the connection was given up: from then on no
     * question is asked, for the life of the client. Volatile, so that a caller can skip the client
     * without waiting for the lock an exchange in progress holds.
     */
    private volatile boolean noService;
    private AcmServiceSocket connection;

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
        return connection != null;
    }

    @Override
    public synchronized Optional<AcmAnswer> resolve(final AcmQuery query)
    {
        if (!initialised)
        {
            initialised = true;
            connection = connect();
            noService = connection == null;
        }
        if (connection == null)
        {
            return Optional.empty();
        }
        final int length = message.encode(query);
        try
        {
            final int received;
            if (!connection.send(message, length) || !connection.await(Libc.POLLIN, timeoutMillis()) ||
                (received = connection.receive(message)) <= 0)
            {
                // a short send, no reply in time (a late one would be read as the next), or the service left
                drop();
                return Optional.empty();
            }
            return message.decode(received);
        }
        catch (final NativeCallException ex)
        {
            // librdmacm: a failed send or recv is no answer
            drop();
            return Optional.empty();
        }
    }

    /** {@code ucma_ib_init}'s connect; null for no service. */
    private AcmServiceSocket connect()
    {
        final AcmServiceSocket opened;
        try
        {
            opened = AcmServiceSocket.open(AcmServiceAddress.read(portFile, socket));
        }
        catch (final NativeCallException | IllegalArgumentException ex)
        {
            return null;
        }
        try
        {
            if (opened.connected() || opened.await(Libc.POLLOUT, timeoutMillis()) && opened.finishConnect())
            {
                return opened;
            }
        }
        catch (final NativeCallException ex)
        {
            // the TCP connect failed: no service
        }
        opened.close();
        return null;
    }

    private int timeoutMillis()
    {
        return (int)Math.min(Integer.MAX_VALUE, Math.max(1, replyTimeout.toMillis()));
    }

    private void drop()
    {
        if (connection != null)
        {
            connection.close();
        }
        connection = null;
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
            (!initialised ? "not yet connected" : connection != null ? "connected" : "no service") + "}";
    }
}
