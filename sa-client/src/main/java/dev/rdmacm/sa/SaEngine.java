package dev.rdmacm.sa;

import dev.rdmacm.loop.BlockingIdleStrategy;
import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.MadStatus;
import dev.rdmacm.protocol.mad.ManagementClass;
import dev.rdmacm.protocol.mad.RmppHeader;
import dev.rdmacm.protocol.mad.RmppType;
import dev.rdmacm.protocol.sa.ClassPortInfo;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.protocol.sa.SaMad;
import dev.rdmacm.protocol.sa.SaStatus;
import dev.rdmacm.sa.transport.LocalPort;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.sa.transport.MadReceiver;
import dev.rdmacm.sa.transport.MadSource;
import dev.rdmacm.sa.transport.MadTransport;
import dev.rdmacm.sa.transport.MadTransportException;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static java.nio.ByteOrder.BIG_ENDIAN;

/**
 * The SA query engine: one Agrona agent on one thread drives every transaction. A duty cycle drains
 * commands from other threads, polls the transport and fires due timers from the event-loop kit's
 * {@link DeadlineTimers}, on an injected {@link NanoClock}; there is no thread per query and no lock.
 * <p>
 * When a duty cycle finds nothing to do, the thread blocks in {@link MadTransport#awaitReadable} until
 * the earliest timer's deadline (the wait is real time, its length read off the engine's clock, so an
 * engine on a test's clock waits until the test moves it and wakes it); a MAD arriving ends the wait, and so does {@link #offer} from another
 * thread, which calls {@link MadTransport#wakeUp} when the engine is (about to be) blocked. An idle
 * engine therefore costs no CPU, and a query is sent as soon as it is submitted.
 * <p>
 * A response is accepted only when its TID (low 48 bits: ibsim rewrites the top 16), source (LID and
 * QP, and GID when the SA is addressed by GID, as on RoCE), method and attribute all match an
 * outstanding transaction, and every record passes the request's {@link RecordCheck}; everything
 * else is counted and dropped.
 * <p>
 * Each {@link SaTransaction} is a state machine in Aeron's Election shape: its state says what its
 * timer means ({@link #onDeadline} dispatches to one method per state), and every change goes through
 * {@link #transition}, which a {@link TransitionListener} can trace.
 */
final class SaEngine implements Agent, MadReceiver
{
    static final long TID_MASK = 0xffff_ffff_ffffL;
    private static final int COMMAND_CAPACITY = 1 << 16;
    private static final int POLL_LIMIT = 64;
    private static final int TIMER_EXPIRY_LIMIT = 1024;
    /** Ended transactions kept for reuse. */
    private static final int POOL_LIMIT = 1024;
    /** ClassPortInfo is asked again at most this often after a failure (the kernel waits 1 s too). */
    private static final long CLASS_PORT_INFO_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long CLASS_PORT_INFO_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final int RESERVED_STATUS_BITS = 0x00e0;
    /** SM_Key, AttributeOffset, Reserved, ComponentMask: what an RMPP PayloadLength counts besides the data. */
    private static final int SA_HEADER_PAYLOAD = SaMad.DATA_OFFSET - RmppHeader.END_OFFSET;

