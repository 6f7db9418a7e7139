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
import java.nio.charset.StandardCharsets;
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
 * {@link #close()} stops the thread, closes every socket and removes the socket and port files; the
 * CLI calls it from a shutdown hook so SIGTERM leaves nothing behind.
 */
public final class AcmServer implements AutoCloseable
{
    private static final int BACKLOG = 4096;

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
    private final Thread thread;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean running = true;
    private int tcpPort = -1;
    private long nextConnectionId = 1;
    private boolean closed;

    private AcmServer(final AcmOptions options, final List<AcmEndpoint> endpoints,
        final AcmGidLookup addressResolver, final AcmPathQuerier pathQuerier, final AcmLog log,
        final NanoClock clock) throws IOException
    {
        this.options = options;
        this.log = log;
        this.addressResolver = addressResolver;
        this.pathQuerier = pathQuerier;
        this.files = new AcmServerFiles(options.runDir(), !options.acmePlusKernelOnly());
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
     * Binds the listeners, publishes the socket and port files, preloads the caches the options name
     * and starts the selector thread.
     */
    public static AcmServer start(final AcmOptions options, final List<AcmEndpoint> endpoints,
        final AcmGidLookup addressResolver, final AcmPathQuerier pathQuerier, final AcmLog log) throws IOException
    {
        final long startNs = System.nanoTime();
        return start(options, endpoints, addressResolver, pathQuerier, log, () -> System.nanoTime() - startNs);
    }

    /**
     * As {@link #start(AcmOptions, List, AcmGidLookup, AcmPathQuerier, AcmLog)}, with cache lifetimes
     * and SA deadlines measured on {@code clock} (monotonic nanoseconds), so that tests can move time
     * themselves; after moving it they call {@link #wakeUp()} for the deadlines to be looked at again.
     */
    static AcmServer start(final AcmOptions options, final List<AcmEndpoint> endpoints,
        final AcmGidLookup addressResolver, final AcmPathQuerier pathQuerier, final AcmLog log,
        final NanoClock clock) throws IOException
    {
        final AcmServer server = new AcmServer(options, endpoints, addressResolver, pathQuerier, log, clock);
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
                Files.readAllLines(options.addrDataFile(), StandardCharsets.UTF_8), options.addrDataFile(), problems);
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

    private void run()
    {
        try
        {
            while (running)
            {
                final long nanos = service.nanosToNextDeadline();
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
            }
        }
        catch (final IOException | ClosedSelectorException ex)
        {
            if (running)
            {
                log.log(0, "selector failed: " + ex);
            }
        }
        finally
        {
            stopped.countDown();
        }
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
            log.log(0, "client " + connection.id() + ": internal error " + ex);
        }
    }

    private void accept(final ServerSocketChannel listener)
    {
        while (true)
        {
            if (connectionCount() >= options.maxClients())
            {
                // leave the rest in the backlog until a client leaves
                return;
            }
            final SocketChannel channel;
            try
            {
                channel = listener.accept();
                if (channel == null)
                {
                    return;
                }
                channel.configureBlocking(false);
                final SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                final AcmConnection connection = new AcmConnection(nextConnectionId++, channel, key, this::forget);
                key.attach(connection);
                synchronized (connections)
                {
                    connections.add(connection);
                }
                log.log(1, "client " + connection.id() + " connected");
            }
            catch (final IOException ex)
            {
                log.log(0, "accept failed: " + ex.getMessage());
                return;
            }
        }
    }

    private void disconnected(final AcmConnection connection, final String why)
    {
        if (!connection.isClosed())
        {
            log.log(1, "client " + connection.id() + " disconnected: " + why);
        }
        connection.close();
    }

    /** Runs once per connection when it closes: drops it and takes a waiting client from the backlog. */
    private void forget(final AcmConnection connection)
    {
        final boolean removed;
        synchronized (connections)
        {
            removed = connections.remove(connection);
        }
        if (removed && running)
        {
            acceptBacklog();
        }
    }

    private void acceptBacklog()
    {
        if (unixListener != null)
        {
            accept(unixListener);
        }
        if (tcpListener != null)
        {
            accept(tcpListener);
        }
    }

    /** Stops the thread, closes every socket and removes the socket and port files. Idempotent. */
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
        addressResolver.close();
        pathQuerier.close();
        log.log(0, "stopped after " + service.requests() + " request(s)");
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
