package dev.rdmacm.cm;

import dev.rdmacm.protocol.netlink.NetlinkMessageHeader;
import dev.rdmacm.netlink.Neighbour;
import dev.rdmacm.netlink.NetlinkSocket;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.sa.BlockingIdleStrategy;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import org.agrona.DeadlineTimerWheel;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The resolver's event loop: one thread runs every pending resolution of an {@link RdmaCm}. Its duty
 * cycle takes new requests from a queue, reads RTNLGRP_NEIGH and RTNLGRP_LINK events and expires
 * deadlines on a timer wheel; when there is nothing to do it blocks in poll(2) on the event socket and
 * a wake-up eventfd until the earliest deadline, so a waiting resolution costs no CPU.
 * <p>
 * As in the kernel, a waiting resolution is re-run when its neighbour becomes valid, when its
 * interface goes away, and once at its deadline (where any failure becomes ETIMEDOUT).
 */
final class ResolverAgent implements Agent
{
    /** 2^20 ns, about 1 ms: deadlines are met within a tick. */
    private static final long TICK_NANOS = 1L << 20;
    private static final int TICKS_PER_WHEEL = 1024;
    private static final int TIMER_EXPIRY_LIMIT = 1024;
    private static final int COMMAND_LIMIT = 1024;

    private final Path namespace;
    private final GidDirectory gids;
    private final NeighbourTriggerMode triggerMode;
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private final ManyToOneConcurrentLinkedQueue<Consumer<ResolverAgent>> commands =
        new ManyToOneConcurrentLinkedQueue<>();
    private final DeadlineTimerWheel timers =
        new DeadlineTimerWheel(TimeUnit.NANOSECONDS, System.nanoTime(), TICK_NANOS, TICKS_PER_WHEEL);
    private final Long2ObjectHashMap<PendingResolution> byTimer = new Long2ObjectHashMap<>();
    private final Map<NeighbourKey, List<PendingResolution>> byNeighbour = new HashMap<>();
    private final List<PendingResolution> rerun = new ArrayList<>();
    private final Arena arena = Arena.ofShared();
    private final Libc.CallState callState = new Libc.CallState(arena);
    private final MemorySegment pollFds = arena.allocate(2L * Libc.POLLFD_SIZE, 8);
    private final MemorySegment eventCounter = arena.allocate(JAVA_LONG);
    /** Used by other threads to wake the loop, so released only after the loop thread has ended. */
    private final Arena wakeArena = Arena.ofShared();
    private final Libc.CallState wakeState = new Libc.CallState(wakeArena);
    private final MemorySegment wakeValue = wakeArena.allocate(JAVA_LONG);
    private final int wakeFd;

    private Rtnetlink rtnetlink;
    private NetlinkSocket events;
    private NeighbourTrigger trigger;
    private final HostsNeighbours hostsNeighbours;
    private AddressRules resolver;
    private volatile boolean closing;
    private volatile Thread loopThread;
    private long earliestDeadline = Long.MAX_VALUE;
    private boolean earliestStale;

    ResolverAgent(final Path namespace, final GidDirectory gids, final NeighbourTriggerMode triggerMode,
        final HostsNeighbours hostsNeighbours) throws NativeCallException
    {
        this.hostsNeighbours = hostsNeighbours;
        this.namespace = namespace;
        this.gids = gids;
        this.triggerMode = triggerMode;
        wakeValue.set(JAVA_LONG, 0, 1L);
        try
        {
            wakeFd = Libc.eventfd(wakeState, 0, Libc.EFD_NONBLOCK | Libc.EFD_CLOEXEC);
        }
        catch (final NativeCallException ex)
        {
            arena.close();
            wakeArena.close();
            throw ex;
        }
    }

    @Override
    public String roleName()
    {
        return "rdmacm-resolver";
    }

    /** Completes when the loop has its sockets (in the namespace), or fails with the reason it has none. */
    CompletableFuture<Void> started()
    {
        return started;
    }