    private final MadTransport transport;
    private final SaClientConfig config;
    private final SaCounters counters;
    private final LocalPort localPort;
    private final ManyToOneConcurrentArrayQueue<Runnable> commands;
    private final NanoClock clock;
    private final TransitionListener<SaTransaction, SaTransaction.State> transitions;
    private final DeadlineTimers<SaTransaction> timers;
    private final DeadlineTimers.Expiry<SaTransaction> onDeadline = this::onDeadline;
    private final Long2ObjectHashMap<SaTransaction> byTid = new Long2ObjectHashMap<>();
    private final ArrayDeque<SaTransaction> queued = new ArrayDeque<>();
    private final ArrayDeque<SaTransaction> pool = new ArrayDeque<>();
    private final Map<Object, SaTransaction> inFlightByKey = new HashMap<>();
    private final ResponseCache cache;
    private final MadHeader header = new MadHeader();
    private final RmppHeader rmpp = new RmppHeader();
    private final SaMad saMad = new SaMad();
    private final ClassPortInfo classPortInfo = new ClassPortInfo();
    private final UnsafeBuffer ack = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    private final Consumer<Runnable> runCommand = Runnable::run;
    private long nextTid;
    private int outstanding;
    private MadAddress saAddress;
    private long responseTimeNanos;
    private boolean classPortInfoKnown;
    private boolean classPortInfoInFlight;
    private long classPortInfoRetryAtNanos;
    private long lastExpiryNanos;
    private boolean closed;
    /** Set by the engine thread around its wait, read by submitters to decide whether to wake it. */
    private volatile boolean awaiting;
    private volatile boolean closing;

    SaEngine(final MadTransport transport, final SaClientConfig config, final SaCounters counters,
        final NanoClock clock, final TransitionListener<SaTransaction, SaTransaction.State> transitions)
    {
        this(transport, config, counters, clock, transitions, COMMAND_CAPACITY);
    }

    /**
     * With a command queue of {@code commandCapacity} (a power of two) rather than {@link #COMMAND_CAPACITY}:
     * the full queue is 65,536 slots (256 KiB), which a harness that calls the engine on its own thread and
     * never offers a command (the fuzz targets, one engine per input) need not allocate.
     */
    SaEngine(final MadTransport transport, final SaClientConfig config, final SaCounters counters,
        final NanoClock clock, final TransitionListener<SaTransaction, SaTransaction.State> transitions,
        final int commandCapacity)
    {
        this.commands = new ManyToOneConcurrentArrayQueue<>(commandCapacity);
        this.clock = clock;
        this.transitions = transitions;
        this.transport = transport;
        this.config = config;
        this.counters = counters;
        this.localPort = transport.localPort();
        this.saAddress = localPort.saAddress();
        this.cache = new ResponseCache(config.cacheTtl().toNanos());
        this.timers = new DeadlineTimers<>(clock);
        // Start somewhere random in the 48-bit space so two clients on one port rarely collide.
        this.nextTid = ThreadLocalRandom.current().nextLong() & 0x7fff_ffffL;
    }

    @Override
    public String roleName()
    {
        return "sa-client-" + localPort.name();
    }

    /** Any thread: hands {@code command} to the engine thread and wakes it; false when the command queue is full. */
    boolean offer(final Runnable command)
    {
        if (!commands.offer(command))
        {
            return false;
        }
        // The queue's tail CAS comes before this read, and the engine sets awaiting before it last looks
        // at the queue: either it sees the command or we see it waiting. A busy engine is not woken.
        if (awaiting)
        {
            transport.wakeUp();
        }
        return true;
    }

    /** Any thread: the engine stops waiting for good, so the runner's close need not wait for a deadline. */
    void requestClose()
    {
        closing = true;
        transport.wakeUp();
    }

    /** What the engine thread does after a duty cycle without work: it blocks, it does not spin or sleep. */
    IdleStrategy idleStrategy()
    {
        return new BlockingIdleStrategy(this::awaitWork, "await-transport");
    }

    private void awaitWork()
    {
        awaiting = true;
        try
        {
            if (closing || !commands.isEmpty())
            {
                return;
            }
            // The transport waits in real time; how long is read off the engine's clock.
            final long timeout = timers.nanosToEarliest(clock.nanoTime());
            transport.awaitReadable(timeout == Long.MAX_VALUE ? Long.MAX_VALUE : clock.nanoTime() + timeout);
        }
        catch (final MadTransportException ex)
        {
            failEverything(SaError.TRANSPORT_FAILED, ex.getMessage());
            throw ex;
        }
        finally
        {
            awaiting = false;
        }
    }

