package dev.rdmacm.sa;

import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.sa.transport.FabricSpec;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.sa.transport.MadTransport;
import dev.rdmacm.sa.transport.MadTransportException;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.AgentRunner;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A client of one Subnet Administrator over one {@link MadTransport}: submit {@link SaRequest}s from
 * any thread, get {@link CompletableFuture}s that always complete by the request's deadline, with an
 * {@link SaResponse} or an {@link SaQueryException} naming the {@link SaError}.
 * <p>
 * One engine thread ({@link SaEngine}, an Agrona agent) does all the work; when there is none it
 * blocks in the transport until a MAD, a query or a deadline comes. Futures complete on that
 * thread: callers that chain slow work should use the {@code *Async} variants.
 */
public final class SaClient implements AutoCloseable
{
    private final MadTransport transport;
    private final SaEngine engine;
    private final SaCounters counters = new SaCounters();
    private final AgentRunner runner;
    private volatile Throwable engineFailure;

    private SaClient(final MadTransport transport, final SaClientConfig config, final NanoClock clock,
        final TransitionListener<SaTransaction, SaTransaction.State> transitions)
    {
        this.transport = transport;
        this.engine = new SaEngine(transport, config, counters, clock, transitions);
        final ErrorHandler errors = throwable -> engineFailure = throwable;
        this.runner = new AgentRunner(engine.idleStrategy(), errors, null, engine);
    }

    /**
     * Attaches to the fabric {@code fabric} names as {@code --fabric} takes it ({@link FabricSpec#parse}:
     * {@code verbs[:DEV[:PORT[:sa-gid=GID]]]} or {@code ibsim:HOST:PORT:NODE}), its transport opened
     * within {@code openTimeout}, and starts the client over it.
     *
     * @throws IllegalArgumentException naming the rule {@code fabric} breaks.
     * @throws MadTransportException    when the transport does not open (no such device, no ibsim there).
     */
    public static SaClient attach(final String fabric, final Duration openTimeout, final SaClientConfig config)
        throws MadTransportException
    {
        return start(FabricSpec.parse(fabric).open(openTimeout), config);
    }

    /** Starts the engine thread over {@code transport}; the client owns the transport from now on and closes it. */
    public static SaClient start(final MadTransport transport, final SaClientConfig config)
    {
        return start(transport, config, NanoClock.SYSTEM);
    }

    /**
     * As {@link #start(MadTransport, SaClientConfig)}, with every deadline, retry interval and cache
     * lifetime measured on {@code clock}. A clock that is not {@link NanoClock#SYSTEM} must be moved by
     * its owner, who then calls {@link #wakeUp()} so that the engine looks at its timers again.
     */
    public static SaClient start(final MadTransport transport, final SaClientConfig config, final NanoClock clock)
    {
        return start(transport, config, clock, TransitionListener.none());
    }

    /** The same, with every transaction's state changes traced (tests). */
    static SaClient start(final MadTransport transport, final SaClientConfig config, final NanoClock clock,
        final TransitionListener<SaTransaction, SaTransaction.State> transitions)
    {
        final SaClient client = new SaClient(transport, config, clock, transitions);
        AgentRunner.startOnThread(client.runner);
        return client;
    }

    /** Any thread: makes the engine look at its timers now, as after its clock was moved. */
    public void wakeUp()
    {
        transport.wakeUp();
    }

    /**
     * Sends {@code request} to the SA; the future completes within {@code timeout} (plus the engine's
     * timer tick, about 1 ms).
     */
    public CompletableFuture<SaResponse> query(final SaRequest request, final Duration timeout)
    {
        if (timeout.isNegative() || timeout.isZero())
        {
            throw new IllegalArgumentException("timeout " + timeout + " must be positive");
        }
        final CompletableFuture<SaResponse> result = new CompletableFuture<>();
        final long timeoutNanos = timeout.toNanos();
        if (runner.isClosed())
        {
            result.completeExceptionally(new SaQueryException(SaError.CLOSED, -1, request.description() + ": the SA client is closed"));
            return result;
        }
        if (!engine.offer(() -> engine.submit(request, timeoutNanos, result)))
        {
            result.completeExceptionally(new SaQueryException(SaError.NO_RESOURCES, -1,
                request.description() + ": the SA client's command queue is full"));
        }
        return result;
    }

    /** Forgets every cached answer. */
    public void invalidateCache()
    {
        engine.offer(() -> engine.invalidate(null));
    }

    /** Forgets the cached answer of one query (its {@link SaRequest#cacheKey()}). */
    public void invalidateCache(final Object cacheKey)
    {
        engine.offer(() -> engine.invalidate(cacheKey));
    }

    public SaCounters counters()
    {
        return counters;
    }

    public LocalPort localPort()
    {
        return transport.localPort();
    }

    /**
     * The engine thread, or null before it started: for whoever watches its CPU time (ThreadMXBean),
     * as the SA benchmarks do to charge the client alone.
     */
    public Thread engineThread()
    {
        return runner.thread();
    }

    /** The error that stopped the engine thread, or null while it runs. */
    public Throwable engineFailure()
    {
        return engineFailure;
    }

    /** Stops the engine thread (outstanding queries fail with {@link SaError#CLOSED}) and closes the transport. */
    @Override
    public void close()
    {
        try
        {
            engine.requestClose();
            runner.close((int)TimeUnit.SECONDS.toMillis(5), thread -> thread.interrupt());
        }
        finally
        {
            transport.close();
        }
    }
}
