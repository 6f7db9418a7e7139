package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.libc.NetworkNamespace;
import dev.rdmacm.loop.BlockingIdleStrategy;
import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.PollSet;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.netlink.Link;
import dev.rdmacm.netlink.Neighbour;
import dev.rdmacm.netlink.NetlinkMessageHandler;
import dev.rdmacm.netlink.NetlinkMirror;
import dev.rdmacm.netlink.NetlinkSocket;
import dev.rdmacm.netlink.RtnetlinkPool;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.netlink.UeventSocket;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.engine.AddressQuery;
import dev.rdmacm.resolver.engine.AddressResolver;
import dev.rdmacm.resolver.engine.AddressRules;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.resolver.engine.HostsAddressResolver;
import dev.rdmacm.resolver.spi.HostsNeighbours;
import dev.rdmacm.resolver.engine.NeighbourKey;
import dev.rdmacm.resolver.engine.NeighbourTrigger;
import dev.rdmacm.resolver.NeighbourTriggerMode;
import dev.rdmacm.resolver.engine.ResolutionFailure;
import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.resolver.engine.RouteCache;
import dev.rdmacm.resolver.engine.RouteResolver;
import dev.rdmacm.resolver.engine.TrafficClassCache;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The conductor: one thread runs every pending resolution of an {@link RdmaCm} and the CM of every RDMA
 * port it uses. Its duty cycle takes new requests from a queue, dispatches the descriptors of its
 * {@link PollSet} that are ready (one rtnetlink socket in the link, neighbour, traffic-control, address
 * and route groups; the uevent socket; librdmacm's ACM socket, {@link AcmRouteExchange}; every port's
 * umad descriptor), runs each port's calls and CM timers ({@link CmPort#doWork}) and expires deadlines
 * (the ACM reply timer's included); when there is nothing to do it blocks in
 * poll(2) on all of them and the wake-up eventfd until the earliest deadline, so a waiting resolution
 * or connection costs no CPU. The wait, the deadlines and the clock are the event-loop kit's
 * ({@link PollSet}, {@link DeadlineTimers}, {@link NanoClock}).
 * <p>
 * Kernel events arrive in the order the kernel sent them on one socket: a bond's failover
 * ({@code IFLA_EVENT_BONDING_FAILOVER}, the kernel CM's {@code cma_netdev_callback}) is ordered with the
 * neighbour and link events, and an RDMA device's removal comes from the uevent socket ({@code remove}
 * of subsystem infiniband, {@code cma_remove_one}; 6.1 sends no RDMA netlink notification).
 * <p>
 * As in the kernel, a waiting resolution is re-run when its neighbour becomes valid, when its
 * interface goes away, and once at its deadline (where any failure becomes ETIMEDOUT).
 * <p>
 * The same events keep a {@link NetlinkMirror} of the namespace's links, addresses and neighbours,
 * filled by dumps on the events socket at the first resolution or bind, and again after lost events
 * (ENOBUFS). Callers read it on their own threads ({@link CallerAddressLookup}, published once the loop
 * has its sockets) with routes asked on a pool of rtnetlink clients this loop opened in its namespace.
 * <p>
 * Each {@link PendingResolution} is a state machine in Aeron's Election shape: one method per state
 * ({@link #start} for SUBMITTED, {@link #run} for an attempt, {@link #onDeadline} for
 * WAITING_FOR_NEIGHBOUR at its deadline), every change through {@link #transition}, which a
 * {@link TransitionListener} can trace.
 */
final class ConductorAgent implements Agent
{
    private static final System.Logger LOG = System.getLogger(ConductorAgent.class.getName());
    private static final int TIMER_EXPIRY_LIMIT = 1024;
    private static final int COMMAND_LIMIT = 1024;
    /**
     * Hand-overs queued without a wake-up ({@link #enqueue}) before one wakes the loop after all: a process whose
     * callers finish every call themselves (resolve, destroy) gives the loop nothing else to wake it for, and its
     * queue then held every id's context and two closures until some other work came (306,000 ids in 8 s of a
     * resolve-and-destroy loop on one thread, issue 32). One eventfd write per this many keeps it bounded.
     */
    static final int UNWOKEN_LIMIT = 128;

    private final Path namespace;
    private final GidDirectory gids;
    private final NeighbourTriggerMode triggerMode;
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private final ManyToOneConcurrentLinkedQueue<Consumer<ConductorAgent>> commands =
        new ManyToOneConcurrentLinkedQueue<>();
    private final NanoClock clock;
    /** The system clock once per duty cycle, for the ports' CM engines (their timers are on the system clock). */
    private final CycleClock cycleClock = new CycleClock();
    private final TransitionListener<PendingResolution, PendingResolution.State> transitions;
    private final DeadlineTimers<PendingResolution> timers;
    /** How long the loop spins after its last request before it blocks ({@link RdmaCm.Options#spin}). */
    private final long spinNanos;
    private long lastCommandNanos;
    /** Hand-overs queued since the last wake-up {@link #enqueue} made; under the {@link RdmaCm}'s lock, as its callers are. */
    private int unwoken;
    private final DeadlineTimers.Expiry<PendingResolution> onDeadline = this::onDeadline;
    private final Map<NeighbourKey, List<PendingResolution>> byNeighbour = new HashMap<>();
    private final List<PendingResolution> rerun = new ArrayList<>();
    /** Used by other threads to wake the loop, so closed only after the loop thread has ended. */
    private final PollSet pollSet;
    private final BooleanSupplier workPending = this::workPending;
    /** The CM of each port in use, in the order they joined; the loop thread's only. */
    private final List<CmPort> ports = new ArrayList<>();
    private final Consumer<String> deviceRemoved;
    private final BondFailover bondFailover;
    /** librdmacm's ACM socket, in the poll set from the first ACM-first route on. */
    private final AcmRouteExchange acm;
    private UeventSocket uevents;

    private Rtnetlink rtnetlink;
    private NetlinkSocket events;
    /** Links, addresses and neighbours from the events socket; filled on the first resolution. */
    private NetlinkMirror mirror;
    private final NetlinkMessageHandler onEvent = this::onEvent;
    /** Published once the loop has its sockets; null with a hosts file, or before. */
    private volatile CallerAddressLookup callerLookup;
    private NeighbourTrigger trigger;
    private final TrafficClassCache trafficClasses = new TrafficClassCache();
    private final HostsNeighbours hostsNeighbours;
    private AddressRules resolver;
    private volatile boolean closing;
    /**
     * Set by {@link #wake} (a port's call, the loop's clock moved), cleared at the start of a duty cycle,
     * read before the loop waits: a wake-up that comes while the loop still runs is not lost, although
     * the poll set writes the eventfd only for a loop that waits.
     */
    private volatile boolean lookAgain;
    private volatile Thread loopThread;
    private volatile CmSysctls sysctls = CmSysctls.KERNEL_DEFAULT;
    /** {@link RdmaCm.Options#routeCache()}: the resolver keeps route answers in a {@link RouteCache}. */
    private final boolean routeCache;

    /** Told of each bond failover: the bond's ifindex, name and hardware address after it. */
    @FunctionalInterface
    interface BondFailover
    {
        void failedOver(int ifindex, String bond, byte[] address);
    }

    ConductorAgent(final Path namespace, final GidDirectory gids, final NeighbourTriggerMode triggerMode,
        final HostsNeighbours hostsNeighbours, final NanoClock clock, final long spinNanos,
        final TransitionListener<PendingResolution, PendingResolution.State> transitions,
        final Consumer<String> deviceRemoved, final BondFailover bondFailover, final AcmFirstRoute acmFirstRoute,
        final boolean routeCache)
        throws NativeCallException
    {
        this.routeCache = routeCache;
        this.deviceRemoved = deviceRemoved;
        this.bondFailover = bondFailover;
        this.spinNanos = spinNanos;
        this.lastCommandNanos = System.nanoTime() - spinNanos;
        this.hostsNeighbours = hostsNeighbours;
        this.namespace = namespace;
        this.gids = gids;
        this.triggerMode = triggerMode;
        this.clock = clock;
        this.transitions = transitions;
        this.timers = new DeadlineTimers<>(clock);
        // the netlink socket joins the set once the loop has opened it, in its namespace
        this.pollSet = new PollSet();
        this.acm = new AcmRouteExchange(acmFirstRoute, pollSet, clock);
    }

    /** The ACM-first route's exchange, which this loop runs; closed by {@link RdmaCm#close} after the loop. */
    AcmRouteExchange acm()
    {
        return acm;
    }

    NanoClock clock()
    {
        return clock;
    }

    /** The system clock as the loop's current duty cycle read it, for the ports it runs ({@link CycleClock}). */
    NanoClock cycleClock()
    {
        return cycleClock;
    }

    @Override
    public String roleName()
    {
        return "rdmacm-conductor";
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
        cycleClock.own(loopThread);
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
            events.joinGroup(NetlinkSocket.RTNLGRP_TC, "RTNLGRP_TC");
            events.joinGroup(NetlinkSocket.RTNLGRP_IPV4_IFADDR, "RTNLGRP_IPV4_IFADDR");
            events.joinGroup(NetlinkSocket.RTNLGRP_IPV6_IFADDR, "RTNLGRP_IPV6_IFADDR");
            events.joinGroup(NetlinkSocket.RTNLGRP_IPV4_ROUTE, "RTNLGRP_IPV4_ROUTE");
            events.joinGroup(NetlinkSocket.RTNLGRP_IPV6_ROUTE, "RTNLGRP_IPV6_ROUTE");
            trigger = new NeighbourTrigger(rtnetlink, triggerMode);
            mirror = new NetlinkMirror(events);
            if (hostsNeighbours != null)
            {
                resolver = new HostsAddressResolver(hostsNeighbours);
            }
            else
            {
                final AddressResolver ipResolver = new AddressResolver(rtnetlink, trigger, gids, mirror,
                    routeCache ? RouteCache.open() : null);
                resolver = ipResolver;
                // opened here, in the namespace: a socket stays in the namespace it was opened in
                callerLookup = new CallerAddressLookup(ipResolver, RtnetlinkPool.open(CallerAddressLookup.POOL_SIZE),
                    mirror, this::transition);
            }
            pollSet.add(events.fd(), (fd, revents) -> drainEvents());
            // /proc/sys/net shows the namespace of the thread that reads it: this one is in the resolver's.
            sysctls = CmSysctls.read();
            started.complete(null);
        }
        catch (final IOException | RuntimeException ex)
        {
            started.completeExceptionally(ex);
            throw new AgentTerminationException(ex);
        }
    }

    /** Any thread: the lookup a caller may run on its own thread, or null (not started, a hosts file). */
    CallerAddressLookup callerLookup()
    {
        return callerLookup;
    }

    /** Whether the caller is the loop thread, which must never wait for its own work. */
    boolean isLoopThread()
    {
        return Thread.currentThread() == loopThread;
    }

    /** The namespace's sysctls the CM's binds read, as the loop found them at its start. */
    CmSysctls sysctls()
    {
        return sysctls;
    }

    /** Queues work for the loop thread from any thread and wakes it if it waits. */
    void submit(final Consumer<ConductorAgent> command)
    {
        commands.offer(command);
        pollSet.wakeUp();
    }

    /**
     * Queues work for the loop thread from any thread without waking it: for a hand-over that nothing
     * waits for until the caller's next call, which is queued behind it and wakes the loop itself. A
     * wake-up costs an eventfd write and a turn of the loop, per id in cmtime's create qp step. Every
     * {@link #UNWOKEN_LIMIT}th wakes it all the same, since a caller's next call may never come to the loop.
     * Under the {@link RdmaCm}'s lock ({@link RdmaCm#tryEnqueue}).
     */
    void enqueue(final Consumer<ConductorAgent> command)
    {
        commands.offer(command);
        if (++unwoken == UNWOKEN_LIMIT)
        {
            unwoken = 0;
            pollSet.wakeUp();
        }
    }

    void requestClose()
    {
        closing = true;
        pollSet.wakeUp();
    }

    /**
     * Any thread, after it queued work the loop looks for before it waits (a port's calls) or moved the
     * loop's clock: wakes the loop if it waits; a running loop sees the work itself.
     */
    void wake()
    {
        lookAgain = true;
        pollSet.wakeUp();
    }

    /** Closes the wake-up eventfd; only after the loop thread has ended and no one submits any more. */
    void releaseWakeUp()
    {
        try
        {
            pollSet.close();
        }
        catch (final NativeCallException ex)
        {
            LOG.log(System.Logger.Level.WARNING, "closing the conductor's wake-up eventfd: " + ex.getMessage());
        }
    }

    /**
     * The loop thread: watches {@code socket} (opened in the RdmaCm's caller's namespace, where RDMA
     * devices are seen) for RDMA devices that go away. After the loop has ended it only closes it.
     */
    void watchDevices(final UeventSocket socket)
    {
        if (closing || uevents != null)
        {
            socket.close();
            return;
        }
        uevents = socket;
        pollSet.add(socket.fd(), (fd, revents) -> drainUevents());
    }

    /** The loop thread: the port's umad descriptor joins the poll set, and its calls and timers the duty cycle. */
    void addPort(final CmPort port)
    {
        if (closing)
        {
            port.close();
            return;
        }
        ports.add(port);
        pollSet.add(port.fd(), port::onReadable);
    }

    /** The loop thread: the kernel CM's descriptor joins the poll set; its events are read on this thread ({@link KernelCm#onReadable}). */
    void watchKernelCm(final KernelCm kernel)
    {
        if (!closing)
        {
            pollSet.add(kernel.fd(), kernel::onReadable);
        }
    }

    /**
     * The loop thread: a port's CM failed; its descriptor leaves the poll set (it stays listed, refusing
     * calls). When its device is going away, the port is closed and the device's ids get DEVICE_REMOVAL
     * now, as the kernel CM posts it while the device is being unregistered: the uevent comes only once
     * every process has closed its verbs contexts on the device, which an application holding the QP of
     * a connected id does only after DEVICE_REMOVAL.
     */
    void portFailed(final CmPort port)
    {
        pollSet.remove(port.fd());
        if (port.deviceGone())
        {
            ports.remove(port);
            try
            {
                port.close();
            }
            catch (final RuntimeException ex)
            {
                // the dead port refuses its agent's unregistration (EINVAL); its descriptor is closed all the same
                LOG.log(System.Logger.Level.DEBUG, "closing the CM of " + port.name() + ": " + ex.getMessage());
            }
            deviceRemoved.accept(port.device());
        }
    }

    /** Resolutions waiting for a neighbour or a deadline; read on the loop thread only. */
    int waitingCount()
    {
        return timers.count();
    }

    @Override
    public int doWork()
    {
        if (closing)
        {
            throw new AgentTerminationException("RdmaCm closed");
        }
        if (lookAgain)
        {
            lookAgain = false;
        }
        cycleClock.next();
        int work = 0;
        Consumer<ConductorAgent> command;
        while (work < COMMAND_LIMIT && (command = commands.poll()) != null)
        {
            command.accept(this);
            work++;
        }
        // after the commands: what follows in this cycle (handlers, timers, ports) shares one reading
        cycleClock.next();
        if (work > 0 && spinNanos > 0)
        {
            lastCommandNanos = cycleClock.nanoTime();
        }
        try
        {
            work += pollSet.poll();
        }
        catch (final NativeCallException ex)
        {
            throw new IllegalStateException(ex.getMessage(), ex);
        }
        work += expireTimers();
        work += acm.expireTimers();
        final int portCount = ports.size();
        if (portCount > 0)
        {
            final long now = cycleClock.nanoTime();
            for (int i = 0; i < portCount; i++)
            {
                work += ports.get(i).doWork(now);
            }
        }
        return work;
    }

    /** Read after the loop published that it waits: anything queued that it must not sleep through. */
    private boolean workPending()
    {
        if (closing || lookAgain || !commands.isEmpty())
        {
            return true;
        }
        for (int i = 0, n = ports.size(); i < n; i++)
        {
            if (ports.get(i).hasCalls())
            {
                return true;
            }
        }
        return false;
    }

    /** The loop's idle strategy: poll(2) until an event, a wake-up or the earliest deadline. */
    IdleStrategy idleStrategy()
    {
        return new BlockingIdleStrategy(this::awaitWork, "poll");
    }

    private void awaitWork()
    {
        // Real time, not the loop's clock: for spinNanos after the last request, the next one (a caller's
        // next synchronous call) is taken without a wake-up through the eventfd and the scheduler.
        long now;
        do
        {
            if (workPending())
            {
                return;
            }
            Thread.onSpinWait();
            now = System.nanoTime();
        }
        while (now - lastCommandNanos - spinNanos < 0);
        try
        {
            // real time, as long as the loop's clock says its earliest deadline is away; the ports' CM
            // timers are on the system clock. The spin's last reading serves both when they are one clock
            // (always outside tests, which give the loop a clock of their own).
            final long onClock = clock == NanoClock.SYSTEM ? now : clock.nanoTime();
            long timeout = Math.min(timers.nanosToEarliest(onClock), acm.nanosToDeadline(onClock));
            final int portCount = ports.size();
            if (portCount > 0)
            {
                for (int i = 0; i < portCount; i++)
                {
                    final long toDeadline = ports.get(i).nanosToNextDeadline(now);
                    if (toDeadline >= 0 && (timeout < 0 || toDeadline < timeout))
                    {
                        timeout = toDeadline;
                    }
                }
            }
            // the handlers of what wakes the loop run inside the wait: they read the clock afresh
            cycleClock.next();
            pollSet.await(timeout, workPending);
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
            transition(p, PendingResolution.State.FAILED);
            p.id.callFailed(p, Errno.EINTR, "the RdmaCm is closing", CmIdState.ADDR_BOUND);
            return;
        }
        fillMirror();
        if (p.sourceToBind != null)
        {
            try
            {
                final AddressResolver.BoundSource bound = resolver.bindSource(p.sourceToBind, p.query.trace());
                p.query.bound(p.sourceToBind, bound);
                p.id.bound(p.sourceToBind, bound.ifindex(), bound.binding(), bound.hardwareAddress());
            }
            catch (final ResolutionFailure failure)
            {
                transition(p, PendingResolution.State.FAILED);
                p.id.callFailed(p, failure.errno(), failure.getMessage(), CmIdState.IDLE);
                return;
            }
        }
        run(p, false);
    }

    /** {@code cma_resolve_iboe_route}: builds the RoCE path with the loop's rtnetlink, in its namespace. */
    void roceRoute(final PendingRoute r, final CompletableFuture<ResolvedRoute> result)
    {
        try
        {
            result.complete(RouteResolver.synthesizeRoce(r.query, rtnetlink, trafficClasses));
        }
        catch (final RuntimeException ex)
        {
            result.completeExceptionally(ex);
        }
    }

    /** The id was destroyed: drop its resolution without an event. */
    void cancel(final PendingResolution p)
    {
        if (p.timerId != DeadlineTimers.NULL_TIMER)
        {
            forget(p);
            transition(p, PendingResolution.State.CANCELLED);
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
        fillMirror();
        try
        {
            result.complete(resolver.bindSource(source, trace));
        }
        catch (final ResolutionFailure failure)
        {
            result.completeExceptionally(failure);
        }
    }

    /**
     * One {@code process_one_req}: attempt, then finish, keep waiting or fail; holding the id's
     * {@link IdGuard}, as for a command, since a neighbour's event or a deadline brings this work.
     */
    private void run(final PendingResolution p, final boolean atDeadline)
    {
        synchronized (p.id.id.guard)
        {
            attempt(p, atDeadline);
        }
    }

    private void attempt(final PendingResolution p, final boolean atDeadline)
    {
        int status = p.query.earlyStatus();
        String detail = p.query.earlyDetail();
        p.query.earlyUsed();
        if (status == AddressQuery.NOT_ATTEMPTED || status == Errno.ENODATA)
        {
            // not attempted by the caller, or its neighbour must be triggered and waited for: here
            detail = null;
            try
            {
                status = resolver.attempt(p.query);
            }
            catch (final ResolutionFailure failure)
            {
                status = failure.errno();
                detail = failure.getMessage();
            }
        }
        if (status == Errno.ENODATA && !atDeadline && clock.nanoTime() - p.query.deadlineNanos() < 0)
        {
            waitForNeighbour(p);
            return;
        }
        if (p.synchronousPhase && status != 0 && status != Errno.ENODATA)
        {
            // Route and other up-front failures are returned by rdma_resolve_addr itself, without an event.
            transition(p, PendingResolution.State.FAILED);
            p.id.callFailed(p, status, detail, CmIdState.ADDR_BOUND);
            return;
        }
        forget(p);
        if (status != 0)
        {
            final boolean timedOut = atDeadline || clock.nanoTime() - p.query.deadlineNanos() >= 0;
            transition(p, PendingResolution.State.FAILED);
            if (timedOut && p.query.waitingOn() != null)
            {
                p.query.trace().record("neighbour wait", p.query.waitStartNanos(), p.query.waitingOn().address().getHostAddress() +
                    " not valid at the deadline");
            }
            p.id.resolutionFailed(p, timedOut ? Errno.ETIMEDOUT : status,
                timedOut ? "neighbour not resolved within " + p.query.timeoutMs() + " ms" : detail);
            return;
        }
        final AddressResolution resolution;
        try
        {
            resolution = resolver.complete(p.query);
        }
        catch (final ResolutionFailure failure)
        {
            transition(p, PendingResolution.State.FAILED);
            p.id.resolutionFailed(p, failure.errno(), failure.getMessage());
            return;
        }
        transition(p, PendingResolution.State.RESOLVED);
        p.id.resolved(p, resolution);
    }

    private void waitForNeighbour(final PendingResolution p)
    {
        if (p.synchronousPhase)
        {
            p.synchronousPhase = false;
            p.id.accepted(p);
        }
        if (p.timerId == DeadlineTimers.NULL_TIMER)
        {
            p.timerId = timers.schedule(p, p.query.deadlineNanos());
            transition(p, PendingResolution.State.WAITING_FOR_NEIGHBOUR);
        }
        p.query.forgetAttempt();
        final List<PendingResolution> waiters = byNeighbour.computeIfAbsent(p.query.waitingOn(), k -> new ArrayList<>(2));
        if (!waiters.isEmpty())
        {
            // Each attempt makes its own key; the waiters of one neighbour share the first one's.
            p.query.shareWaitKey(waiters.getFirst().query.waitingOn());
        }
        if (!waiters.contains(p))
        {
            waiters.add(p);
        }
    }

    /** Removes {@code p} from the timers and the neighbour index; it is no longer pending. */
    private void forget(final PendingResolution p)
    {
        if (p.synchronousPhase)
        {
            p.synchronousPhase = false;
            p.id.accepted(p);
        }
        p.timerId = timers.cancel(p.timerId);
        removeFromNeighbourIndex(p);
    }

    // ---- kernel events ----

    /**
     * The first resolution fills the mirror, on the events socket (its answers in order with the events
     * read meanwhile); so does the first after lost events. A mirror that cannot be filled leaves every
     * lookup to the kernel.
     */
    private void fillMirror()
    {
        if (mirror == null || mirror.state() != NetlinkMirror.State.EMPTY || resolver instanceof HostsAddressResolver)
        {
            return;
        }
        try
        {
            mirror.synchronise(onEvent);
        }
        catch (final IOException | RuntimeException ex)
        {
            if (NetlinkMirror.lostNotifications(ex))
            {
                lostEvents();
            }
            else
            {
                LOG.log(System.Logger.Level.WARNING, "the link, address and neighbour mirror cannot be filled; " +
                    "resolutions ask the kernel: " + ex.getMessage());
            }
        }
        runReruns();
    }

    /** ENOBUFS: waiting neighbours may have become valid, qdiscs may have changed, and the mirror is stale. */
    private void lostEvents()
    {
        trafficClasses.clear();
        for (final List<PendingResolution> waiters : byNeighbour.values())
        {
            rerun.addAll(waiters);
        }
        mirror.invalidate();
    }

    private int drainEvents()
    {
        final int messages;
        try
        {
            mirror.notificationsReading();
            messages = events.drain(onEvent);
        }
        catch (final NativeCallException ex)
        {
            throw new IllegalStateException(ex.getMessage(), ex);
        }
        finally
        {
            mirror.notificationsRead();
        }
        if (messages < 0)
        {
            // The kernel dropped events (ENOBUFS): any waiting neighbour may have become valid meanwhile,
            // and any netdev's qdiscs may have changed.
            LOG.log(System.Logger.Level.WARNING, "rtnetlink events were dropped (ENOBUFS): waiting resolutions run again; " +
                "a bonding failover among them is lost, and its ids get no ADDR_CHANGE");
            final boolean wasLive = mirror.state() == NetlinkMirror.State.LIVE;
            lostEvents();
            if (wasLive)
            {
                fillMirror();
            }
        }
        return Math.max(messages, 0) + runReruns();
    }

    /** Runs the waiting resolutions the events made runnable again; returns how many. */
    private int runReruns()
    {
        final int count = rerun.size();
        for (int i = 0; i < count; i++)
        {
            final PendingResolution p = rerun.get(i);
            if (p.timerId != DeadlineTimers.NULL_TIMER)
            {
                removeFromNeighbourIndex(p);
                run(p, false);
            }
        }
        rerun.clear();
        return count;
    }

    private void onEvent(final NetlinkMessageHeader header, final DirectBuffer buffer, final int end)
    {
        mirror.apply(header, buffer, end);
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
        else if (type == NetlinkMessageHeader.RTM_NEWQDISC || type == NetlinkMessageHeader.RTM_DELQDISC)
        {
            trafficClasses.changed(rtnetlink.decodeQdiscIfindex(header, buffer, end));
        }
        else if (type == NetlinkMessageHeader.RTM_NEWLINK)
        {
            final Link link = rtnetlink.decodeLink(header, buffer, end);
            if (link.isBondingFailover() && link.isBondMaster())
            {
                bondFailover.failedOver(link.ifindex(), link.name(), link.address());
            }
        }
        else if (type == NetlinkMessageHeader.RTM_DELLINK)
        {
            final int ifindex = rtnetlink.decodeLink(header, buffer, end).ifindex();
            trafficClasses.changed(ifindex);
            for (final Map.Entry<NeighbourKey, List<PendingResolution>> entry : byNeighbour.entrySet())
            {
                if (entry.getKey().ifindex() == ifindex)
                {
                    rerun.addAll(entry.getValue());
                }
            }
        }
    }

    private int drainUevents()
    {
        try
        {
            return uevents.drain(event ->
            {
                final String device = event.removedRdmaDevice();
                if (device != null)
                {
                    deviceRemoved.accept(device);
                }
            });
        }
        catch (final RuntimeException ex)
        {
            // as the watch thread did: the watch stops, the loop goes on
            LOG.log(System.Logger.Level.ERROR, "RDMA device watch stopped: " + ex.getMessage(), ex);
            pollSet.remove(uevents.fd());
            uevents.close();
            uevents = null;
            return 1;
        }
    }

    private void removeFromNeighbourIndex(final PendingResolution p)
    {
        if (p.query.waitingOn() == null)
        {
            return;
        }
        final List<PendingResolution> waiters = byNeighbour.get(p.query.waitingOn());
        if (waiters != null)
        {
            waiters.remove(p);
            if (waiters.isEmpty())
            {
                byNeighbour.remove(p.query.waitingOn());
            }
        }
    }

    // ---- deadlines ----

    private int expireTimers()
    {
        // no clock read in a cycle without resolutions waiting, as in every cycle of a connection
        return timers.count() == 0 ? 0 : timers.expire(clock.nanoTime(), onDeadline, TIMER_EXPIRY_LIMIT);
    }

    /** WAITING_FOR_NEIGHBOUR at its deadline: one last attempt, where any failure becomes ETIMEDOUT. */
    private void onDeadline(final PendingResolution p, final long timerId, final long now)
    {
        p.timerId = DeadlineTimers.NULL_TIMER;
        removeFromNeighbourIndex(p);
        run(p, true);
    }

    /** The one place a pending resolution changes state. */
    private void transition(final PendingResolution p, final PendingResolution.State next)
    {
        final PendingResolution.State previous = p.state;
        PendingResolution.TRANSITIONS.require(p, previous, next);
        p.state = next;
        if (transitions.sees())
        {
            transitions.onTransition(p, previous, next, clock.nanoTime());
        }
    }

    /** After the loop thread has ended: fails requests that were queued too late to run. */
    void failQueued()
    {
        Consumer<ConductorAgent> command;
        while ((command = commands.poll()) != null)
        {
            command.accept(this);
        }
    }

    @Override
    public void onClose()
    {
        // the ids' last calls below run outside any duty cycle: their time is read afresh
        cycleClock.next();
        for (final PendingResolution p : timers.subjects())
        {
            synchronized (p.id.id.guard)
            {
                forget(p);
                transition(p, PendingResolution.State.FAILED);
                p.id.resolutionFailed(p, Errno.EINTR, "the RdmaCm was closed");
            }
        }
        Consumer<ConductorAgent> command;
        while ((command = commands.poll()) != null)
        {
            command.accept(this);
        }
        // the ids' last calls (destroy's REJ, DREQ or DREP) still go out
        for (final CmPort port : ports)
        {
            pollSet.remove(port.fd());
            port.close();
        }
        ports.clear();
        if (uevents != null)
        {
            pollSet.remove(uevents.fd());
            uevents.close();
            uevents = null;
        }
        if (callerLookup != null)
        {
            // clients lent out close when they come back
            callerLookup.close();
        }
        if (resolver != null)
        {
            resolver.close();
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
    }
}