    @Override
    public int doWork()
    {
        int work = commands.drain(runCommand, POLL_LIMIT);
        try
        {
            work += transport.poll(this, POLL_LIMIT);
        }
        catch (final MadTransportException ex)
        {
            failEverything(SaError.TRANSPORT_FAILED, ex.getMessage());
            throw ex;
        }
        final long now = clock.nanoTime();
        work += timers.expire(now, onDeadline, TIMER_EXPIRY_LIMIT);
        if (now - lastExpiryNanos > TimeUnit.SECONDS.toNanos(1))
        {
            lastExpiryNanos = now;
            cache.expire(now);
        }
        return work;
    }

    @Override
    public void onClose()
    {
        closed = true;
        failEverything(SaError.CLOSED, "the SA client was closed");
        // Queries submitted while we were closing fail in submit().
        commands.drain(runCommand);
    }

    // ------------------------------------------------------------------------------------------------
    // Commands (engine thread)

    void submit(final SaRequest request, final long timeoutNanos, final CompletableFuture<SaResponse> result)
    {
        counters.increment(SaCounter.QUERIES_SUBMITTED);
        if (closed)
        {
            counters.increment(SaCounter.QUERIES_FAILED);
            result.completeExceptionally(new SaQueryException(SaError.CLOSED, -1, request.description() + ": the SA client was closed"));
            return;
        }
        final long now = clock.nanoTime();
        final Object key = request.cacheKey();
        if (key != null && cache.enabled())
        {
            final SaResponse cached = cache.get(key, now);
            if (cached != null)
            {
                counters.increment(SaCounter.CACHE_HITS);
                counters.increment(SaCounter.QUERIES_SUCCEEDED);
                result.complete(cached);
                return;
            }
            counters.increment(SaCounter.CACHE_MISSES);
        }
        final long deadline = now + timeoutNanos;
        if (key != null && config.coalesce())
        {
            final SaTransaction twin = inFlightByKey.get(key);
            // Join only a twin that ends no later than we must: every query ends by its own deadline.
            if (twin != null && twin.deadlineNanos - deadline <= 0)
            {
                counters.increment(SaCounter.COALESCED);
                twin.waiters.add(result);
                return;
            }
        }
        final SaTransaction tx = newTransaction(request, now, deadline, false);
        tx.waiters.add(result);
        if (key != null && config.coalesce())
        {
            inFlightByKey.put(key, tx);
        }
        ensureClassPortInfo(now);
        admit(tx);
    }

    void invalidate(final Object key)
    {
        if (key == null)
        {
            cache.invalidateAll();
        }
        else
        {
            cache.invalidate(key);
        }
    }

    int cacheSize()
    {
        return cache.size();
    }

    private SaTransaction newTransaction(final SaRequest request, final long now, final long deadline, final boolean internal)
    {
        long tid;
        do
        {
            tid = nextTid++ & TID_MASK;
        }
        while (tid == 0 || byTid.containsKey(tid));
        final SaTransaction pooled = pool.pollFirst();
        final SaTransaction tx = (pooled != null ? pooled : new SaTransaction()).reset(request, tid, now, deadline, internal);
        encodeRequest(tx);
        byTid.put(tid, tx);
        return tx;
    }

    private void admit(final SaTransaction tx)
    {
        if (outstanding < config.saDepth())
        {
            outstanding++;
            transmit(tx, true);
        }
        else
        {
            counters.increment(SaCounter.QUEUED);
            queued.addLast(tx);
            schedule(tx, tx.deadlineNanos);
        }
    }

    /** Asks the SA's ClassPortInfo once (and again after a failure, at most once a second). */
    private void ensureClassPortInfo(final long now)
    {
        if (classPortInfoKnown || classPortInfoInFlight || now - classPortInfoRetryAtNanos < 0)
        {
            return;
        }
        classPortInfoInFlight = true;
        final SaRequest request = SaRequest.get(SaAttribute.CLASS_PORT_INFO).description("SA ClassPortInfo").build();
        final SaTransaction tx = newTransaction(request, now, now + CLASS_PORT_INFO_TIMEOUT_NANOS, true);
        final CompletableFuture<SaResponse> result = new CompletableFuture<>();
        result.whenComplete((response, failure) -> onClassPortInfo(response));
        tx.waiters.add(result);
        // Not counted against sa_depth: it is the client's own, and it shapes every other query.
        transmit(tx, true);
    }

