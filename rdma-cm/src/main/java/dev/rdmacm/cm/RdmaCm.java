package dev.rdmacm.cm;

import dev.rdmacm.cm.diagnostics.CmMadFilter;
import dev.rdmacm.cm.diagnostics.CmMadRecorder;
import dev.rdmacm.cm.diagnostics.ConnectionTransitionListener;
import dev.rdmacm.cm.diagnostics.KernelDifferenceListener;
import dev.rdmacm.cm.diagnostics.StateTransitionListener;
import dev.rdmacm.ibcm.IbCmConnection;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.libc.ProcessCapabilities;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.netlink.NetlinkException;
import dev.rdmacm.netlink.UeventSocket;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.resolver.NeighbourTriggerMode;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.resolver.spi.HostsNeighbours;
import dev.rdmacm.resolver.spi.KernelProfile;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.verbs.sysfs.SysfsDevices;
import dev.rdmacm.verbs.sysfs.SysfsFormatException;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The entry point, what librdmacm's global state is: one conductor thread that owns every id created
 * here, resolves their addresses in the network namespace given (or the caller's), and runs the CM of
 * every RDMA port they connect or listen on.
 * <p>
 * Ownership: an RdmaCm closes what it opened and never what it was given. The {@link SaClient} of
 * {@link Options#sa} belongs to the caller, who closes it after the RdmaCm (a try-with-resources
 * that opens the client first does that).
 * <pre>{@code
 * try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().gids(directory).build());
 *      EventChannel channel = cm.createEventChannel())
 * {
 *     RdmaCmId id = cm.createId(channel);
 *     id.resolveAddr(null, InetAddress.getByName("10.1.0.2"), Duration.ofMillis(2000));
 *     CmEvent event = channel.getEvent();   // ADDR_RESOLVED or ADDR_ERROR
 *     event.ack();
 * }
 * }</pre>
 */
