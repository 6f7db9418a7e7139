package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.AcmAnswer;
import dev.rdmacm.addrinfo.AcmServiceSocket;
import dev.rdmacm.addrinfo.AcmQuery;
import dev.rdmacm.addrinfo.AcmResolveMessage;
import dev.rdmacm.addrinfo.AcmServiceAddress;
import dev.rdmacm.addrinfo.RdmaGetAddrInfo;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.PollSet;

import java.util.ArrayDeque;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code ucma_set_ib_route}'s question to the ACM service, on the conductor and never blocking it:
 * {@code rdma_getaddrinfo(NULL, NULL, hints)} with {@code RAI_ROUTEONLY}, the source's family and the
 * id's two addresses ({@link RdmaGetAddrInfo#routeOnlyQuestion}), over librdmacm's ACM socket, which is
 * a nonblocking descriptor in the conductor's {@link PollSet}. The bytes are addrinfo's
 * {@link AcmResolveMessage} and the socket its {@link AcmServiceSocket}, as for the blocking client of
 * {@code rdma_getaddrinfo}; what is here is only the waiting.
 * <pre>
 *   UNASKED        ─ connect: connected ─► READY; under way (TCP) ─► CONNECTING; no service ─► NO_SERVICE
 *   CONNECTING     ─ writable, SO_ERROR 0 ─► READY; refused, reply timer ─► NO_SERVICE
 *   READY          ─ next question sent ─► AWAITING_REPLY; readable (EOF, bytes unasked) ─► NO_SERVICE
 *   AWAITING_REPLY ─ the one recv ─► READY; EOF, reset, short send, reply timer ─► NO_SERVICE
 *   NO_SERVICE     final: every question is answered with nothing
 * </pre>
 * As librdmacm's {@code ucma_ib_init}, the socket is connected once, at the first question, and
 * without a service never again; as its {@code acm_lock}, one question is out at a time and the others
 * queue in order, each id getting its own answer. The reply timer (the conductor's clock,
 * {@link AcmFirstRoute#replyTimeout}) bounds a TCP connect under way and each reply; when it fires the
 * connection is given up as {@code AcmSocketClient} gives it up (a late reply would be read as the next
 * one's). Giving up answers the question out and every queued one with nothing, and the kernel's route
 * follows for each. Every answer goes back as {@link IdCommand.AcmAnswered}, queued, so the route phase
 * never runs inside this exchange's handler.
 * <p>
 * The conductor's thread only; {@link #close} once the loop has ended.
 */
final class AcmRouteExchange implements AutoCloseable
{
    /** Where the socket is; every change goes through {@link #transition}. */
    enum State
    {
        /** No question asked yet: {@code ucma_ib_init} has not run. */
        UNASKED,
        /** A TCP connect to loopback under way. */
        CONNECTING,
        /** Connected, no question out. */
        READY,
        /** One question out; the reply timer runs. */
        AWAITING_REPLY,
        /** No service, or the connection was given up: no question is asked again. */
        NO_SERVICE
    }

    static final TransitionTable<State> TRANSITIONS = TransitionTable.of("AcmRouteExchange", State.class)
        .allow(State.UNASKED, State.CONNECTING, State.READY, State.NO_SERVICE)
        .allow(State.CONNECTING, State.READY, State.NO_SERVICE)
        .allow(State.READY, State.AWAITING_REPLY, State.NO_SERVICE)
        .allow(State.AWAITING_REPLY, State.READY, State.NO_SERVICE)
        .build();

    private static final System.Logger LOG = System.getLogger(AcmRouteExchange.class.getName());
    private static final int TIMER_EXPIRY_LIMIT = 1;

    /** One question: the route that waits for it and where its answer goes (null for none). */
    private record Question(PendingRoute route, AcmQuery query, Consumer<byte[]> answer)
    {
    }

    private final AcmFirstRoute options;
    private final PollSet pollSet;
    private final NanoClock clock;
    private final DeadlineTimers<AcmRouteExchange> timers;
    private final DeadlineTimers.Expiry<AcmRouteExchange> onTimer = (exchange, timerId, now) -> timedOut();
    private final PollSet.ReadyHandler onReady = this::onReady;
    private final ArrayDeque<Question> questions = new ArrayDeque<>();
    private final AcmResolveMessage message = new AcmResolveMessage();
    private AcmServiceSocket connection;
    private Question outstanding;
    private long timerId = DeadlineTimers.NULL_TIMER;
    /** Volatile: a caller reads {@link #enabled} to know that its route needs no ACM question ({@link CallerRoute}). */
    private volatile State state = State.UNASKED;
    private volatile boolean closed;

    /**
     * @param options the ACM-first route's settings ({@link AcmFirstRoute#OFF}: never asks).
     * @param pollSet the conductor's, which the socket joins.
     * @param clock   the conductor's, on which the reply timer runs.
     */
    AcmRouteExchange(final AcmFirstRoute options, final PollSet pollSet, final NanoClock clock)
    {
        this.options = options;
        this.pollSet = pollSet;
        this.clock = clock;
        this.timers = new DeadlineTimers<>(clock);
    }

    /**
     * Whether resolveRoute asks ACM first: on, and no service found absent yet. librdmacm connects once
     * ({@code ucma_ib_init}) and, without a service, never asks again.
     */
    boolean enabled()
    {
        return options.enabled() && state != State.NO_SERVICE && !closed;
    }

    State state()
    {
        return state;
    }

    /**
     * Asks for {@code route}'s path; {@code answer} gets the route (72-byte {@code ibv_path_data}
     * records, possibly none) or null when no service answered, later, on the conductor (or at once,
     * when there is no service).
     */
    void ask(final PendingRoute route, final RdmaSockaddr source, final RdmaSockaddr destination,
        final Consumer<byte[]> answer)
    {
        if (!enabled())
        {
            answer.accept(null);
            return;
        }
        questions.add(new Question(route, RdmaGetAddrInfo.routeOnlyQuestion(source, destination), answer));
        if (state == State.UNASKED)
        {
            connect();
        }
        else if (state == State.READY)
        {
            sendNext();
        }
    }

    /** The conductor's duty cycle: the reply timer. */
    int expireTimers()
    {
        return timers.count() == 0 ? 0 : timers.expire(clock.nanoTime(), onTimer, TIMER_EXPIRY_LIMIT);
    }

    /** How long the conductor may wait before the reply timer fires; {@link Long#MAX_VALUE}: none runs. */
    long nanosToDeadline(final long nowNanos)
    {
        return timers.nanosToEarliest(nowNanos);
    }

    /** {@code ucma_ib_init}: once, at the first question; the port file is read now, as librdmacm reads it. */
    private void connect()
    {
        final AcmServiceAddress address = AcmServiceAddress.read(options.portFile(), options.socket());
        try
        {
            connection = AcmServiceSocket.open(address);
        }
        catch (final NativeCallException | IllegalArgumentException noService)
        {
            LOG.log(System.Logger.Level.DEBUG, () -> "no ACM service at " + address + ": " + noService.getMessage());
            giveUp();
            return;
        }
        if (connection.connected())
        {
            pollSet.add(connection.fd(), Libc.POLLIN, onReady);
            transition(State.READY);
            sendNext();
            return;
        }
        pollSet.add(connection.fd(), Libc.POLLOUT, onReady);
        transition(State.CONNECTING);
        startTimer();
    }

    private int onReady(final int fd, final int revents)
    {
        switch (state)
        {
            case CONNECTING -> onConnected();
            case AWAITING_REPLY -> onReply();
            // readable with no question out: the service left (EOF), or sent what no one asked, which the
            // next question would read as its reply
            default -> giveUp();
        }
        return 1;
    }

    /** CONNECTING, writable or failed. */
    private void onConnected()
    {
        try
        {
            if (!connection.finishConnect())
            {
                return;
            }
        }
        catch (final NativeCallException refused)
        {
            giveUp();
            return;
        }
        stopTimer();
        pollSet.watch(connection.fd(), Libc.POLLIN);
        transition(State.READY);
        sendNext();
    }

    /** READY: the next question still wanted goes out; one at a time, as librdmacm's {@code acm_lock}. */
    private void sendNext()
    {
        Question next;
        while ((next = questions.poll()) != null)
        {
            if (next.route.state != PendingRoute.State.ACM_QUERY)
            {
                continue; // the id went away while its question queued: no one waits for the answer
            }
            final int length = message.encode(next.query);
            outstanding = next;
            transition(State.AWAITING_REPLY);
            // before the bytes leave: the reply's time is counted from the clock the question went out on
            startTimer();
            try
            {
                if (!connection.send(message, length))
                {
                    giveUp();
                }
            }
            catch (final NativeCallException broken)
            {
                giveUp();
            }
            return;
        }
    }

    /** AWAITING_REPLY, readable: librdmacm's one {@code recv}. */
    private void onReply()
    {
        final int received;
        try
        {
            received = connection.receive(message);
        }
        catch (final NativeCallException broken)
        {
            giveUp();
            return;
        }
        if (received < 0)
        {
            return;
        }
        if (received == 0)
        {
            giveUp();
            return;
        }
        stopTimer();
        final Optional<AcmAnswer> answer = message.decode(received);
        final Question answered = outstanding;
        outstanding = null;
        transition(State.READY);
        answered.answer.accept(answer.map(AcmAnswer::route).orElse(null));
        sendNext();
    }

    /** CONNECTING or AWAITING_REPLY at the reply timer. */
    private void timedOut()
    {
        timerId = DeadlineTimers.NULL_TIMER;
        LOG.log(System.Logger.Level.DEBUG, () -> "no ACM " + (state == State.CONNECTING ? "connection" : "reply") +
            " within " + options.replyTimeout().toMillis() + " ms: the connection is given up");
        giveUp();
    }

    /** No service, or the connection is given up: every question waiting is answered with nothing. */
    private void giveUp()
    {
        stopTimer();
        if (connection != null)
        {
            pollSet.remove(connection.fd());
            connection.close();
        }
        transition(State.NO_SERVICE);
        answerNothing();
    }

    private void answerNothing()
    {
        final Question out = outstanding;
        outstanding = null;
        if (out != null)
        {
            out.answer.accept(null);
        }
        Question queued;
        while ((queued = questions.poll()) != null)
        {
            queued.answer.accept(null);
        }
    }

    private void startTimer()
    {
        timerId = timers.schedule(this, clock.nanoTime() + options.replyTimeout().toNanos());
    }

    private void stopTimer()
    {
        timerId = timers.cancel(timerId);
    }

    /** The one place the exchange changes state. */
    private void transition(final State next)
    {
        if (state == next)
        {
            return;
        }
        TRANSITIONS.require(this, state, next);
        LOG.log(System.Logger.Level.TRACE, () -> "ACM exchange " + state + " -> " + next);
        state = next;
    }

    /**
     * {@code ucma_ib_cleanup}, once the conductor's loop has ended (its poll set may be closed already, so
     * it is not touched): the socket is closed and every question waiting answered with nothing.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        stopTimer();
        if (connection != null)
        {
            connection.close();
        }
        answerNothing();
    }

    @Override
    public String toString()
    {
        return "AcmRouteExchange{" + state + ", " + questions.size() + " queued}";
    }
}