    private void onClassPortInfo(final SaResponse response)
    {
        classPortInfoInFlight = false;
        if (response == null || response.records().isEmpty() || response.records().get(0).length < ClassPortInfo.LENGTH)
        {
            classPortInfoRetryAtNanos = clock.nanoTime() + CLASS_PORT_INFO_RETRY_NANOS;
            return;
        }
        classPortInfoKnown = true;
        final byte[] record = response.records().get(0);
        classPortInfo.wrap(new UnsafeBuffer(record), 0, record.length);
        // 4.096 us x 2^RespTimeValue (IBA 13.4.6.2)
        responseTimeNanos = config.honourResponseTime() ? 4096L << classPortInfo.respTimeValue() : 0;
        applyRedirect(classPortInfo);
    }

    /** A ClassPortInfo with a non-zero RedirectLID moves the SA; LID 0 means "stay". */
    private boolean applyRedirect(final ClassPortInfo cpi)
    {
        final int lid = cpi.redirectLid();
        if (lid == 0)
        {
            return false;
        }
        saAddress = saAddress.withLidAndQp(lid, cpi.redirectQp(), cpi.redirectQKey());
        counters.increment(SaCounter.REDIRECTS);
        return true;
    }

    // ------------------------------------------------------------------------------------------------
    // Sending and timers

    private void encodeRequest(final SaTransaction tx)
    {
        final SaRequest request = tx.request;
        saMad.wrap(tx.mad, 0).initRequest(request.method(), tx.tid48, request.attributeId())
            .smKey(config.smKey())
            .attributeOffset(request.recordLength() / SaMad.ATTRIBUTE_OFFSET_UNIT)
            .componentMask(request.componentMask());
        if (request.rmppSend())
        {
            // One DATA segment carrying the whole request; OpenSM refuses a GetMulti without it.
            saMad.rmpp().version(RmppHeader.VERSION).type(RmppType.DATA)
                .flags(RmppHeader.FLAG_ACTIVE | RmppHeader.FLAG_FIRST | RmppHeader.FLAG_LAST)
                .segmentNumber(1).payloadLength(SA_HEADER_PAYLOAD + request.payloadLength());
        }
        tx.mad.putBytes(saMad.dataOffset(), request.payloadUnsafe());
    }

    private void transmit(final SaTransaction tx, final boolean first)
    {
        if (first)
        {
            tx.destination = saAddress;
            tx.intervalNanos = config.retryPolicy().firstIntervalNanos(tx.deadlineNanos - tx.startNanos, responseTimeNanos);
            transition(tx, SaTransaction.State.AWAITING_RESPONSE);
        }
        tx.sent = true;
        send(tx.destination, tx.mad);
        // The interval runs from when the MAD left, as the kernel's starts at the send completion (mad.c
        // wait_for_response): a slow post (a cold JVM, a blocking address handle) does not shorten it.
        schedule(tx, Math.min(clock.nanoTime() + tx.intervalNanos, tx.deadlineNanos));
        // Counted once its next timer is set: whoever sees the count (a test moving the clock) moves a
        // clock the timer was already set on.
        if (!tx.internal)
        {
            counters.increment(first ? SaCounter.SA_QUERIES_SENT : SaCounter.RETRIES_SENT);
        }
    }

    private void send(final MadAddress destination, final UnsafeBuffer mad)
    {
        config.recorder().onMad(true, localPort.lid(), destination.lid(), destination.remoteQpn(), mad, 0, MadHeader.MAD_SIZE);
        boolean sent;
        try
        {
            sent = transport.send(destination, mad, 0, MadHeader.MAD_SIZE);
        }
        catch (final MadTransportException ex)
        {
            // Treated as a lost packet: the transaction's timers still retry and end it by its deadline.
            sent = false;
        }
        if (!sent)
        {
            counters.increment(SaCounter.SEND_FAILURES);
        }
    }