public final class RdmaCm implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(RdmaCm.class.getName());

    /**
     * 50 us on a machine with more than one CPU, else none (a spinning caller would hold the CPU the
     * loop needs). Measured (issue 15, {@code ResolverBenchmark.resolveAddrSynchronous}): a synchronous
     * resolveAddr took 89-98 us with no spin and 21-33 us with it, against 15-19 us for its netlink
     * round trips.
     */
    public static final Duration DEFAULT_SPIN =
        Runtime.getRuntime().availableProcessors() > 1 ? Duration.ofNanos(50_000) : Duration.ZERO;

    /**
     * How an {@code RdmaCm} resolves and what it reports: an immutable value, made by {@link #builder()}
     * (or {@link #defaults()}), which {@link RdmaCm#open(Options)} takes.
     */
    public static final class Options
    {
        private final Path networkNamespace;
        private final GidDirectory gids;
        private final NeighbourTriggerMode trigger;
        private final StateTransitionListener listener;
        private final HostsNeighbours hostsNeighbours;
        private final SaClient sa;
        private final KernelProfile kernelProfile;
        private final AcmFirstRoute acmFirstRoute;
        private final Duration spin;
        private final boolean routeCache;
        private final int maxBacklog;
        private final ConnectionManager connectionManager;
        private final KernelDifferenceListener kernelDifferences;

        private Options(final Builder builder)
        {
            this.networkNamespace = builder.networkNamespace;
            this.gids = builder.gids;
            this.trigger = builder.trigger;
            this.listener = builder.listener;
            this.hostsNeighbours = builder.hostsNeighbours;
            this.sa = builder.sa;
            this.kernelProfile = builder.kernelProfile;
            this.acmFirstRoute = builder.acmFirstRoute;
            this.spin = builder.spin;
            this.routeCache = builder.routeCache;
            this.maxBacklog = builder.maxBacklog;
            this.connectionManager = builder.connectionManager;
            this.kernelDifferences = builder.kernelDifferences;
        }

        /** {@return a builder holding the defaults ({@link #defaults()})} */
        public static Builder builder()
        {
            return new Builder();
        }

        /**
         * This machine's RDMA devices ({@link GidDirectory#live} of the process's environment, read when
         * the CM opens and again when a lookup misses, so GIDs of addresses added later are found; none
         * when no RDMA driver is loaded), the kernel's neighbour trigger, no listener, no hosts file, no
         * SA, ACM asked first as librdmacm does, a spin of {@link #DEFAULT_SPIN}, no route cache, a
         * {@link #maxBacklog()} of 1024. Nothing
         * is read here: options given other tables ({@link Builder#gids}) never read this machine's.
         *
         * @return the options by default.
         */
        public static Options defaults()
        {
            return builder().build();
        }

        /** {@return a builder that starts from these options} */
        public Builder toBuilder()
        {
            return new Builder(this);
        }

        /** {@return the namespace to resolve in, or null for the caller's} */
        public Path networkNamespace()
        {
            return networkNamespace;
        }

        /** {@return the RDMA devices' GID tables; null: this machine's, read when the CM opens} */
        public GidDirectory gids()
        {
            return gids;
        }

        /** {@return how neighbour resolution is started} */
        public NeighbourTriggerMode trigger()
        {
            return trigger;
        }

        /** {@return sees every id state transition} */
        public StateTransitionListener listener()
        {
            return listener;
        }

        /** {@return an ibacm hosts file standing in for IPoIB and the IP stack, or null} */
        public HostsNeighbours hostsNeighbours()
        {
            return hostsNeighbours;
        }

        /** {@return the SA that InfiniBand routes are asked of, or null} */
        public SaClient sa()
        {
            return sa;
        }

        /** {@return the kernel whose rules apply where kernels differ} */
        public KernelProfile kernelProfile()
        {
            return kernelProfile;
        }

        /** {@return whether and where {@code resolveRoute} asks an ACM service first, as librdmacm does} */
        public AcmFirstRoute acmFirstRoute()
        {
            return acmFirstRoute;
        }

        /**
         * How long the event loop, after a request, and a caller of a synchronous call spin before they
         * block: a hand-off between two threads that are awake costs no scheduler wake-up.
         *
         * @return the spin; zero never spins.
         */
        public Duration spin()
        {
            return spin;
        }

        /**
         * Whether the conductor keeps the kernel's route answers without a gateway (on-link and local
         * destinations) until a route, rule, nexthop, link, address, netconf or neighbour notification,
         * or lost notifications (ENOBUFS), may have changed them (off by default; docs/decisions.md,
         * resolver: "an opt-in route cache").
         *
         * @return whether the route cache is on.
         */
        public boolean routeCache()
        {
            return routeCache;
        }

        /**
         * {@code net.rdma_ucm.max_backlog} (default 1024): the backlog of a listen asked for 0, or for more
         * than this, as the kernel's {@code ucma_listen} takes it. A listener keeps at most its backlog of
         * connect requests whose CONNECT_REQUEST the application has not taken; the REQs beyond are
         * dropped (docs/decisions.md, rdma-cm: "a listener's backlog").
         *
         * @return the largest backlog a listener keeps.
         */
        public int maxBacklog()
        {
            return maxBacklog;
        }

        /**
         * Which CM runs the connections (default {@link ConnectionManager#AUTO}): this stack's on umad, the
         * kernel's through {@code /dev/infiniband/rdma_cm}, or the first where it can own the port's CM class
         * and the second where {@code ib_cm} holds it.
         *
         * @return the connection manager asked for.
         */
        public ConnectionManager connectionManager()
        {
            return connectionManager;
        }

        /**
         * Told, on the conductor's thread, of every field where the kernel's CM answered an id otherwise than
         * this stack's resolution (QUERY ADDR and QUERY PATH after the kernel resolved); none by default.
         *
         * @return the listener.
         */
        public KernelDifferenceListener kernelDifferences()
        {
            return kernelDifferences;
        }

        @Override
        public String toString()
        {
            return "Options{networkNamespace=" + networkNamespace + ", gids=" + gids + ", trigger=" + trigger +
                ", hostsNeighbours=" + hostsNeighbours + ", sa=" + sa + ", kernelProfile=" + kernelProfile +
                ", acmFirstRoute=" + acmFirstRoute + ", spin=" + spin + ", routeCache=" + routeCache +
                ", maxBacklog=" + maxBacklog + ", connectionManager=" + connectionManager + "}";
        }

        /** Fluent and checked as it goes: a bad value fails at its setter, naming it and the rule. */
        public static final class Builder
        {
            private Path networkNamespace;
            private GidDirectory gids;
            private NeighbourTriggerMode trigger = NeighbourTriggerMode.NTF_USE_ELSE_UDP;
            private StateTransitionListener listener = StateTransitionListener.NONE;
            private HostsNeighbours hostsNeighbours;
            private SaClient sa;
            private KernelProfile kernelProfile = KernelProfile.defaultProfile();
            private AcmFirstRoute acmFirstRoute = AcmFirstRoute.LIBRDMACM;
            private Duration spin = DEFAULT_SPIN;
            private boolean routeCache;
            private int maxBacklog = ListenBacklog.DEFAULT_MAX_BACKLOG;
            private ConnectionManager connectionManager = ConnectionManager.AUTO;
            private KernelDifferenceListener kernelDifferences = KernelDifferenceListener.NONE;

            private Builder()
            {
            }

            private Builder(final Options options)
            {
                this.networkNamespace = options.networkNamespace;
                this.gids = options.gids;
                this.trigger = options.trigger;
                this.listener = options.listener;
                this.hostsNeighbours = options.hostsNeighbours;
                this.sa = options.sa;
                this.kernelProfile = options.kernelProfile;
                this.acmFirstRoute = options.acmFirstRoute;
                this.spin = options.spin;
                this.routeCache = options.routeCache;
                this.maxBacklog = options.maxBacklog;
                this.connectionManager = options.connectionManager;
                this.kernelDifferences = options.kernelDifferences;
            }

            /**
             * {@link Options#connectionManager()}.
             *
             * @param manager USERSPACE, KERNEL or AUTO.
             * @return this builder.
             */
            public Builder connectionManager(final ConnectionManager manager)
            {
                this.connectionManager = Objects.requireNonNull(manager, "connectionManager");
                return this;
            }

            /**
             * {@link Options#kernelDifferences()}.
             *
             * @param listener told of each difference; {@link KernelDifferenceListener#NONE} for none.
             * @return this builder.
             */
            public Builder kernelDifferences(final KernelDifferenceListener listener)
            {
                this.kernelDifferences = Objects.requireNonNull(listener, "kernelDifferences");
                return this;
            }

            /**
             * Resolve in the namespace at {@code path}.
             *
             * @param path the namespace's file (e.g. /run/netns/NAME); null: the caller's.
             * @return this builder.
             */
            public Builder networkNamespace(final Path path)
            {
                this.networkNamespace = path;
                return this;
            }

            /**
             * Take the GID tables from {@code directory} instead of this machine's.
             *
             * @param directory the GID tables; null: this machine's.
             * @return this builder.
             */
            public Builder gids(final GidDirectory directory)
            {
                this.gids = directory;
                return this;
            }

            /**
             * How a missing neighbour entry is made to resolve.
             *
             * @param mode NTF_USE else a UDP datagram (the default), or always the datagram.
             * @return this builder.
             */
            public Builder trigger(final NeighbourTriggerMode mode)
            {
                this.trigger = Objects.requireNonNull(mode, "trigger");
                return this;
            }

            /**
             * Told every id state transition, on the conductor thread; default none.
             *
             * @param transitionListener the listener.
             * @return this builder.
             */
            public Builder listener(final StateTransitionListener transitionListener)
            {
                this.listener = Objects.requireNonNull(transitionListener, "listener");
                return this;
            }

            /**
             * Resolve addresses through {@code neighbours} instead of the IP stack (IPoIB on ibsim).
             *
             * @param neighbours an ibacm hosts file's entries, or null for the IP stack.
             * @return this builder.
             */
            public Builder hostsNeighbours(final HostsNeighbours neighbours)
            {
                this.hostsNeighbours = neighbours;
                return this;
            }

            /**
             * Ask InfiniBand routes of {@code client}'s SA. The caller keeps ownership: {@link RdmaCm#close()}
             * never closes it, so one client may serve several RdmaCm instances, one after another or at once,
             * and must be closed by the caller after the last of them.
             *
             * @param client the SA client, or null for none.
             * @return this builder.
             */
            public Builder sa(final SaClient client)
            {
                this.sa = client;
                return this;
            }

            /**
             * Follow {@code profile}'s rules where kernels differ.
             *
             * @param profile the kernel's rules (the default: {@link KernelProfile#defaultProfile()}).
             * @return this builder.
             */
            public Builder kernelProfile(final KernelProfile profile)
            {
                this.kernelProfile = Objects.requireNonNull(profile, "kernelProfile");
                return this;
            }

            /**
             * Ask an ACM service for the route first, as librdmacm 44's {@code rdma_resolve_route} does
             * (the default: {@link AcmFirstRoute#LIBRDMACM}); {@link AcmFirstRoute#OFF} never asks.
             *
             * @param acm whether and where to ask.
             * @return this builder.
             */
            public Builder acmFirstRoute(final AcmFirstRoute acm)
            {
                this.acmFirstRoute = Objects.requireNonNull(acm, "acmFirstRoute");
                return this;
            }

            /**
             * Spin for {@code duration} before blocking ({@link Options#spin()}).
             *
             * @param duration zero or positive; zero never spins.
             * @return this builder.
             */
            public Builder spin(final Duration duration)
            {
                if (duration == null || duration.isNegative())
                {
                    throw new IllegalArgumentException("spin must be zero or positive, not " + duration);
                }
                this.spin = duration;
                return this;
            }

            /**
             * Keep the kernel's route answers without a gateway, each until a notification may have
             * changed it ({@link Options#routeCache()}); the default, false, asks the kernel at every
             * resolution. Shown equal to the kernel's answers by the resolver's differential test, run
             * through the cache.
             *
             * @param enabled whether to keep them.
             * @return this builder.
             */
            public Builder routeCache(final boolean enabled)
            {
                this.routeCache = enabled;
                return this;
            }

            /**
             * {@link Options#maxBacklog()}.
             *
             * @param max 0 or more (0 refuses every request, as the sysctl set to 0 does).
             * @return this builder.
             */
            public Builder maxBacklog(final int max)
            {
                if (max < 0)
                {
                    throw new IllegalArgumentException("maxBacklog must be 0 or more (net.rdma_ucm.max_backlog), not " + max);
                }
                this.maxBacklog = max;
                return this;
            }

            /** {@return the options as set; what was not set keeps its default} */
            public Options build()
            {
                return new Options(this);
            }
        }
    }

    private final Options options;
    private final long spinNanos;
    private final ConductorAgent agent;
    private final AgentRunner runner;
    private final AtomicLong ids = new AtomicLong();
    /** Owns every id's state, on the loop's thread. */
    private final IdConductor conductor;
    /** The conductor's command proxy, which every id holds. */
    private final ConductorProxy proxy;
    /** The CM of each RDMA port an id connected or listened on, opened on first use. */
    private final Map<String, CmPort> cmAgents = new HashMap<>();
    /** USERSPACE, KERNEL or AUTO's choice, and the kernel's CM once opened. */
    private final ConnectionManagerChoice managers;
    private ConnectionTransitionListener connectionTransitions = ConnectionTransitionListener.NONE;
    private volatile CmMadFilter cmMadFilter = CmMadFilter.none();
    private volatile Consumer<String> deviceRemovals = device -> { };
    private CmMadRecorder cmMadRecorder = CmMadRecorder.NONE;
    private final PortBindings ports = new PortBindings(new BatchedRandom(new SecureRandom()),
        ProcessCapabilities.effective(ProcessCapabilities.CAP_NET_BIND_SERVICE));
    private boolean closed;
    /** librdmacm's ACM-first route's exchange with the service, run by the conductor, closed after it. */
    private final AcmRouteExchange acm;

    private RdmaCm(final Options options, final NanoClock clock,
        final TransitionListener<PendingResolution, PendingResolution.State> resolutions,
        final TransitionListener<PendingRoute, PendingRoute.State> routes) throws NativeCallException
    {
        // first, before anything that holds a resource: a sysfs tree that breaks the format throws
        final GidDirectory gids = options.gids() != null ? options.gids() : GidDirectory.live(System.getenv());
        this.options = options.toBuilder().gids(gids).build();
        this.spinNanos = options.spin().toNanos();
        this.agent = new ConductorAgent(options.networkNamespace(), gids, options.trigger(),
            options.hostsNeighbours(), clock, spinNanos, resolutions, this::deviceRemoved, this::bondFailedOver,
            options.acmFirstRoute(), options.routeCache());
        this.acm = agent.acm();
        this.conductor = new IdConductor(this, agent, acm, clock, routes);
        this.proxy = new ConductorProxy(conductor);
        this.managers = new ConnectionManagerChoice(this, agent, conductor);
        this.runner = new AgentRunner(agent.idleStrategy(),
            error ->
            {
                if (!(error instanceof AgentTerminationException))
                {
                    LOG.log(System.Logger.Level.ERROR, "rdmacm resolver loop: " + error.getMessage(), error);
                }
            },
            null, agent);
    }

    /**
     * Starts the event loop and waits until it has its netlink sockets; reads this machine's GID tables
     * first when {@code options} has none ({@link Options#defaults()}).
     *
     * @param options what to resolve with, and where.
     * @return the running CM; close it to stop the loop and release everything.
     * @throws RdmaCmException when the namespace cannot be entered or a socket cannot be opened.
     * @throws dev.rdmacm.verbs.sysfs.SysfsFormatException naming a sysfs file the kernel never writes so.
     */
    public static RdmaCm open(final Options options) throws RdmaCmException
    {
        return open(options, NanoClock.SYSTEM, TransitionListener.none());
    }

    /**
     * As {@link #open(Options)}, with resolution deadlines measured on {@code clock} and every pending
     * resolution's state change traced: for tests, which move the clock themselves (and then call
     * {@link #wakeUp()} so that the loop looks at its deadlines again).
     */
    static RdmaCm open(final Options options, final NanoClock clock,
        final TransitionListener<PendingResolution, PendingResolution.State> resolutions) throws RdmaCmException
    {
        return open(options, clock, resolutions, TransitionListener.none());
    }

    /** As {@link #open(Options, NanoClock, TransitionListener)}, every pending route's state change traced too. */
    static RdmaCm open(final Options options, final NanoClock clock,
        final TransitionListener<PendingResolution, PendingResolution.State> resolutions,
        final TransitionListener<PendingRoute, PendingRoute.State> routes) throws RdmaCmException
    {
        final RdmaCm cm;
        try
        {
            cm = new RdmaCm(options, clock, resolutions, routes);
        }
        catch (final NativeCallException ex)
        {
            throw new RdmaCmException("starting the resolver", ex.errno(), ex.getMessage(), true);
        }
        AgentRunner.startOnThread(cm.runner);
        try
        {
            cm.agent.started().get(30, TimeUnit.SECONDS);
            cm.startDeviceWatch();
            return cm;
        }
        catch (final ExecutionException | TimeoutException ex)
        {
            cm.close();
            final Throwable cause = ex instanceof ExecutionException ? ex.getCause() : ex;
            final int errno = cause instanceof NativeCallException n ? n.errno() :
                Errno.EIO;
            throw new RdmaCmException("starting the resolver", errno, cause.getMessage(), true);
        }
        catch (final InterruptedException ex)
        {
            cm.close();
            Thread.currentThread().interrupt();
            throw new RdmaCmException("starting the resolver", Errno.EINTR, "interrupted", true);
        }
    }

    /**
     * A CM with the default options: this machine's GID tables and network namespace, no SA, no listener.
     *
     * @return the CM; close it when done.
     * @throws RdmaCmException when the resolver cannot start (e.g. no netlink socket).
     */
    public static RdmaCm open() throws RdmaCmException
    {
        return open(Options.defaults());
    }

    /** {@return a new event channel ({@code rdma_create_event_channel})} */
    public EventChannel createEventChannel()
    {
        return new EventChannel();
    }

    /**
     * {@code rdma_create_id} in RDMA_PS_TCP.
     *
     * @param channel where the id's events go; null makes a synchronous id.
     * @return the new id, IDLE.
     */
    public RdmaCmId createId(final EventChannel channel)
    {
        return createId(channel, PortSpace.TCP);
    }

    /**
     * {@code rdma_create_id} in a port space (its Service IDs are {@code (ps << 16) + port}).
     *
     * @param channel   where the id's events go; null makes a synchronous id.
     * @param portSpace the port space.
     * @return the new id, IDLE.
     */
    public RdmaCmId createId(final EventChannel channel, final PortSpace portSpace)
    {
        return new RdmaCmId(this, proxy, channel, ids.incrementAndGet(), portSpace);
    }

    /** {@code cma_process_remove}: every id bound to {@code device} learns that it went away, on the conductor. */
    void deviceRemoved(final String device)
    {
        synchronized (this)
        {
            // a device of the same name that comes back gets a CM of its own
            cmAgents.values().removeIf(port -> port.device().equals(device));
        }
        proxy.deviceRemoved(device);
        deviceRemovals.accept(device);
    }

    /**
     * Sees every RDMA device removal this CM learns of (its uevent, or its ports' CM gone dead), by
     * name, on the conductor thread, after the device's ids got DEVICE_REMOVAL; it must not block.
     *
     * @param listener the listener (acm-server's, which drops the device's endpoints); replaces the one before.
     */
    public void deviceRemovals(final Consumer<String> listener)
    {
        deviceRemovals = Objects.requireNonNull(listener, "listener");
    }

    /**
     * {@code cma_netdev_callback} on NETDEV_BONDING_FAILOVER: every id bound to {@code ifindex} whose
     * stored source MAC is not the bond's {@code address} now gets ADDR_CHANGE. All ids are looked at
     * before the first event is posted, so an application that sees one has seen the decision for all.
     */
    void bondFailedOver(final int ifindex, final String bond, final byte[] address)
    {
        proxy.bondFailedOver(ifindex, bond, address.clone());
    }

    /**
     * Sees every state change of every CM connection (ib_cm's states), on the conductor thread;
     * set it before the first connect or listen.
     *
     * @param listener the listener.
     */
    public synchronized void connectionTransitions(final ConnectionTransitionListener listener)
    {
        connectionTransitions = Objects.requireNonNull(listener, "listener");
    }

    /**
     * The {@link CmMadFilter} of every port's CM, from the next MAD on: fault injection, e.g. every DREP
     * received lost.
     *
     * @param filter the filter.
     */
    public void cmMadFilter(final CmMadFilter filter)
    {
        cmMadFilter = Objects.requireNonNull(filter, "filter");
    }

    /**
     * Every CM MAD every port's CM sends or receives from the next one on, to {@code recorder}
     * ({@link dev.rdmacm.cm.diagnostics.PcapCmMadRecorder}: a capture), or to none again with {@link CmMadRecorder#NONE}. The
     * caller closes a recorder it opened after this RdmaCm, whose close sends the last MADs.
     *
     * @param recorder the recorder, or {@link CmMadRecorder#NONE}.
     */
    public synchronized void cmMadRecorder(final CmMadRecorder recorder)
    {
        cmMadRecorder = Objects.requireNonNull(recorder, "recorder");
        cmAgents.values().forEach(agent -> agent.recorder(recorder));
    }

    /** The engine's transitions as the listener's values, or none at all when no one listens. */
    private static TransitionListener<IbCmConnection, IbCmState> engineTransitions(final ConnectionTransitionListener listener)
    {
        return listener == ConnectionTransitionListener.NONE ? TransitionListener.none()
            : (connection, from, to, nowNanos) ->
                listener.onTransition(connection.localCommId(), connection.remoteCommId(), from, to, nowNanos);
    }

    /** The CM of the binding's port: its umad CM agent and engine, opened on first use. */
    CmPort cmAgent(final RdmaPortBinding binding) throws RdmaCmException
    {
        return cmAgent(binding, "rdma_connect");
    }

    /** As {@link #cmAgent(RdmaPortBinding)}, a failure reported as {@code call}'s. */
    synchronized CmPort cmAgent(final RdmaPortBinding binding, final String call) throws RdmaCmException
    {
        return cmAgents(List.of(binding), call).get(0);
    }

    /**
     * The CMs of every binding's port, in order, opened on first use: all or none. When one cannot be
     * opened, those this call opened are closed again (a port's CM holds its umad CM class, which
     * another process may want) and the failure names the port.
     */
    synchronized List<CmPort> cmAgents(final List<RdmaPortBinding> bindings, final String call) throws RdmaCmException
    {
        if (closed)
        {
            throw new RdmaCmException(call, Errno.EINVAL, "the RdmaCm is closed", true);
        }
        final List<CmPort> agents = new ArrayList<>(bindings.size());
        final List<String> opened = new ArrayList<>();
        final List<CmPort> added = new ArrayList<>();
        for (final RdmaPortBinding binding : bindings)
        {
            final String key = binding.device() + "/" + binding.port();
            CmPort agent = cmAgents.get(key);
            if (agent == null)
            {
                try
                {
                    agent = CmPort.open(binding.device(), binding.port(), nodeGuid(call, key, binding.device()),
                        this.agent, engineTransitions(connectionTransitions), (direction, attribute) -> cmMadFilter.pass(direction, attribute), cmMadRecorder,
                        gidIndex -> localGid(binding.device(), binding.port(), gidIndex));
                }
                catch (final ErrnoException ex)
                {
                    managers.portCmFailed(ex);
                    // an RdmaCmException (the node GUID) already names the call and the port
                    opened.forEach(k -> cmAgents.remove(k).close());
                    throw ex instanceof RdmaCmException named ? named
                        : new RdmaCmException(call, ex.errno(), "the CM on " + key + ": " + ex.getMessage(), true);
                }
                cmAgents.put(key, agent);
                opened.add(key);
                added.add(agent);
            }
            agents.add(agent);
        }
        // Running a port is the conductor's, from its next cycle; the connection phase opens ports on the
        // conductor itself, anyone else hands them over.
        if (!added.isEmpty())
        {
            if (agent.isLoopThread())
            {
                added.forEach(agent::addPort);
            }
            else
            {
                agent.submit(conductor -> added.forEach(conductor::addPort));
            }
        }
        return agents;
    }

    /** Which CM runs the connections, and the kernel's once opened. */
    ConnectionManagerChoice managers()
    {
        return managers;
    }

    /** The GID at {@code gidIndex} of the port, or the zero GID when the table has no such entry (any more). */
    private Gid localGid(final String device, final int port, final int gidIndex)
    {
        return options.gids().entry(device, port, gidIndex).map(RdmaPortBinding::gid).orElse(Gid.ZERO);
    }

    /** sysfs {@code node_guid} (under {@code SYSFS_PATH} when set): the REQ's and REP's LocalCAGUID. */
    private static long nodeGuid(final String call, final String key, final String device) throws RdmaCmException
    {
        try
        {
            return SysfsDevices.nodeGuid(SysfsDevices.root(System.getenv()), device);
        }
        catch (final SysfsFormatException ex)
        {
            throw new RdmaCmException(call, Errno.ENODEV, "the CM on " + key + ": cannot read the node GUID of " + device + ": "
                + ex.getMessage(), true);
        }
    }

    /**
     * The index of the interface called {@code name} in the resolver's network namespace, e.g. to turn
     * {@code fe80::2%eth0} into a scope id.
     *
     * @param name the interface's name.
     * @return its ifindex.
     * @throws RdmaCmException ENODEV when there is no such interface.
     */
    public int interfaceIndex(final String name) throws RdmaCmException
    {
        requireNotLoopThread("interfaceIndex");
        final CompletableFuture<Integer> result = new CompletableFuture<>();
        submit(agent -> agent.interfaceIndex(name, result));
        try
        {
            return result.get();
        }
        catch (final ExecutionException ex)
        {
            final int errno = ex.getCause() instanceof NetlinkException n ? n.errno() :
                Errno.EIO;
            throw new RdmaCmException("interface " + name, errno, null, true);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new RdmaCmException("interface " + name, Errno.EINTR, "interrupted", true);
        }
    }

    Options options()
    {
        return options;
    }

    /**
     * {@code cma_get_port}: binds {@code port} of {@code space} to {@code owner}, or, for port 0, a free
     * one from the namespace's local port range.
     *
     * @return the port bound.
     */
    synchronized int bindPort(final String call, final PortSpace space, final int port, final PortBindings.Owner owner)
        throws RdmaCmException
    {
        if (port != 0)
        {
            ports.bind(call, space, port, owner);
            return port;
        }
        return ports.bindAny(call, space, owner, agent.sysctls().low(), agent.sysctls().high());
    }

    /** {@code net.ipv6.bindv6only} of the resolver's namespace: an IPv6 id's AFONLY default. */
    boolean bindV6Only()
    {
        return agent.sysctls().bindV6Only();
    }

    /** {@code cma_release_port}. */
    synchronized void releasePort(final PortSpace space, final int port, final RdmaCmId id)
    {
        ports.release(space, port, id);
    }

    StateTransitionListener listener()
    {
        return options.listener();
    }

    /** The clock the loop measures deadlines on; a call's deadline starts at its reading. */
    NanoClock clock()
    {
        return agent.clock();
    }

    /** How long a synchronous call spins before it parks ({@link Options#spin}). */
    long spinNanos()
    {
        return spinNanos;
    }

    /** Any thread: the loop looks at its deadlines again, as after its clock was moved. */
    void wakeUp()
    {
        agent.wake();
    }

    /** The lookup callers run on their own threads, or null (not started, a hosts file). */
    CallerAddressLookup callerLookup()
    {
        return agent.callerLookup();
    }

    /**
     * Refuses a blocking call made on the event loop itself (e.g. from a future's callback), which would
     * wait for work only that thread can do.
     */
    void requireNotLoopThread(final String call)
    {
        if (agent.isLoopThread())
        {
            throw new IllegalStateException(call + " blocks and was called on the resolver's event loop " +
                "(from a callback): use resolveAddrAsync there");
        }
    }

    /** Whether the caller is the loop's thread, where the conductor runs. */
    boolean onLoopThread()
    {
        return agent.isLoopThread();
    }

    /** Queues {@code command} for the loop, unless this RdmaCm is closed: false then. */
    synchronized boolean trySubmit(final Consumer<ConductorAgent> command)
    {
        if (closed)
        {
            return false;
        }
        agent.submit(command);
        return true;
    }

    /** As {@link #trySubmit}, without waking the loop ({@link ConductorAgent#enqueue}). */
    synchronized boolean tryEnqueue(final Consumer<ConductorAgent> command)
    {
        if (closed)
        {
            return false;
        }
        agent.enqueue(command);
        return true;
    }

    synchronized void submit(final Consumer<ConductorAgent> command)
    {
        if (closed)
        {
            throw new IllegalStateException("this RdmaCm is closed");
        }
        agent.submit(command);
    }

    /**
     * Stops the loop; resolutions still waiting end with ADDR_ERROR (EINTR). It closes what this RdmaCm
     * opened itself (the loop thread, its netlink sockets and eventfd) and nothing it was given: the
     * {@link Options#sa SaClient} of the options stays open, as do the event channels, which their
     * {@code try} blocks close. Idempotent.
     */
    @Override
    public void close()
    {
        synchronized (this)
        {
            if (closed)
            {
                return;
            }
            closed = true;
        }
        agent.requestClose();
        // the conductor's last cycle closes the ports (their last calls still go out) and the uevent socket
        runner.close();
        conductor.loopEnded(agent::failQueued);
        agent.releaseWakeUp();
        acm.close();
        final List<CmPort> agents;
        synchronized (this)
        {
            agents = List.copyOf(cmAgents.values());
            cmAgents.clear();
        }
        // closed already, unless the conductor never started
        agents.forEach(CmPort::close);
        // after the conductor: closing the kernel CM's descriptor destroys the kernel ids still on it
        managers.close();
    }

    /**
     * RDMA devices are not per network namespace here, so their uevent socket is opened in the caller's
     * and handed to the conductor (a socket stays in the namespace it was opened in). Without uevents (a
     * kernel without them, or a socket the process may not open) ids on a removed device get no
     * DEVICE_REMOVAL. Bonds are netdevs: their failovers come on the conductor's rtnetlink socket, in
     * the resolver's namespace.
     */
    private void startDeviceWatch()
    {
        final UeventSocket uevents;
        try
        {
            uevents = UeventSocket.open();
        }
        catch (final ErrnoException ex)
        {
            LOG.log(System.Logger.Level.WARNING, "no RDMA device watch (DEVICE_REMOVAL): " + ex.getMessage());
            return;
        }
        if (!trySubmit(conductor -> conductor.watchDevices(uevents)))
        {
            uevents.close();
        }
    }
}