    @Override
    public void onStart()
    {
        loopThread = Thread.currentThread();
        try
        {
            if (namespace != null)
            {
                NetworkNamespace.enter(namespace);
            }
            rtnetlink = Rtnetlink.open();
            events = NetlinkSocket.open();
            events.joinGroup(NetlinkSocket.RTNLGRP_NEIGH, "RTNLGRP_NEIGH");
            events.joinGroup(NetlinkSocket.RTNLGRP_LINK, "RTNLGRP_LINK");
            trigger = new NeighbourTrigger(rtnetlink, triggerMode);
            resolver = hostsNeighbours != null ? new HostsAddressResolver(hostsNeighbours) :
                new AddressResolver(rtnetlink, trigger, gids);
            pollFds.set(JAVA_INT, Libc.POLLFD_FD_OFFSET, events.fd());
            pollFds.set(JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
            pollFds.set(JAVA_INT, Libc.POLLFD_SIZE + Libc.POLLFD_FD_OFFSET, wakeFd);
            pollFds.set(JAVA_SHORT, Libc.POLLFD_SIZE + Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
            started.complete(null);
        }
        catch (final IOException | RuntimeException ex)
        {
            started.completeExceptionally(ex);
            throw new AgentTerminationException(ex);
        }
    }

    /** Whether the caller is the loop thread, which must never wait for its own work. */
    boolean isLoopThread()
    {
        return Thread.currentThread() == loopThread;
    }

    /** Queues work for the loop thread from any thread and wakes it. */
    void submit(final Consumer<ResolverAgent> command)
    {
        commands.offer(command);
        wake();
    }

    void requestClose()
    {
        closing = true;
        wake();
    }

    private void wake()
    {
        try
        {
            Libc.write(wakeState, wakeFd, wakeValue, 8, "eventfd wake-up");
        }
        catch (final NativeCallException ex)
        {
            // EAGAIN: the counter is saturated, so the loop is awake anyway
        }
    }

    /** Closes the wake-up eventfd; only after the loop thread has ended and no one submits any more. */
    void releaseWakeUp()
    {
        try
        {
            Libc.close(wakeState, wakeFd);
        }
        catch (final NativeCallException ignored)
        {
            // only EBADF is possible for a descriptor we own
        }
        wakeArena.close();
    }

    /** Resolutions waiting for a neighbour or a deadline; read on the loop thread only. */
    int waitingCount()
    {
        return byTimer.size();
    }

    @Override
    public int doWork()
    {
        if (closing)
        {
            throw new AgentTerminationException("RdmaCm closed");
        }
        int work = 0;
        Consumer<ResolverAgent> command;
        while (work < COMMAND_LIMIT && (command = commands.poll()) != null)
        {
            command.accept(this);
            work++;
        }
        work += drainEvents();
        work += expireTimers();
        return work;
    }

    /** The loop's idle strategy: poll(2) until an event, a wake-up or the earliest deadline. */
    IdleStrategy idleStrategy()
    {
        return new BlockingIdleStrategy(this::awaitWork, "poll");
    }

    private void awaitWork()
    {
        if (closing || !commands.isEmpty())
        {
            return;
        }
        int timeoutMs = -1;
        if (timers.timerCount() > 0)
        {
            final long remaining = earliestDeadline() - System.nanoTime();
            timeoutMs = remaining <= 0 ? 0 : (int)Math.min(Integer.MAX_VALUE, (remaining + 999_999) / 1_000_000);
        }
        try
        {
            Libc.poll(callState, pollFds, 2, timeoutMs);
            if ((pollFds.get(JAVA_SHORT, Libc.POLLFD_SIZE + Libc.POLLFD_REVENTS_OFFSET) & Libc.POLLIN) != 0)
            {
                Libc.read(callState, wakeFd, eventCounter, 8, "eventfd");
            }
        }
        catch (final NativeCallException ex)
        {
            throw new IllegalStateException(ex.getMessage(), ex);
        }
    }

    // ---- requests, on the loop thread ----

    void start(final PendingResolution p)
    {
        if (closing)
        {
            p.id.callFailed(p, Errno.EINTR, "the RdmaCm is closing", CmIdState.ADDR_BOUND);
            return;
        }
        if (p.sourceToBind != null)
        {
            try
            {
                final AddressResolver.BoundSource bound = resolver.bindSource(p.sourceToBind, p.trace);
                p.source = p.sourceToBind;
                p.boundIfindex = bound.ifindex();
                p.binding = bound.binding();
                p.id.bound(p.source, p.boundIfindex, p.binding);
            }
            catch (final ResolutionFailure failure)
            {
                p.id.callFailed(p, failure.errno(), failure.getMessage(), CmIdState.IDLE);
                return;
            }
        }
        p.deadlineNanos = p.trace.startNanos() + p.timeoutNanos;
        run(p, false);
    }

    /** {@code cma_resolve_iboe_route}: builds the RoCE path with the loop's rtnetlink, in its namespace. */
    void roceRoute(final PendingRoute r, final CompletableFuture<ResolvedRoute> result)
    {
        try
        {
            result.complete(RouteResolver.synthesizeRoce(r, rtnetlink));
        }
        catch (final RuntimeException ex)
        {
            result.completeExceptionally(ex);
        }
    }

    /** The id was destroyed: drop its resolution without an event. */
    void cancel(final PendingResolution p)
    {
        if (p.timerId != DeadlineTimerWheel.NULL_DEADLINE)
        {
            forget(p);
        }
    }

    /** Looks an interface up by name in the loop's namespace (for IPv6 scope ids given as names). */
    void interfaceIndex(final String name, final CompletableFuture<Integer> result)
    {
        try
        {
            result.complete(rtnetlink.link(name).ifindex());
        }
        catch (final IOException | RuntimeException ex)
        {
            result.completeExceptionally(ex);
        }
    }

    /** {@code rdma_bind_addr} of a concrete address, on the loop thread because it needs rtnetlink. */
    void bind(final InetAddress source, final ResolutionTrace trace,
        final CompletableFuture<AddressResolver.BoundSource> result)
    {
        if (closing)
        {
            result.completeExceptionally(new ResolutionFailure(Errno.EINTR, "the RdmaCm is closing"));
            return;
        }
        try
        {
            result.complete(resolver.bindSource(source, trace));
        }
        catch (final ResolutionFailure failure)
        {
            result.completeExceptionally(failure);
        }
    }

    /** One {@code process_one_req}: attempt, then finish, keep waiting or fail. */
    private void run(final PendingResolution p, final boolean atDeadline)
    {
        int status;
        String detail = null;
        try
        {
            status = resolver.attempt(p);
        }
        catch (final ResolutionFailure failure)
        {
            status = failure.errno();
            detail = failure.getMessage();
        }
        if (status == Errno.ENODATA && !atDeadline && System.nanoTime() < p.deadlineNanos)
        {
            wait(p);
            return;
        }
        if (p.synchronousPhase && status != 0 && status != Errno.ENODATA)
        {
            // Route and other up-front failures are returned by rdma_resolve_addr itself, without an event.
            p.id.callFailed(p, status, detail, CmIdState.ADDR_BOUND);
            return;
        }
        forget(p);
        if (status != 0)
        {
            final boolean timedOut = atDeadline || System.nanoTime() >= p.deadlineNanos;
            if (timedOut && p.waitingOn != null)
            {
                p.trace.record("neighbour wait", p.waitStartNanos, p.waitingOn.address().getHostAddress() +
                    " not valid at the deadline");
            }
            p.id.resolutionFailed(p, timedOut ? Errno.ETIMEDOUT : status,
                timedOut ? "neighbour not resolved within " + p.timeoutNanos / 1_000_000 + " ms" : detail);
            return;
        }
        try
        {
            p.id.resolved(p, resolver.complete(p));
        }
        catch (final ResolutionFailure failure)
        {
            p.id.resolutionFailed(p, failure.errno(), failure.getMessage());
        }
    }

    private void wait(final PendingResolution p)
    {
        if (p.synchronousPhase)
        {
            p.synchronousPhase = false;
            p.id.accepted(p);
        }
        if (p.timerId == DeadlineTimerWheel.NULL_DEADLINE)
        {
            p.timerId = timers.scheduleTimer(p.deadlineNanos);
            byTimer.put(p.timerId, p);
            if (p.deadlineNanos < earliestDeadline)
            {
                earliestDeadline = p.deadlineNanos;
            }
        }
        final NeighbourKey key = p.waitingOn;
        final List<PendingResolution> waiters = byNeighbour.computeIfAbsent(key, k -> new ArrayList<>(2));
        if (!waiters.contains(p))
        {
            waiters.add(p);
        }
    }

    /** Removes {@code p} from the timer wheel and the neighbour index; it is no longer pending. */
    private void forget(final PendingResolution p)
    {
        if (p.synchronousPhase)
        {
            p.synchronousPhase = false;
            p.id.accepted(p);
        }
        if (p.timerId != DeadlineTimerWheel.NULL_DEADLINE)
        {
            timers.cancelTimer(p.timerId);
            byTimer.remove(p.timerId);
            if (p.deadlineNanos <= earliestDeadline)
            {
                earliestStale = true;
            }
            p.timerId = DeadlineTimerWheel.NULL_DEADLINE;
        }
        removeFromNeighbourIndex(p);
    }

    // ---- kernel events ----

    private int drainEvents()
    {
        final int messages;
        try
        {
            messages = events.drain(this::onEvent);
        }
        catch (final NativeCallException ex)
        {
            throw new IllegalStateException(ex.getMessage(), ex);
        }
        if (messages < 0)
        {
            // The kernel dropped events (ENOBUFS): any waiting neighbour may have become valid meanwhile.
            for (final List<PendingResolution> waiters : byNeighbour.values())
            {
                rerun.addAll(waiters);
            }
        }
        final int count = rerun.size();
        for (int i = 0; i < count; i++)
        {
            final PendingResolution p = rerun.get(i);
            if (p.timerId != DeadlineTimerWheel.NULL_DEADLINE)
            {
                removeFromNeighbourIndex(p);
                run(p, false);
            }
        }
        rerun.clear();
        return Math.max(messages, 0) + count;
    }

    private void onEvent(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        final int type = header.type();
        if (type == NetlinkMessageHeader.RTM_NEWNEIGH)
        {
            final Neighbour neighbour = rtnetlink.decodeNeighbour(header, buffer, end);
            if (neighbour.isValid() && neighbour.destination() != null)
            {
                final List<PendingResolution> waiters =
                    byNeighbour.get(new NeighbourKey(neighbour.ifindex(), neighbour.destination()));
                if (waiters != null)
                {
                    rerun.addAll(waiters);
                }
            }
        }
        else if (type == NetlinkMessageHeader.RTM_DELLINK)
        {
            final int ifindex = rtnetlink.decodeLink(header, buffer, end).ifindex();
            for (final Map.Entry<NeighbourKey, List<PendingResolution>> entry : byNeighbour.entrySet())
            {
                if (entry.getKey().ifindex() == ifindex)
                {
                    rerun.addAll(entry.getValue());
                }
            }
        }
    }

    private void removeFromNeighbourIndex(final PendingResolution p)
    {
        if (p.waitingOn == null)
        {
            return;
        }
        final List<PendingResolution> waiters = byNeighbour.get(p.waitingOn);
        if (waiters != null)
        {
            waiters.remove(p);
            if (waiters.isEmpty())
            {
                byNeighbour.remove(p.waitingOn);
            }
        }
    }

    // ---- deadlines ----

    private int expireTimers()
    {
        if (timers.timerCount() == 0)
        {
            return 0;
        }
        final long now = System.nanoTime();
        int expired = 0;
        // The wheel advances one tick per poll: catch up after a long sleep in poll(2).
        do
        {
            expired += timers.poll(now, this::onDeadline, TIMER_EXPIRY_LIMIT);
        }
        while (timers.currentTickTime() <= now && expired < TIMER_EXPIRY_LIMIT);
        return expired;
    }

    private boolean onDeadline(final TimeUnit unit, final long now, final long timerId)
    {
        final PendingResolution p = byTimer.remove(timerId);
        earliestStale = true;
        if (p != null)
        {
            p.timerId = DeadlineTimerWheel.NULL_DEADLINE;
            removeFromNeighbourIndex(p);
            run(p, true);
        }
        return true;
    }

    private long earliestDeadline()
    {
        if (earliestStale)
        {
            earliestDeadline = Long.MAX_VALUE;
            timers.forEach((deadline, timerId) ->
            {
                if (deadline < earliestDeadline)
                {
                    earliestDeadline = deadline;
                }
            });
            earliestStale = false;
        }
        return earliestDeadline;
    }

    /** After the loop thread has ended: fails requests that were queued too late to run. */
    void failQueued()
    {
        Consumer<ResolverAgent> command;
        while ((command = commands.poll()) != null)
        {
            command.accept(this);
        }
    }

    @Override
    public void onClose()
    {
        for (final PendingResolution p : new ArrayList<>(byTimer.values()))
        {
            forget(p);
            p.id.resolutionFailed(p, Errno.EINTR, "the RdmaCm was closed");
        }
        Consumer<ResolverAgent> command;
        while ((command = commands.poll()) != null)
        {
            command.accept(this);
        }
        if (trigger != null)
        {
            trigger.close();
        }
        if (events != null)
        {
            events.close();
        }
        if (rtnetlink != null)
        {
            rtnetlink.close();
        }
        arena.close();
    }
}