    private void schedule(final SaTransaction tx, final long deadlineNanos)
    {
        tx.timerId = timers.reschedule(tx.timerId, tx, deadlineNanos);
    }

    /** A transaction's timer fired: at its deadline it times out, else what it means depends on the state. */
    private void onDeadline(final SaTransaction tx, final long timerId, final long now)
    {
        if (tx.timerId != timerId)
        {
            return;
        }
        tx.timerId = DeadlineTimers.NULL_TIMER;
        if (now - tx.deadlineNanos >= 0)
        {
            counters.increment(SaCounter.QUERIES_TIMED_OUT);
            fail(tx, SaError.TIMED_OUT, -1, tx.request.description() + ": no answer from the SA at " +
                (tx.destination == null ? saAddress : tx.destination).where() + " within " +
                TimeUnit.NANOSECONDS.toMillis(tx.deadlineNanos - tx.startNanos) + " ms (" + (tx.retriesSent) +
                " retries, ETIMEDOUT)");
            return;
        }
        switch (tx.state)
        {
            case QUEUED -> schedule(tx, tx.deadlineNanos);
            case AWAITING_RESPONSE -> retry(tx);
            case RECEIVING_SEGMENTS -> reAcknowledge(tx, now);
            case DONE -> { }
        }
    }

    private void retry(final SaTransaction tx)
    {
        if (tx.retriesSent >= config.retryPolicy().retries())
        {
            schedule(tx, tx.deadlineNanos);
            return;
        }
        tx.retriesSent++;
        tx.intervalNanos = config.retryPolicy().nextIntervalNanos(tx.retriesSent, tx.intervalNanos);
        transmit(tx, false);
    }

    private void reAcknowledge(final SaTransaction tx, final long now)
    {
        sendAck(tx, tx.expectedSegment - 1, tx.windowLast);
        schedule(tx, Math.min(now + tx.intervalNanos, tx.deadlineNanos));
    }

    // ------------------------------------------------------------------------------------------------
    // Receiving

