package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.netlink.HardwareAddress;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.ResolvedRoute;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The conductor: owns every id's {@link IdContext}, in a map by number, and is the only code that reads or
 * writes one. It runs
 * on the resolver loop's thread ({@link ConductorAgent}), which drains its commands in its duty cycle, so
 * an id's state, its resolution and the loop's neighbour tables change on one thread and need no lock.
 * Callers reach it through {@link ConductorProxy}, whose methods {@link #send} an {@link IdCommand}, queued through {@code ConductorAgent.submit}
 * (run at once when the caller is the loop itself), whose reply future a synchronous caller waits on, on
 * its own thread; the conductor never waits.
 * <p>
 * Once the loop has ended ({@link RdmaCm#close}), commands still sent (an id destroyed after its CM, an SA
 * answer arriving late) run on their sender's thread, one at a time, as the loop would have run them.
 */
final class IdConductor
{
    private final ConductorAgent agent;
    private final RoutePhase routes;
    private final MulticastPhase multicast;
    /**
     * Every id not destroyed that a command has reached, by number (an id no command reached is IDLE with
     * its defaults, and gets its context with its first command): those bound to a device that goes away
     * get DEVICE_REMOVAL.
     */
    private final Long2ObjectHashMap<IdContext> contexts = new Long2ObjectHashMap<>();
    private final RdmaCm cm;
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private volatile boolean loopEnded;

    IdConductor(final RdmaCm cm, final ConductorAgent agent, final AcmRouteExchange acm, final NanoClock clock,
        final TransitionListener<PendingRoute, PendingRoute.State> routeTransitions)
    {
        this.cm = cm;
        this.agent = agent;
        final ConductorProxy proxy = new ConductorProxy(this);
        this.routes = new RoutePhase(proxy, acm, clock, routeTransitions);
        this.multicast = new MulticastPhase(proxy);
    }

    /**
     * Any thread: the command runs on the conductor. A call made on the loop itself (from a callback) whose
     * caller waits for the reply runs at once, as it could not run later, and so does a command that the
     * caller's next call must find done ({@link IdCommand.InCallersOrder}); anything else the loop runs
     * after what it is doing, so that the resolver's tables never change under its feet.
     */
    void send(final IdCommand command)
    {
        final ThreadCommands sender = ThreadCommands.ofThisThread();
        sender.sending();
        if (agent.isLoopThread() && inCallersOrder(command))
        {
            onCommand(command, sender);
        }
        else if (!cm.trySubmit(loop -> onCommand(command, sender)))
        {
            // the loop's own last cycle (a destroy's leave answered at once) cannot wait for its end
            if (!agent.isLoopThread())
            {
                ended.join();
            }
            synchronized (this)
            {
                onCommand(command, sender);
            }
        }
    }

    /**
     * Any thread: a hand-over that no one waits for ({@code rdma_create_qp}'s QP) is queued without
     * waking the loop. The caller's next call on the id is queued behind it and wakes the loop, so the
     * loop finds the hand-over done before it runs that call; on the loop itself it runs at once.
     */
    void handOver(final IdCommand.InCallersOrder command)
    {
        final ThreadCommands sender = ThreadCommands.ofThisThread();
        sender.sending();
        if (agent.isLoopThread())
        {
            onCommand(command, sender);
        }
        else if (!cm.tryEnqueue(loop -> onCommand(command, sender)))
        {
            ended.join();
            synchronized (this)
            {
                onCommand(command, sender);
            }
        }
    }

    /** The route phase, whose RoCE synthesis a caller may run itself ({@link CallerRoute}). */
    RoutePhase routes()
    {
        return routes;
    }

    /**
     * Any thread, after a caller finished a resolution on its own thread ({@link CallerResolution}) on an
     * id no command had reached: the conductor takes the id's context into its map at its next duty cycle,
     * without being woken (a device removal must find the id; nothing else waits for it).
     */
    void adopt(final RdmaCmId id)
    {
        cm.tryEnqueue(loop -> adopted(id));
    }

    /**
     * Any thread, after a caller destroyed an id itself ({@link CallerDestroy}): the conductor drops it from
     * its map at its next duty cycle, without being woken; until then the id's context is in DESTROYING,
     * which every walk of the map passes over and every command refuses.
     */
    void forget(final RdmaCmId id)
    {
        cm.tryEnqueue(loop -> contexts.remove(id.number()));
    }

    private void adopted(final RdmaCmId id)
    {
        synchronized (id.guard)
        {
            context(id);
        }
    }

    /**
     * The id a command works on, whose {@link IdGuard} the conductor holds while it runs; null for one
     * that names none (a device, a group's answer). Exhaustive: a new command must say.
     */
    private static RdmaCmId target(final IdCommand command)
    {
        return switch (command)
        {
            case IdCommand.SetOption c -> c.id();
            case IdCommand.BindIp c -> c.id();
            case IdCommand.BindIb c -> c.id();
            case IdCommand.ResolveIp c -> c.id();
            case IdCommand.ResolveIb c -> c.id();
            case IdCommand.ResolveRoute c -> c.id();
            case IdCommand.SetIbPath c -> c.id();
            case IdCommand.AddrinfoBegin c -> c.id();
            case IdCommand.AddrinfoEnd c -> c.id();
            case IdCommand.AddrinfoTake c -> c.id();
            case IdCommand.WriteEvent c -> c.id();
            case IdCommand.AttachRcQp c -> c.id();
            case IdCommand.AttachUdQp c -> c.id();
            case IdCommand.JoinMulticast c -> c.id();
            case IdCommand.LeaveMulticast c -> c.id();
            case IdCommand.Connect c -> c.id();
            case IdCommand.Listen c -> c.id();
            case IdCommand.PrepareAccept c -> c.id();
            case IdCommand.Accept c -> c.id();
            case IdCommand.ReadyToUse c -> c.id();
            case IdCommand.RtuSent c -> c.id();
            case IdCommand.Reject c -> c.id();
            case IdCommand.Disconnect c -> c.id();
            case IdCommand.Destroy c -> c.id();
            case IdCommand.AcmAnswered c -> c.id();
            case IdCommand.SaAnswered c -> c.id();
            case IdCommand.ConnectionEvent c -> c.id();
            case IdCommand.ConnectionRequest c -> c.id();
            case IdCommand.MulticastAnswered c -> null;
            case IdCommand.BroadcastGroupAnswered c -> null;
            case IdCommand.DeviceRemoved c -> null;
            case IdCommand.BondFailedOver c -> null;
        };
    }

    private static boolean inCallersOrder(final IdCommand command)
    {
        return command instanceof IdCommand.InCallersOrder ||
            command instanceof IdCommand.ResolveRoute route && route.reply() != null;
    }

    /** From {@link RdmaCm#close}, once the loop thread has ended: commands queued too late run here, and from now on on their senders. */
    void loopEnded(final Runnable failQueued)
    {
        loopEnded = true;
        synchronized (this)
        {
            failQueued.run();
            // as closing rdma_cm's file destroys its ids, every group an id still holds is left
            contexts.values().forEach(multicast::destroyed);
            multicast.close();
        }
        ended.complete(null);
    }

    /** Runs {@code command} holding its id's {@link IdGuard}, and counts it run for its sender. */
    private void onCommand(final IdCommand command, final ThreadCommands sender)
    {
        try
        {
            final RdmaCmId target = target(command);
            if (target == null)
            {
                run(command);
                return;
            }
            synchronized (target.guard)
            {
                run(command);
            }
        }
        finally
        {
            sender.ran();
        }
    }

    private void run(final IdCommand command)
    {
        try
        {
            dispatch(command);
        }
        catch (final RuntimeException ex)
        {
            switch (command)
            {
                case IdCommand.Call call -> call.reply().completeExceptionally(ex);
                case IdCommand.ResolveIp resolve ->
                {
                    if (resolve.reply() != null)
                    {
                        resolve.reply().completeExceptionally(ex);
                    }
                    resolve.completion().completeExceptionally(ex);
                }
                case IdCommand.ResolveRoute resolve ->
                {
                    if (resolve.reply() != null)
                    {
                        resolve.reply().completeExceptionally(ex);
                    }
                    resolve.completion().completeExceptionally(ex);
                }
                default -> throw ex;
            }
        }
    }

    private void dispatch(final IdCommand command) throws RdmaCmException
    {
        switch (command)
        {
            case IdCommand.SetOption c ->
            {
                setOption(context(c.id()), c.option());
                c.reply().complete(null);
            }
            case IdCommand.BindIp c ->
            {
                AddressPhase.bind(agent, loopEnded, context(c.id()), c.source(), c.port());
                c.reply().complete(null);
            }
            case IdCommand.BindIb c ->
            {
                AddressPhase.bindIb(context(c.id()), c.source());
                c.reply().complete(null);
            }
            case IdCommand.ResolveIp c -> AddressPhase.resolve(agent, loopEnded, context(c.id()), c.source(), c.destination(),
                c.sourcePort(), c.destinationPort(), c.timeoutMs(), c.startNanos(), c.early(), c.reply(), c.completion());
            case IdCommand.ResolveIb c ->
            {
                AddressPhase.resolveIb(context(c.id()), c.source(), c.destination());
                c.reply().complete(null);
            }
            case IdCommand.ResolveRoute c -> routes.resolve(agent, loopEnded, context(c.id()), c.timeoutMs(), c.askAcm(),
                c.reply(), c.completion());
            case IdCommand.SetIbPath c ->
            {
                RoutePhase.setPath(context(c.id()), c.pathData(), ResolvedRoute.Kind.GIVEN, null);
                c.reply().complete(null);
            }
            case IdCommand.AddrinfoBegin c ->
            {
                final IdContext context = context(c.id());
                context.requireNotDestroyed(AddrinfoLookup.CALL);
                context.addrinfo.begin();
                c.reply().complete(null);
            }
            case IdCommand.AddrinfoEnd c ->
            {
                final IdContext context = context(c.id());
                if (c.entries() == null)
                {
                    context.addrinfo.failed();
                }
                else
                {
                    context.addrinfo.resolved(c.entries());
                    context.deliver(new CmEvent.AddrinfoResolved(context.id));
                }
                c.reply().complete(null);
            }
            case IdCommand.AddrinfoTake c -> c.reply().complete(context(c.id()).addrinfo.take());
            case IdCommand.WriteEvent c ->
            {
                final IdContext context = context(c.id());
                context.requireNotDestroyed("rdma_write_cm_event");
                context.deliver(new CmEvent.User(context.id, c.status(), c.arg()));
                c.reply().complete(null);
            }
            case IdCommand.AttachRcQp c -> ConnectionPhase.attachQp(context(c.id()), c.queuePair());
            case IdCommand.AttachUdQp c -> ConnectionPhase.attachQp(context(c.id()), c.queuePair());
            case IdCommand.JoinMulticast c ->
            {
                multicast.join(context(c.id()), c.group(), c.flag(), c.context());
                c.reply().complete(null);
            }
            case IdCommand.LeaveMulticast c ->
            {
                multicast.leave(context(c.id()), c.group());
                c.reply().complete(null);
            }
            case IdCommand.MulticastAnswered c -> multicast.onAnswer(c.answer());
            case IdCommand.BroadcastGroupAnswered c -> multicast.onBroadcastGroup(c.pKey(), c.record(), c.failure());
            case IdCommand.Connect c ->
            {
                ConnectionPhase.connect(context(c.id()), c.parameters());
                c.reply().complete(null);
            }
            case IdCommand.Listen c ->
            {
                ConnectionPhase.listen(context(c.id()), c.backlog());
                c.reply().complete(null);
            }
            case IdCommand.PrepareAccept c -> ConnectionPhase.prepareAccept(context(c.id()), c.parameters(), c.reply());
            case IdCommand.Accept c -> ConnectionPhase.accept(context(c.id()), c.parameters(), c.reply());
            case IdCommand.ReadyToUse c -> ConnectionPhase.readyToUse(context(c.id()), c.reply());
            case IdCommand.RtuSent c -> ConnectionPhase.rtuSent(context(c.id()), c.reply());
            case IdCommand.Reject c ->
            {
                ConnectionPhase.reject(context(c.id()), c.privateData());
                c.reply().complete(null);
            }
            case IdCommand.Disconnect c ->
            {
                ConnectionPhase.disconnect(context(c.id()));
                c.reply().complete(null);
            }
            case IdCommand.Destroy c -> destroy(context(c.id()));
            case IdCommand.AcmAnswered c -> routes.onAcmAnswer(agent, loopEnded, context(c.id()), c.route(), c.answer(),
                c.startNanos(), c.addresses());
            case IdCommand.SaAnswered c -> routes.onSaAnswer(context(c.id()), c.route(), c.resolved(), c.failure());
            case IdCommand.ConnectionEvent c -> ConnectionPhase.onEvent(context(c.id()), c.event(), c.next());
            case IdCommand.ConnectionRequest c -> ConnectionPhase.onRequest(context(c.id()), context(c.child()),
                c.connection(), c.from(), c.privateData());
            case IdCommand.DeviceRemoved c -> deviceRemoved(c.device());
            case IdCommand.BondFailedOver c -> bondFailedOver(c.ifindex(), c.bond(), c.address());
        }
    }

    /**
     * The id's context, made at its first command. A destroyed id has none any more: a call on it finds a
     * context made for the call, in DESTROYING, which refuses what a destroyed id refuses.
     */
    private IdContext context(final RdmaCmId id)
    {
        IdContext c = contexts.get(id.number());
        if (c == null)
        {
            // a caller that resolved on its own thread made it ({@link CallerResolution})
            c = id.guard.context();
            if (c == null)
            {
                c = new IdContext(id, cm, id.portSpace());
                if (id.view().state() == CmIdState.DESTROYING)
                {
                    c.state = CmIdState.DESTROYING;
                }
                id.guard.context(c);
            }
            if (c.state != CmIdState.DESTROYING)
            {
                contexts.put(id.number(), c);
            }
        }
        return c;
    }

    /** The conductor thread: the id's context, for the kernel CM's CONNECT_REQUEST, whose new id it addresses. */
    IdContext contextOf(final RdmaCmId id)
    {
        return context(id);
    }

    private static void setOption(final IdContext c, final IdOption option) throws RdmaCmException
    {
        switch (option)
        {
            case IdOption.ServiceType o -> c.tos = o.typeOfService();
            case IdOption.AckTimeout o -> c.ackTimeout = o.timeout();
            case IdOption.CmResponseTimeout o ->
            {
                c.cmResponseTimeout = o.timeout();
                c.maxCmRetries = o.maxRetries();
            }
            case IdOption.ReuseAddr o ->
            {
                if (c.state != CmIdState.IDLE)
                {
                    throw new RdmaCmException("rdma_set_option", Errno.EINVAL, "REUSEADDR on an id that is " + c.state +
                        ", not IDLE", true);
                }
                c.reuseAddr = o.reuse();
            }
            case IdOption.AfOnly o ->
            {
                if (c.state != CmIdState.IDLE && c.state != CmIdState.ADDR_BOUND)
                {
                    throw new RdmaCmException("rdma_set_option", Errno.EINVAL, "AFONLY on an id that is " + c.state +
                        ", not IDLE or ADDR_BOUND", true);
                }
                c.afOnly = o.value();
            }
            case IdOption.SourceFlowinfo o -> c.sourceFlowinfo = o.flowinfo();
        }
    }

    /**
     * {@code rdma_destroy_id} on the conductor: DESTROYING, the connection closed (REJ, DREQ or DREP go
     * out), the port released, a pending resolution or route dropped without an event. Its caller did not
     * wait: the handle's channel drops the events this made for the id in the meantime.
     */
    private void destroy(final IdContext c)
    {
        if (c.state == CmIdState.DESTROYING)
        {
            return;
        }
        c.transition(CmIdState.DESTROYING, "destroy");
        if (c.connection != null)
        {
            c.connection.close();
        }
        c.portListens.forEach(IdConnection::close);
        multicast.destroyed(c);
        c.releasePort();
        contexts.remove(c.id.number());
        final PendingResolution p = c.pending;
        c.pending = null;
        routes.cancel(c, null);
        if (p != null)
        {
            cancelLater(p);
        }
    }

    /** The loop drops {@code p}'s timer and neighbour entry after what it is doing (a destroy may come from its callbacks). */
    private void cancelLater(final PendingResolution p)
    {
        cm.trySubmit(loop -> loop.cancel(p));
    }

    /**
     * {@code cma_send_device_removal_put}: an id bound to {@code device} (by bind, or by a resolved
     * address) moves to DEVICE_REMOVAL, a resolution or route still pending is dropped, and
     * DEVICE_REMOVAL is posted once.
     */
    private void deviceRemoved(final String device)
    {
        for (final IdContext c : new ArrayList<>(contexts.values()))
        {
            synchronized (c.id.guard)
            {
                deviceRemoved(c, device);
            }
        }
    }

    private void deviceRemoved(final IdContext c, final String device)
    {
        final RdmaPortBinding bound = c.resolution != null ? c.resolution.binding() : c.binding;
        if (bound == null || !bound.device().equals(device) || c.state == CmIdState.IDLE ||
            c.state == CmIdState.DESTROYING || c.state == CmIdState.DEVICE_REMOVAL)
        {
            return;
        }
        c.transition(CmIdState.DEVICE_REMOVAL, "device " + device + " removed");
        final PendingResolution p = c.pending;
        c.pending = null;
        if (p != null)
        {
            cancelLater(p);
            final RdmaCmException removed = new RdmaCmException("rdma_resolve_addr", Errno.ENODEV,
                "device " + device + " was removed", false, p.query.trace());
            p.endCall(removed);
            p.completion.completeExceptionally(removed);
        }
        routes.cancel(c, device);
        c.deliver(new CmEvent.DeviceRemoval(c.id));
    }

    /**
     * {@code cma_netdev_callback} on NETDEV_BONDING_FAILOVER: every id bound to {@code ifindex} whose
     * stored source MAC is not the bond's {@code address} now gets ADDR_CHANGE. All ids are looked at
     * before the first event is posted, so an application that sees one has seen the decision for all.
     */
    private void bondFailedOver(final int ifindex, final String bond, final byte[] address)
    {
        final List<IdContext> changed = new ArrayList<>();
        final HardwareAddress bondAddress = HardwareAddress.of(address);
        for (final IdContext c : contexts.values())
        {
            synchronized (c.id.guard)
            {
                if (boundToNetdevWithOtherAddress(c, ifindex, bondAddress))
                {
                    changed.add(c);
                }
            }
        }
        changed.forEach(c -> c.deliver(new CmEvent.AddrChange(c.id)));
    }

    /**
     * {@code cma_netdev_change}'s test: the id is on an RDMA device, its {@code bound_dev_if} is
     * {@code ifindex} and its {@code src_dev_addr} differs from the netdev's {@code address}. Nothing here
     * updates {@code src_dev_addr} afterwards, as in the kernel: a failover back to the slave whose MAC
     * the id stored changes nothing.
     */
    private static boolean boundToNetdevWithOtherAddress(final IdContext c, final int ifindex, final HardwareAddress address)
    {
        if (c.state == CmIdState.IDLE || c.state == CmIdState.DESTROYING || c.state == CmIdState.DEVICE_REMOVAL)
        {
            return false;
        }
        if (c.resolution != null)
        {
            return c.resolution.ifindex() == ifindex && !c.resolution.sourceHardwareAddress().equals(address);
        }
        return c.binding != null && c.boundIfindex == ifindex && !c.boundHardwareAddress.equals(address);
    }
}
