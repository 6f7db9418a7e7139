package dev.rdmacm.acm;

import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.files.ibacm.HostsFile;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The {@code rdmacm acm-server} service: the ibacm client protocol on a unix stream socket and,
 * in {@code loop}/{@code open} mode, on a TCP port, served by one selector thread with non-blocking
 * I/O. The thread runs a duty cycle: select (bounded by the next lookup deadline), accept, read and
 * frame requests, write replies, then run completed lookups and expire overdue ones. The deadlines and
 * the clock are the event-loop kit's ({@link dev.rdmacm.loop.DeadlineTimers}, {@link NanoClock}); the
 * wait is a {@link Selector}, because the sockets are NIO channels, and its {@code wakeup} is what the
 * kit's eventfd is to the other loops.
 * <p>
 * {@link #close()} stops the thread, closes every socket and removes the socket and port files this
 * process created; the CLI calls it from a shutdown hook so SIGTERM leaves nothing behind.
 * <p>
 * Under abuse, as ibacm and then some:
 * <ul>
 *   <li>One instance per run directory: {@code ibacm.pid} locked with {@code lockf} before any file is
 *   touched ({@link AcmInstanceLock}); a live socket is never taken over ({@link AcmServerFiles}).</li>
 *   <li>Past {@code max_clients} a new connection is closed, as ibacm's "all connections busy -
 *   rejecting": at once when the client has sent its request (its {@code recv} then fails and
 *   librdmacm goes on without ACM), or when the client timeout passes, and at most
 *   {@link #MAX_REJECTING} wait so; a unix-socket client closed before its first {@code send}
 *   would die of SIGPIPE in librdmacm.</li>
 *   <li>A client that has not sent a whole request {@code client_timeout} after connecting or after
 *   its first bytes is closed; a client between requests is not (librdmacm keeps its connection).</li>
 *   <li>When {@code accept} fails (for lack of descriptors or memory: EMFILE, ENFILE, ENOBUFS, ENOMEM,
 *   or anything else) the listeners rest for {@link #ACCEPT_BACKOFF_NS} instead of spinning, and the
 *   failure is logged once per {@link #ACCEPT_LOG_INTERVAL_NS}.</li>
 *   <li>Any {@link Error} or unexpected exception on the thread is fatal: one log line, the sockets
 *   closed and the files removed, and the process ends with {@link #EXIT_FATAL} (a library that
 *   starts the server itself may pass its own handler), never a thread gone and a deaf server.</li>
 * </ul>
 */
public final class AcmServer implements AutoCloseable
{
    private static final int BACKLOG = 4096;
    /** The process status after a fatal error on the server thread: EX_SOFTWARE of {@code sysexits.h}. */
    public static final int EXIT_FATAL = 70;
    /** Connections past max_clients waiting for their first bytes before being closed. */
    static final int MAX_REJECTING = 64;
    static final long ACCEPT_BACKOFF_NS = 100_000_000L;
    static final long ACCEPT_LOG_INTERVAL_NS = 10_000_000_000L;

    /** What the server does after a fatal error on its thread, once the thread has stopped. */
    @FunctionalInterface
    interface FatalHandler
    {
        void onFatal(Throwable error);
    }

    private final AcmOptions options;
    private final AcmLog log;
    private final AcmServerFiles files;
    private final Selector selector;
    private final ServerSocketChannel unixListener;
    private final ServerSocketChannel tcpListener;
    private final AcmService service;
    private final AcmGidLookup addressResolver;
    private final AcmPathQuerier pathQuerier;
    private final List<AcmConnection> connections = new ArrayList<>();
    private final NanoClock clock;
    private final AcmInstanceLock lock;
    private final FatalHandler fatalHandler;
    private final AcmLogThrottle rejectLog;
    private final AcmLogThrottle acceptLog;
    private final long clientTimeoutNs;
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;
    private int tcpPort = -1;
    private long nextConnectionId = 1;
    private int rejecting;
    private long rejected;
    private volatile long acceptFailures;
    private volatile String lastAcceptFailure = "";
    private long acceptResumeNs;
    private boolean acceptPaused;
    private long nextSweepNs;
    private boolean closed;

    private AcmServer(final AcmOptions options, final List<AcmEndpoint> endpoints,
        final AcmGidLookup addressResolver, final AcmPathQuerier pathQuerier, final AcmLog log,
        final NanoClock clock, final FatalHandler fatalHandler) throws IOException
    {
        this.options = options;
        this.log = log;
        this.addressResolver = addressResolver;
        this.pathQuerier = pathQuerier;
        this.clock = clock;
        this.fatalHandler = fatalHandler;
        this.clientTimeoutNs = options.clientTimeout().toNanos();
        this.rejectLog = new AcmLogThrottle(log, 0, ACCEPT_LOG_INTERVAL_NS);
        this.acceptLog = new AcmLogThrottle(log, 0, ACCEPT_LOG_INTERVAL_NS);
        this.files = new AcmServerFiles(options.runDir(), !options.acmePlusKernelOnly());
        Files.createDirectories(options.runDir());
        this.lock = AcmInstanceLock.acquire(options.lockFile());
        ServerSocketChannel unix = null;
        ServerSocketChannel tcp = null;
        Selector opened = null;
        try
        {
            opened = Selector.open();
            files.clearStale();
            unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            unix.bind(UnixDomainSocketAddress.of(files.unixSocket()), BACKLOG);
            unix.configureBlocking(false);
            unix.register(opened, SelectionKey.OP_ACCEPT);
            files.unixSocket().toFile().setWritable(true, false);
            files.unixSocket().toFile().setReadable(true, false);
            files.publishUnixSocket();
            if (options.serverMode().servesTcp())
            {
                tcp = ServerSocketChannel.open(StandardProtocolFamily.INET);
                final InetAddress bindAddress = options.serverMode() == AcmServerMode.LOOP
                    ? InetAddress.getLoopbackAddress() : InetAddress.getByName("0.0.0.0");
                tcp.bind(new InetSocketAddress(bindAddress, options.serverPort()), BACKLOG);
                tcp.configureBlocking(false);
                tcp.register(opened, SelectionKey.OP_ACCEPT);
                tcpPort = ((InetSocketAddress)tcp.getLocalAddress()).getPort();
                files.publishPort(tcpPort);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            closeQuietly(tcp);
            closeQuietly(unix);
            if (opened != null)
            {
                opened.close();
            }
            files.remove();
            lock.close();
            throw new IOException("acm-server cannot listen in " + options.runDir() + ": " + ex.getMessage(), ex);
        }
        this.selector = opened;
        this.unixListener = unix;
        this.tcpListener = tcp;
        this.service = new AcmService(options, endpoints, addressResolver, pathQuerier, log,
            clock, selector::wakeup);
        this.thread = new Thread(this::run, "acm-server");
    }

    /**
     * Locks the run directory's {@code ibacm.pid}, binds the listeners, publishes the socket and port
     * files, preloads the caches the options name and starts the selector thread. A fatal error on
     * that thread ends the process with {@link #EXIT_FATAL} once the server is closed.
     *
     * @throws AcmAlreadyRunningException when ibacm or another server holds the lock file.
     */
    public static AcmServer start(final AcmOptions options, final List<AcmEndpoint> endpoints,
        final AcmGidLookup addressResolver, final AcmPathQuerier pathQuerier, final AcmLog log) throws IOException
    {
        final long startNs = System.nanoTime();
        return start(options, endpoints, addressResolver, pathQuerier, log, () -> System.nanoTime() - startNs,
            AcmServer::exitProcess);
    }

    /** The default {@link FatalHandler}: the shutdown hooks (the CLI's closes the server) run, the status is 70. */
    private static void exitProcess(final Throwable error)
    {
        try
        {
            System.exit(EXIT_FATAL);
        }
        catch (final Throwable again)
        {
            Runtime.getRuntime().halt(EXIT_FATAL);
        }
    }

    static AcmServer start(final AcmOptions options, final List<AcmEndpoint> endpoints,
        final AcmGidLookup addressResolver, final AcmPathQuerier pathQuerier, final AcmLog log,
        final NanoClock clock) throws IOException
    {
        return start(options, endpoints, addressResolver, pathQuerier, log, clock, AcmServer::exitProcess);
    }

    /**
     * As {@link #start(AcmOptions, List, AcmGidLookup, AcmPathQuerier, AcmLog)}, with cache lifetimes
     * and SA deadlines measured on {@code clock} (monotonic nanoseconds), so that tests can move time
     * themselves; after moving it they call {@link #wakeUp()} for the deadlines to be looked at again.
     */
    static AcmServer start(final AcmOptions options, final List<AcmEndpoint> endpoints,
        final AcmGidLookup addressResolver, final AcmPathQuerier pathQuerier, final AcmLog log,
        final NanoClock clock, final FatalHandler fatalHandler) throws IOException
    {
        final AcmServer server = new AcmServer(options, endpoints, addressResolver, pathQuerier, log, clock,
            fatalHandler);
        try
        {
            server.preload();
        }
        catch (final IOException | RuntimeException ex)
        {
            server.close();
            throw ex;
        }
        server.thread.start();
        log.log(0, "listening on " + server.files.unixSocket()
            + (server.tcpPort >= 0 ? " and TCP port " + server.tcpPort + " (" + server.files.portFile() + ")" : "")
            + ", " + endpoints.size() + " endpoint(s)");
        return server;
    }

    private void preload() throws IOException
    {
        for (final String name : options.ignored())
        {
            log.log(1, "option " + name + " is not used by this service");
        }
        if (options.routePreload())
        {
            final OpenSmPathDump dump = OpenSmPathDump.read(options.routeDataFile());
            int loaded = 0;
            for (final AcmEndpoint endpoint : service.endpoints())
            {
                for (final byte[] path : dump.pathsFrom(endpoint))
                {
                    service.preloadRoute(endpoint, path);
                    loaded++;
                }
            }
            log.log(0, "preloaded " + loaded + " route(s) from " + options.routeDataFile());
        }
        if (options.addrPreload())
        {
            final List<String> problems = new ArrayList<>();
            final HostsFile hosts = HostsFile.parseLenient(
                HostsFile.readLines(options.addrDataFile()), options.addrDataFile(), problems);
            problems.forEach(problem -> log.log(0, problem));
            for (final HostsFile.Host host : hosts.hosts())
            {
                service.preloadAddress(AcmAddress.of(host), host.gid());
            }
            log.log(0, "preloaded " + hosts.hosts().size() + " address(es) from " + options.addrDataFile());
        }
    }

    public AcmService service()
    {
        return service;
    }

    /** Runs {@code task} on the server thread, where the service may be used; callable from any thread. */
    void execute(final Runnable task)
    {
        service.execute(task);
    }

    /**
     * RDMA device {@code device} was removed: its endpoints are dropped on the server thread
     * ({@link AcmService#dropDevice}), the rest served as before. Callable from any thread, e.g. the one
     * that learns of the removal; a device with no endpoint here changes nothing.
     */
    public void deviceRemoved(final String device)
    {
        execute(() -> service.dropDevice(device));
    }

    /** The bound TCP port, or -1 in unix mode. */
    public int tcpPort()
    {
        return tcpPort;
    }

    /** Makes the selector thread look at its deadlines again, as after a change of the clock it was given. */
    void wakeUp()
    {
        selector.wakeup();
    }

    public AcmServerFiles files()
    {
        return files;
    }

    /** Connections currently open, for tests and logs. */
    public int connectionCount()
    {
        synchronized (connections)
        {
            return connections.size();
        }
    }

    /** Connections refused past max_clients since start. */
    long rejected()
    {
        return rejected;
    }

    /** Failed accepts (EMFILE and the like) since start. */
    long acceptFailures()
    {
        return acceptFailures;
    }

    /**
     * The last failed accept's text (empty before the first), logged or not: the log writes one line an
     * interval, and a test needs the failure the throttle held back.
     */
    String lastAcceptFailure()
    {
        return lastAcceptFailure;
    }

    private void run()
    {
        Throwable fatal = null;
        try
        {
            while (running)
            {
                final long nanos = nanosToWake();
                if (nanos < 0)
                {
                    selector.select();
                }
                else
                {
                    selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos) + 1));
                }
                final Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext())
                {
                    final SelectionKey key = keys.next();
                    keys.remove();
                    onKey(key);
                }
                service.doWork();
                final long now = clock.nanoTime();
                resumeAccepting(now);
                sweep(now);
            }
        }
        catch (final ClosedSelectorException ex)
        {
            if (running)
            {
                fatal = ex;
            }
        }
        catch (final Throwable ex)
        {
            fatal = ex;
        }
        finally
        {
            stopped.countDown();
        }
        if (fatal != null && running)
        {
            onFatal(fatal);
        }
    }

    /**
     * One line, the server closed (sockets, files it created, lock), then the handler: by default the
     * process exits with {@link #EXIT_FATAL}, whatever shutdown hooks it has.
     */
    private void onFatal(final Throwable error)
    {
        try
        {
            log.log(0, "fatal: " + error + " on the server thread; the service stops");
        }
        catch (final Throwable ignored)
        {
            // nothing more can be said: the service still stops
        }
        try
        {
            close();
        }
        catch (final Throwable ignored)
        {
            // out of memory, say: the process's end releases the rest
        }
        fatalHandler.onFatal(error);
    }

    /** Nanoseconds until the next lookup deadline, client timeout sweep or end of an accept pause; -1: none. */
    private long nanosToWake()
    {
        final long now = clock.nanoTime();
        long nanos = service.nanosToNextDeadline();
        if (acceptPaused)
        {
            nanos = earliest(nanos, Math.max(0, acceptResumeNs - now));
        }
        if (connectionCount() > 0)
        {
            nanos = earliest(nanos, Math.max(0, nextSweepNs - now));
        }
        return nanos;
    }

    private static long earliest(final long a, final long b)
    {
        return a < 0 ? b : Math.min(a, b);
    }

    private void onKey(final SelectionKey key)
    {
        if (!key.isValid())
        {
            return;
        }
        if (key.isAcceptable())
        {
            accept((ServerSocketChannel)key.channel());
            return;
        }
        final AcmConnection connection = (AcmConnection)key.attachment();
        if (connection.isRejected())
        {
            // its request is in: closing now makes the client's recv fail, and it goes on without ACM
            disconnected(connection, "all connections busy - rejected");
            return;
        }
        try
        {
            if (key.isWritable())
            {
                connection.flush();
            }
            if (key.isValid() && key.isReadable() && !connection.onReadable(service::onRequest))
            {
                disconnected(connection, "closed by the client");
            }
        }
        catch (final IOException ex)
        {
            disconnected(connection, ex.getMessage());
        }
        catch (final RuntimeException ex)
        {
            // a fault in one client's request costs that client, not the service (an Error is fatal)
            log.log(0, "client " + connection.id() + ": internal error " + ex + "; closing it");
            disconnected(connection, ex.toString());
        }
    }

    private void accept(final ServerSocketChannel listener)
    {
        while (!acceptPaused)
        {
            final SocketChannel channel;
            try
            {
                channel = listener.accept();
            }
            catch (final IOException ex)
            {
                acceptFailed(ex);
                return;
            }
            if (channel == null)
            {
                return;
            }
            final long now = clock.nanoTime();
            final boolean busy = serving() >= options.maxClients();
            if (busy && rejecting >= MAX_REJECTING)
            {
                rejected++;
                rejectLog.log(now, this::rejectingLine);
                closeQuietly(channel);
                continue;
            }
            try
            {
                channel.configureBlocking(false);
                final SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                final AcmConnection connection = new AcmConnection(nextConnectionId++, channel, key, this::forget,
                    clock, busy);
                key.attach(connection);
                synchronized (connections)
                {
                    connections.add(connection);
                    if (connections.size() == 1)
                    {
                        nextSweepNs = now + sweepInterval();
                    }
                }
                if (busy)
                {
                    rejecting++;
                    rejected++;
                    rejectLog.log(now, this::rejectingLine);
                }
                else
                {
                    log.log(1, "client " + connection.id() + " connected");
                }
            }
            catch (final IOException ex)
            {
                closeQuietly(channel);
                log.log(1, "client setup failed: " + ex.getMessage());
            }
        }
    }

    /** ibacm's words, with the bound. */
    private String rejectingLine()
    {
        return "all connections busy - rejecting (max_clients " + options.maxClients() + ")";
    }

    /** Connections being served: all but those waiting to be rejected. */
    private int serving()
    {
        synchronized (connections)
        {
            return connections.size() - rejecting;
        }
    }

    /**
     * A failed accept. Out of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM) the pending
     * connection stays in the backlog and the listener stays ready: the listeners rest for
     * {@link #ACCEPT_BACKOFF_NS} rather than spin. Every failure rests them, not only those four: the JDK
     * gives the errno only as strerror's text, which follows the locale, and a failure nobody foresaw
     * that repeats must not spin either; the cost is one pause of 100 ms for a client after a failure
     * that would not have repeated.
     * <p>
     * The counters are published last. Whoever reads {@link #acceptFailures()} and then moves the clock
     * (a test on its injected clock, an operator's probe) must find the pause already timed from before
     * the move: counted first, the pause read the moved clock once in some hundred tries in the kernel
     * guest, ended a back-off later than the reader reckoned, and the next try never came.
     */
    private void acceptFailed(final IOException ex)
    {
        final long now = clock.nanoTime();
        acceptPaused = true;
        acceptResumeNs = now + ACCEPT_BACKOFF_NS;
        setAcceptInterest(0);
        acceptLog.log(now, () -> "accept failed: " + ex.getMessage() + ", not accepting for "
            + TimeUnit.NANOSECONDS.toMillis(ACCEPT_BACKOFF_NS) + " ms");
        lastAcceptFailure = String.valueOf(ex);
        acceptFailures++;
    }

    private void resumeAccepting(final long now)
    {
        if (acceptPaused && now - acceptResumeNs >= 0)
        {
            acceptPaused = false;
            setAcceptInterest(SelectionKey.OP_ACCEPT);
        }
    }

    private void setAcceptInterest(final int ops)
    {
        for (final ServerSocketChannel listener : new ServerSocketChannel[] {unixListener, tcpListener})
        {
            if (listener != null)
            {
                final SelectionKey key = listener.keyFor(selector);
                if (key != null && key.isValid())
                {
                    key.interestOps(ops);
                }
            }
        }
    }

    private long sweepInterval()
    {
        return Math.max(1_000_000L, clientTimeoutNs / 4);
    }

    /** Closes the clients that took longer than client_timeout to send a request, and the rejected that waited as long. */
    private void sweep(final long now)
    {
        if (now - nextSweepNs < 0)
        {
            return;
        }
        nextSweepNs = now + sweepInterval();
        final List<AcmConnection> open;
        synchronized (connections)
        {
            if (connections.isEmpty())
            {
                return;
            }
            open = new ArrayList<>(connections);
        }
        for (final AcmConnection connection : open)
        {
            if (connection.isSilentSince(now, clientTimeoutNs))
            {
                disconnected(connection, connection.isRejected() ? "all connections busy - rejected"
                    : "no request within client_timeout " + options.clientTimeout().toMillis() + " ms");
            }
        }
    }

    private void disconnected(final AcmConnection connection, final String why)
    {
        if (!connection.isClosed() && !connection.isRejected())
        {
            log.log(1, "client " + connection.id() + " disconnected: " + why);
        }
        connection.close();
    }

    /** Runs once per connection when it closes: drops it. */
    private void forget(final AcmConnection connection)
    {
        synchronized (connections)
        {
            if (connections.remove(connection) && connection.isRejected())
            {
                rejecting--;
            }
        }
    }

    private static void closeQuietly(final SocketChannel channel)
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // the client is gone either way
        }
    }

    /**
     * Stops the thread, closes every socket, removes the socket and port files this process created
     * and releases the lock file. Idempotent.
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        running = false;
        selector.wakeup();
        if (thread.isAlive())
        {
            try
            {
                if (!stopped.await(10, TimeUnit.SECONDS))
                {
                    log.log(0, "selector thread did not stop within 10 s");
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        final List<AcmConnection> open;
        synchronized (connections)
        {
            open = new ArrayList<>(connections);
        }
        open.forEach(AcmConnection::close);
        closeQuietly(unixListener);
        closeQuietly(tcpListener);
        try
        {
            selector.close();
        }
        catch (final IOException ignored)
        {
            // closing anyway
        }
        files.remove();
        lock.close();
        addressResolver.close();
        pathQuerier.close();
        log.log(0, "stopped after " + service.requests() + " request(s)"
            + (service.counters().overflows() > 0 ? ", " + service.counters().overflows()
            + " lookup(s) refused at sa_queue_depth " + options.saQueueDepth() : "")
            + (rejected > 0 ? ", " + rejected + " connection(s) rejected past max_clients" : ""));
    }

    private static void closeQuietly(final ServerSocketChannel channel)
    {
        if (channel == null)
        {
            return;
        }
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // nothing left to do on a listener that will not close
        }
    }
}