    @Override
    public void onMad(final MadSource source, final DirectBuffer buffer, final int offset, final int length)
    {
        counters.increment(SaCounter.MADS_RECEIVED);
        config.recorder().onMad(false, localPort.lid(), source.lid(), source.qp(), buffer, offset, length);
        if (length < SaMad.DATA_OFFSET)
        {
            counters.increment(SaCounter.DROPPED_MALFORMED);
            return;
        }
        header.wrap(buffer, offset, length);
        if (header.baseVersion() != MadHeader.BASE_VERSION || header.mgmtClass() != ManagementClass.SUBN_ADM ||
            header.classVersion() != SaMad.CLASS_VERSION)
        {
            counters.increment(SaCounter.DROPPED_MALFORMED);
            return;
        }
        final int method = header.method();
        final SaTransaction tx = byTid.get(header.transactionId() & TID_MASK);
        if (tx == null || tx.state == SaTransaction.State.QUEUED)
        {
            counters.increment(header.isResponse() ? SaCounter.DROPPED_UNKNOWN_TID : SaCounter.DROPPED_UNSOLICITED);
            return;
        }
        // On RoCE every LID is 0: there the GID is what tells the SA from anyone else answering on QP1.
        if (!source.isFrom(tx.destination))
        {
            counters.increment(SaCounter.DROPPED_WRONG_SOURCE);
            return;
        }
        rmpp.wrap(buffer, offset, length);
        final int rmppType = rmpp.type();
        final boolean rmppActive = rmpp.isActive();
        if (!header.isResponse())
        {
            if (rmppActive && rmppType == RmppType.ACK && method == tx.request.method())
            {
                counters.increment(SaCounter.RMPP_ACKS_RECEIVED);
            }
            else
            {
                counters.increment(SaCounter.DROPPED_UNSOLICITED);
            }
            return;
        }
        if (method != tx.request.responseMethod())
        {
            counters.increment(SaCounter.DROPPED_WRONG_METHOD);
            return;
        }
        final int status = header.status();
        if (MadStatus.isRedirect(status))
        {
            // A redirect carries the new address in a ClassPortInfo (IBA 13.4.7); anything else claiming
            // to be one is damaged and must not move the SA.
            if (header.attributeId() == SaAttribute.CLASS_PORT_INFO)
            {
                onRedirect(tx, buffer, offset, length);
            }
            else
            {
                counters.increment(SaCounter.DROPPED_MALFORMED);
            }
            return;
        }
        if (header.attributeId() != tx.request.responseAttributeId())
        {
            counters.increment(SaCounter.DROPPED_WRONG_ATTRIBUTE);
            return;
        }
        if ((status & RESERVED_STATUS_BITS) != 0)
        {
            counters.increment(SaCounter.DROPPED_MALFORMED);
            return;
        }
        if (MadStatus.isBusy(status))
        {
            // The SA is overloaded: the retry timer resends, with backoff.
            counters.increment(SaCounter.BUSY_RESPONSES);
            return;
        }
        if (rmppActive && rmppType == RmppType.DATA)
        {
            onSegment(tx, buffer, offset, length);
            return;
        }
        if (rmppActive && (rmppType == RmppType.STOP || rmppType == RmppType.ABORT))
        {
            counters.increment(SaCounter.RESPONSES_ACCEPTED);
            fail(tx, SaError.RMPP_ABORTED, status, tx.request.description() + ": the SA " +
                (rmppType == RmppType.STOP ? "stopped" : "aborted") + " the transfer (RMPP status " +
                rmpp.status() + ")");
            return;
        }
        if (rmppActive && rmppType == RmppType.ACK)
        {
            counters.increment(SaCounter.RMPP_ACKS_RECEIVED);
            return;
        }
        // A plain response, or the one RMPP-flagged type-0 packet OpenSM sends when umad2sim stands in
        // for the kernel's RMPP: the whole answer, cut at one MAD. That packet has exactly the flags
        // Active and segment 0; anything else claiming to be a whole table is a damaged segment.
        final boolean table = tx.request.responseMethod() == MadMethod.GET_TABLE_RESP ||
            tx.request.responseMethod() == MadMethod.GET_MULTI_RESP;
        final boolean wholeInOne = rmppActive && rmpp.flags() == RmppHeader.FLAG_ACTIVE && rmpp.segmentNumber() == 0;
        // An error answer carries no records, so a table request may get it without RMPP.
        final boolean plainError = status != 0 && !rmppActive;
        if (tx.state != SaTransaction.State.AWAITING_RESPONSE || (table && !wholeInOne && !plainError) ||
            (rmppActive && !wholeInOne))
        {
            counters.increment(SaCounter.DROPPED_MALFORMED);
            return;
        }
        final boolean mayBeTruncated = rmppActive && length >= MadHeader.MAD_SIZE;
        complete(tx, status, buffer, offset + SaMad.DATA_OFFSET, length - SaMad.DATA_OFFSET,
            buffer.getShort(offset + SaMad.ATTRIBUTE_OFFSET_OFFSET, BIG_ENDIAN) & 0xffff, mayBeTruncated);
    }

    private void onRedirect(final SaTransaction tx, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length < SaMad.DATA_OFFSET + ClassPortInfo.LENGTH ||
            !applyRedirect(classPortInfo.wrap(buffer, offset + SaMad.DATA_OFFSET, length - SaMad.DATA_OFFSET)))
        {
            counters.increment(SaCounter.DROPPED_MALFORMED);
            return;
        }
        // Everything still waiting goes to the new SA address; this one is resent there right now.
        transmit(tx, true);
    }

    private void onSegment(final SaTransaction tx, final DirectBuffer buffer, final int offset, final int length)
    {
        final long segment = rmpp.segmentNumber();
        final int flags = rmpp.flags();
        final long payloadLength = rmpp.payloadLength();
        if (tx.state == SaTransaction.State.AWAITING_RESPONSE)
        {
            if (segment != 1 || (flags & RmppHeader.FLAG_FIRST) == 0)
            {
                counters.increment(SaCounter.RMPP_SEGMENTS_DROPPED);
                return;
            }
            transition(tx, SaTransaction.State.RECEIVING_SEGMENTS);
            tx.fullTid = header.transactionId();
            tx.expectedSegment = 1;
            tx.windowLast = 1;
            tx.segmentBytes = 0;
            tx.firstStatus = header.status();
            tx.firstPayloadLength = payloadLength;
            tx.attributeOffsetWords = buffer.getShort(offset + SaMad.ATTRIBUTE_OFFSET_OFFSET, BIG_ENDIAN) & 0xffff;
        }
        if (segment != tx.expectedSegment)
        {
            // A repeat or a gap: tell the sender again where we are; it goes back to there.
            counters.increment(SaCounter.RMPP_SEGMENTS_DROPPED);
            if (tx.expectedSegment > 1)
            {
                sendAck(tx, tx.expectedSegment - 1, tx.windowLast);
            }
            return;
        }
        counters.increment(SaCounter.RMPP_SEGMENTS_RECEIVED);
        final int data = Math.min(SaMad.DATA_LENGTH, length - SaMad.DATA_OFFSET);
        tx.segments.putBytes(tx.segmentBytes, buffer, offset + SaMad.DATA_OFFSET, data);
        tx.segmentBytes += data;
        tx.expectedSegment++;
        final long now = clock.nanoTime();
        if ((flags & RmppHeader.FLAG_LAST) != 0)
        {
            sendAck(tx, segment, segment);
            // The last segment's PayloadLength counts its SA header and its own data only.
            final long total = (segment - 1) * SaMad.DATA_LENGTH + payloadLength - SA_HEADER_PAYLOAD;
            // The first segment announced the whole length; a transfer that disagrees is damaged.
            final boolean consistent = total >= 0 && total <= tx.segmentBytes &&
                (tx.firstPayloadLength == 0 || tx.firstPayloadLength - SA_HEADER_PAYLOAD == total);
            if (!consistent)
            {
                counters.increment(SaCounter.DROPPED_MALFORMED);
                restartTransfer(tx);
            }
            else if (!complete(tx, tx.firstStatus, tx.segments, 0, (int)total, tx.attributeOffsetWords, false))
            {
                restartTransfer(tx);
            }
            return;
        }
        if (segment >= tx.windowLast)
        {
            tx.windowLast = segment + config.rmppWindow();
            sendAck(tx, segment, tx.windowLast);
        }
        schedule(tx, Math.min(now + tx.intervalNanos, tx.deadlineNanos));
    }

    /** Forgets a damaged transfer; the retry timer asks for the whole answer again. */
    private void restartTransfer(final SaTransaction tx)
    {
        transition(tx, SaTransaction.State.AWAITING_RESPONSE);
        tx.segmentBytes = 0;
    }

    private void sendAck(final SaTransaction tx, final long segment, final long newWindowLast)
    {
        // The ACK goes back under the data's own TID (ibsim's top bits included), as a request method.
        saMad.wrap(ack, 0).initRequest(tx.request.responseMethod() & ~MadMethod.RESPONSE_BIT, tx.fullTid,
            tx.request.responseAttributeId());
        saMad.rmpp().version(RmppHeader.VERSION).type(RmppType.ACK).flags(RmppHeader.FLAG_ACTIVE)
            .segmentNumber(segment).newWindowLast(newWindowLast);
        counters.increment(SaCounter.RMPP_ACKS_SENT);
        send(tx.destination, ack);
    }

    /** @return false when the answer is malformed or fails the record check, and was dropped. */
    private boolean complete(final SaTransaction tx, final int status, final DirectBuffer data, final int dataOffset,
        final int dataLength, final int attributeOffsetWords, final boolean mayBeTruncated)
    {
        if (status != 0)
        {
            counters.increment(SaCounter.RESPONSES_ACCEPTED);
            final int invalidField = MadStatus.invalidField(status);
            final SaError error = invalidField != MadStatus.FIELD_VALID ? SaError.ofInvalidField(invalidField) :
                SaError.ofSaStatus(SaStatus.fromStatusWord(status));
            fail(tx, error, status, tx.request.description() + ": the SA answered " + SaStatus.describe(status) +
                String.format(" (MAD status 0x%04x)", status));
            return true;
        }
        final SaResponse response = ResponseRecords.split(
            tx.request, data, dataOffset, dataLength, attributeOffsetWords, mayBeTruncated, counters);
        if (response == null)
        {
            return false;
        }
        counters.increment(SaCounter.RESPONSES_ACCEPTED);
        if (tx.request.cacheKey() != null && !response.records().isEmpty())
        {
            cache.put(tx.request.cacheKey(), response, clock.nanoTime());
        }
        finish(tx, response);
        return true;
    }

    // ------------------------------------------------------------------------------------------------
    // Endings

    private void finish(final SaTransaction tx, final SaResponse response)
    {
        end(tx);
        if (!tx.internal)
        {
            for (int i = 0; i < tx.waiters.size(); i++)
            {
                counters.increment(SaCounter.QUERIES_SUCCEEDED);
            }
        }
        for (final CompletableFuture<SaResponse> waiter : tx.waiters)
        {
            waiter.complete(response);
        }
        release(tx);
    }

    private void fail(final SaTransaction tx, final SaError error, final int status, final String message)
    {
        end(tx);
        final SaQueryException failure = new SaQueryException(error, status, message);
        if (!tx.internal)
        {
            for (int i = 0; i < tx.waiters.size(); i++)
            {
                counters.increment(SaCounter.QUERIES_FAILED);
            }
        }
        for (final CompletableFuture<SaResponse> waiter : tx.waiters)
        {
            waiter.completeExceptionally(failure);
        }
        release(tx);
    }

    private void release(final SaTransaction tx)
    {
        tx.waiters.clear();
        tx.request = null;
        if (pool.size() < POOL_LIMIT)
        {
            pool.addLast(tx);
        }
    }

    private void end(final SaTransaction tx)
    {
        final boolean held = tx.sent && !tx.internal;
        final boolean wasQueued = tx.state == SaTransaction.State.QUEUED;
        transition(tx, SaTransaction.State.DONE);
        byTid.remove(tx.tid48);
        tx.timerId = timers.cancel(tx.timerId);
        if (tx.request.cacheKey() != null)
        {
            inFlightByKey.remove(tx.request.cacheKey(), tx);
        }
        if (wasQueued)
        {
            // Only a queued transaction is looked for in the queue: a scan per answer, with the
            // 4,000-path sweep's thousands queued, was quadratic (issue 15).
            queued.remove(tx);
            return;
        }
        if (held)
        {
            outstanding--;
            while (outstanding < config.saDepth() && !queued.isEmpty())
            {
                final SaTransaction next = queued.pollFirst();
                outstanding++;
                transmit(next, true);
            }
        }
    }

    private void failEverything(final SaError error, final String why)
    {
        final List<SaTransaction> all = new ArrayList<>(byTid.values());
        for (final SaTransaction tx : all)
        {
            if (tx.state != SaTransaction.State.DONE)
            {
                fail(tx, error, -1, tx.request.description() + ": " + why);
            }
        }
    }

    /** Every state change of every transaction passes here. */
    void transition(final SaTransaction tx, final SaTransaction.State next)
    {
        final SaTransaction.State previous = tx.state;
        tx.state = next;
        transitions.onTransition(tx, previous, next, clock.nanoTime());
    }
}
