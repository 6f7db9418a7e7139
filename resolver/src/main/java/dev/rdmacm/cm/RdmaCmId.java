package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.Ipv6Sockaddr;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.ibcm.AcceptParameters;
import dev.rdmacm.ibcm.ConnectParameters;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.cm.SidrStatus;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.QpState;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.UdQueuePair;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * {@code struct rdma_cm_id} for address resolution: bind, resolve, receive ADDR_RESOLVED or
 * ADDR_ERROR, retry after an error. Created with an {@link EventChannel} its events go there; created
 * without one it is synchronous, like librdmacm's NULL channel: {@link #resolveAddr} waits for the
 * outcome and throws the error event's errno.
 * <p>
 * Every state change goes through {@link #transition}, which reports it to the
 * {@link StateTransitionListener} of the {@link RdmaCm}. Thread-safe.
 */
public final class RdmaCmId implements AutoCloseable
{
    private static final Duration MAX_TIMEOUT = Duration.ofMillis(Integer.MAX_VALUE);

    private final RdmaCm cm;
    private final EventChannel channel;
    private final long number;
    /** Guards {@link #unacknowledged}; destroy waits on it. */
    private final Object acknowledgements = new Object();
    private int unacknowledged;

    private CmIdState state = CmIdState.IDLE;
    private InetAddress boundSource;
    private int boundIfindex;
    private RdmaPortBinding binding;
    /** The bound netdev's MAC when bound (src_dev_addr); a resolution's own source MAC replaces it. */
    private byte[] boundHardwareAddress = new byte[0];
    private AddressResolution resolution;
    private PendingResolution pending;

    private final PortSpace portSpace;
    /** The port asked for (0: any); once bound, {@link #boundPort} holds the one the id has. */
    private int sourcePort;
    private int boundPort;
    private int destinationPort;
    private boolean reuseAddr;
    /** RDMA_OPTION_ID_AFONLY when set, else null: the default depends on the family bound. */
    private Boolean afOnly;
    private int sourceFlowinfo;
    private Integer tos;
    private Integer ackTimeout;
    private int cmResponseTimeout = IdConnection.CMA_CM_RESPONSE_TIMEOUT;
    private int maxCmRetries = IdConnection.CMA_MAX_CM_RETRIES;
    private ResolvedRoute route;
    private PendingRoute pendingRoute;
    /** rdma_resolve_addrinfo's resolving_ai and resolved_ai, under a lock of their own. */
    private final AddrinfoSlot addrinfo = new AddrinfoSlot();
    private IdConnection connection;
    /** A wildcard listener's listens, one per RDMA port ({@code cma_listen_on_dev}'s internal ids). */
    private List<IdConnection> portListens = List.of();
    private RcQueuePair attachedQp;
    /** A UD id's QP (RDMA_PS_UDP), set up by {@link #attachQp(UdQueuePair)}. */
    private UdQueuePair attachedUdQp;
    private InetAddress peerAddress;
    /** The port space {@link #boundPort} is held in: the id's, or the one an AF_IB source's Service ID chose. */
    private PortSpace boundSpace;
    /** An AF_IB id's {@code src_addr}, as the kernel holds it (null for an IP id). */
    private IbSockaddr ibSource;
    /** An AF_IB id's {@code dst_addr}, once given. */
    private IbSockaddr ibDestination;

    RdmaCmId(final RdmaCm cm, final EventChannel channel, final long number, final PortSpace portSpace)
    {
        this.cm = cm;
        this.channel = channel;
        this.number = number;
        this.portSpace = portSpace;
    }

    public PortSpace portSpace()
    {
        return portSpace;
    }

    /** The route after ROUTE_RESOLVED, or null. */
    public synchronized ResolvedRoute route()
    {
        return route;
    }

    /**
     * {@code rdma_set_service_type}: the ToS, which becomes the QoS class of an IPv4 InfiniBand path
     * query and the traffic class (and, through the priority, the SL) of a RoCE path.
     */
    public synchronized void setServiceType(final int typeOfService)
    {
        if (typeOfService < 0 || typeOfService > 0xff)
        {
            throw new IllegalArgumentException("ToS " + typeOfService + " out of range 0..255");
        }
        this.tos = typeOfService;
    }

    /** {@code rdma_set_ack_timeout}: a non-zero value makes a RoCE path's packet lifetime {@code timeout - 1}. */
    public synchronized void setAckTimeout(final int timeout)
    {
        if (timeout < 0 || timeout > 0xff)
        {
            throw new IllegalArgumentException("ACK timeout " + timeout + " out of range 0..255");
        }
        this.ackTimeout = timeout;
    }

    /**
     * Beyond librdmacm: the REQ's CM response timeouts (both, an IBA time {@code 4.096 us * 2^timeout},
     * 0-31) and its Max CM Retries (0-15), which rdma_cm fixes at {@code CMA_CM_RESPONSE_TIMEOUT} 20 and
     * {@code CMA_MAX_CM_RETRIES} 15. They set how long this side waits for each answer to its REQ and DREQ
     * (twice the path's packet lifetime plus the remote response timeout, {@code maxRetries + 1} tries,
     * about 98 s on RoCE with rdma_cm's values) and, through the REQ, how long the peer's CM waits for
     * this side's answers. Set before {@link #connect}.
     */
    public synchronized void setCmResponseTimeout(final int timeout, final int maxRetries)
    {
        if (timeout < 0 || timeout > 31)
        {
            throw new IllegalArgumentException("CM response timeout " + timeout + " out of range 0..31 (a 5-bit IBA time)");
        }
        if (maxRetries < 0 || maxRetries > 15)
        {
            throw new IllegalArgumentException("Max CM Retries " + maxRetries + " out of range 0..15 (the REQ's 4-bit field)");
        }
        this.cmResponseTimeout = timeout;
        this.maxCmRetries = maxRetries;
    }

    /**
     * {@code rdma_set_option(RDMA_OPTION_ID_REUSEADDR)}: ids that all set it may share a bound port.
     * Allowed while IDLE ({@code rdma_set_reuseaddr}).
     */
    public synchronized void setReuseAddr(final boolean reuse) throws RdmaCmException
    {
        if (state != CmIdState.IDLE)
        {
            throw new RdmaCmException("rdma_set_option", Errno.EINVAL, "REUSEADDR on an id that is " + state +
                ", not IDLE", true);
        }
        this.reuseAddr = reuse;
    }

    /**
     * {@code rdma_set_option(RDMA_OPTION_ID_AFONLY)}: a port bound by ids of one family only, so an
     * IPv4 and an IPv6 id that both set it may share it. Allowed while IDLE or ADDR_BOUND.
     */
    public synchronized void setAfOnly(final boolean value) throws RdmaCmException
    {
        if (state != CmIdState.IDLE && state != CmIdState.ADDR_BOUND)
        {
            throw new RdmaCmException("rdma_set_option", Errno.EINVAL, "AFONLY on an id that is " + state +
                ", not IDLE or ADDR_BOUND", true);
        }
        this.afOnly = value;
    }

    /** {@code rdma_get_src_port}: the port the id is bound to (a random one unless given), 0 while unbound. */
    public synchronized int sourcePort()
    {
        return boundPort;
    }

    /** {@code rdma_get_dst_port}: the destination port given to resolveAddr, 0 if none. */
    public synchronized int destinationPort()
    {
        return destinationPort;
    }

    /** The {@code sin6_flowinfo} of an IPv6 source (host order): its traffic class and flow label. */
    public synchronized void setSourceFlowinfo(final int flowinfo)
    {
        this.sourceFlowinfo = flowinfo;
    }

    /**
     * {@code rdma_resolve_addr} with ports, as librdmacm takes socket addresses: the destination port
     * makes the Service ID of the path query and, with the source port, the RoCE v2 flow label. A
     * source port of 0 (or no source) gets a random free one from the namespace's local port range,
     * as {@code cma_alloc_any_port} chooses it.
     *
     * @param timeout as {@link #resolveAddr(InetAddress, InetAddress, Duration)}.
     */
    public void resolveAddr(final InetSocketAddress source, final InetSocketAddress destination, final Duration timeout)
        throws RdmaCmException
    {
        synchronized (this)
        {
            if (state == CmIdState.IDLE)
            {
                sourcePort = source == null ? 0 : source.getPort();
            }
            destinationPort = destination.getPort();
        }
        resolveAddr(source == null ? null : source.getAddress(), destination.getAddress(), timeout);
    }

    /**
     * {@code rdma_resolve_route}. Errors found up front (timeout not positive, the id not
     * ADDR_RESOLVED, no SA for an InfiniBand port, no netdev or too small an MTU for RoCE) are thrown
     * with {@link RdmaCmException#returnedByCall()}; the outcome is a ROUTE_RESOLVED or ROUTE_ERROR
     * event (status -EINVAL for an SA error status, -ETIMEDOUT when the SA never answers). A
     * synchronous id waits for it and returns normally only on ROUTE_RESOLVED.
     *
     * @param timeout bounds the SA query with its retries; it is rounded up to whole milliseconds, as
     *                librdmacm's {@code int timeout_ms} holds it (see {@link #timeoutMs}), and must be
     *                at least one.
     * @throws RdmaCmException EINVAL for a timeout that is null, not positive or above
     *                {@link Integer#MAX_VALUE} ms.
     */
    public void resolveRoute(final Duration timeout) throws RdmaCmException
    {
        if (channel == null || !onInfiniband())
        {
            // this call would wait for the loop: for the outcome, or for the RoCE path built there
            cm.requireNotLoopThread("rdma_resolve_route");
        }
        final PendingRoute r = beginRoute(timeout);
        try
        {
            // the call's own part: on RoCE the path is built on the loop, and its errors are the call's
            await(r.accepted);
            if (channel == null)
            {
                await(r.completion);
            }
        }
        catch (final ResolutionFailure impossible)
        {
            throw new IllegalStateException(impossible);
        }
    }

    /**
     * The same, without blocking, from any thread, the event loop's included (a {@code thenCompose} on
     * {@link #resolveAddrAsync}): the future completes with the route or an {@link RdmaCmException}
     * (up-front errors included, {@link RdmaCmException#returnedByCall()} true). Events are still posted
     * to the channel.
     */
    public CompletableFuture<ResolvedRoute> resolveRouteAsync(final Duration timeout)
    {
        try
        {
            return beginRoute(timeout).completion;
        }
        catch (final RdmaCmException ex)
        {
            return CompletableFuture.failedFuture(ex);
        }
    }

    /**
     * Starts {@code rdma_resolve_route}; never waits. Up-front errors found here are thrown; the RoCE
     * path is built on the event loop, which completes {@link PendingRoute#accepted} (exceptionally
     * with the call's error) and then the route's outcome.
     */
    private PendingRoute beginRoute(final Duration timeout) throws RdmaCmException
    {
        final int timeoutMs = timeoutMs("rdma_resolve_route", timeout);
        final PendingRoute givenByAcm = acmFirst(timeoutMs);
        if (givenByAcm != null)
        {
            return givenByAcm;
        }
        final PendingRoute r;
        synchronized (this)
        {
            if (timeoutMs <= 0)
            {
                throw new RdmaCmException("rdma_resolve_route", Errno.EINVAL, "timeout " + timeoutMs +
                    " ms must be positive", true);
            }
            if (state != CmIdState.ADDR_RESOLVED)
            {
                throw new RdmaCmException("rdma_resolve_route", Errno.EINVAL, "id is " + state +
                    "; resolving a route needs ADDR_RESOLVED", true);
            }
            r = new PendingRoute(this, resolution, portSpace, boundPort, destinationPort, sourceFlowinfo, tos,
                ackTimeout, timeoutMs, ibSource, ibDestination);
            transition(CmIdState.ROUTE_QUERY, "resolve_route " + resolution.destination().getHostAddress());
            pendingRoute = r;
        }
        if (r.resolution.binding().gidType() == GidType.IB)
        {
            final SaClient sa = cm.options().sa();
            if (sa == null)
            {
                throw routeCallFailed(r, Errno.ENOSYS, "no SA to ask for an InfiniBand path (RdmaCm.Options.sa)");
            }
            r.accepted.complete(null);
            RouteResolver.queryInfiniband(sa, r).whenComplete((resolved, failure) -> routeFinished(r, resolved, failure));
            return r;
        }
        final CompletableFuture<ResolvedRoute> built = new CompletableFuture<>();
        try
        {
            cm.submit(agent -> agent.roceRoute(r, built));
        }
        catch (final IllegalStateException closed)
        {
            throw routeCallFailed(r, Errno.EINTR, closed.getMessage());
        }
        // On the loop thread, once the path is built: nobody waits for it here.
        built.whenComplete((resolved, failure) ->
        {
            if (failure != null)
            {
                final Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
                routeCallFailed(r, cause instanceof RouteException re ? re.errno() : Errno.EIO, cause.getMessage());
                return;
            }
            routeFinished(r, resolved, null);
            r.accepted.complete(null);
        });
        return r;
    }

    /**
     * librdmacm 44's {@code ucma_set_ib_route}, which {@code rdma_resolve_route} runs first on every
     * device of transport {@code IBV_TRANSPORT_IB} (InfiniBand and RoCE alike): ask the ACM service for
     * the route of the id's two addresses, and when it gives one, set it as {@code RDMA_OPTION_IB_PATH}
     * would. Null, and the kernel's route follows, when the id is not ADDR_RESOLVED (it has no device
     * yet), the ACM-first route is off, no service answers, the answer holds no path, or the option
     * refuses it (no record with the flags 0x2b, no netdev): librdmacm goes on to the kernel for all of
     * these. Runs on the caller's thread, which it blocks for the exchange with the service.
     */
    private PendingRoute acmFirst(final int timeoutMs)
    {
        final RdmaSockaddr source;
        final RdmaSockaddr destination;
        synchronized (this)
        {
            if (state != CmIdState.ADDR_RESOLVED)
            {
                return null;
            }
            source = ibSource != null ? ibSource : ipSockaddr(resolution.source(), boundPort, sourceFlowinfo);
            destination = ibDestination != null ? ibDestination : ipSockaddr(resolution.destination(), destinationPort, 0);
        }
        final long start = System.nanoTime();
        final byte[] answer = cm.acmRoute(source, destination);
        if (answer == null || answer.length < IbvPathData.LENGTH)
        {
            return null;
        }
        final List<byte[]> records = new ArrayList<>();
        for (int offset = 0; offset + IbvPathData.LENGTH <= answer.length; offset += IbvPathData.LENGTH)
        {
            final byte[] record = new byte[IbvPathData.LENGTH];
            System.arraycopy(answer, offset, record, 0, IbvPathData.LENGTH);
            records.add(record);
        }
        final PendingRoute r;
        synchronized (this)
        {
            r = new PendingRoute(this, resolution, portSpace, boundPort, destinationPort, sourceFlowinfo, tos,
                ackTimeout, timeoutMs, ibSource, ibDestination);
        }
        r.trace.record("acm route", start, "RAI_ROUTEONLY " + source.toText() + " -> " + destination.toText() + ": " +
            records.size() + " path(s) from the ACM service");
        try
        {
            r.accepted.complete(null);
            r.completion.complete(setPath(records, ResolvedRoute.Kind.ACM, r.trace));
            return r;
        }
        catch (final RdmaCmException refused)
        {
            return null;
        }
    }

    /** The id's {@code sockaddr_in}/{@code sockaddr_in6} as librdmacm holds it after ADDR_RESOLVED. */
    private static RdmaSockaddr ipSockaddr(final InetAddress address, final int port, final int flowinfo)
    {
        if (address instanceof Inet4Address)
        {
            return new Ipv4Sockaddr(ByteBuffer.wrap(address.getAddress()).getInt(), port);
        }
        final Inet6Address v6 = (Inet6Address)address;
        return new Ipv6Sockaddr(address.getAddress(), port, flowinfo & 0xffff_ffffL, Math.max(0, v6.getScopeId()));
    }

    private synchronized boolean onInfiniband()
    {
        return resolution != null && resolution.binding().gidType() == GidType.IB;
    }

    /** A failure of the call itself: back to ADDR_RESOLVED, no event. */
    private RdmaCmException routeCallFailed(final PendingRoute r, final int errno, final String detail)
    {
        synchronized (this)
        {
            if (state == CmIdState.ROUTE_QUERY && pendingRoute == r)
            {
                pendingRoute = null;
                transition(CmIdState.ADDR_RESOLVED, "resolve_route returned " + Errno.name(errno));
            }
        }
        final RdmaCmException ex = new RdmaCmException("rdma_resolve_route", errno, detail, true, r.trace);
        r.completion.completeExceptionally(ex);
        r.accepted.completeExceptionally(ex);
        return ex;
    }

    private void routeFinished(final PendingRoute r, final ResolvedRoute resolved, final Throwable failure)
    {
        if (failure != null)
        {
            final Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
            final int errno = cause instanceof RouteException re ? re.errno() : Errno.EIO;
            synchronized (this)
            {
                if (state != CmIdState.ROUTE_QUERY || pendingRoute != r)
                {
                    return;
                }
                pendingRoute = null;
                transition(CmIdState.ADDR_RESOLVED, "ROUTE_ERROR " + Errno.name(errno));
            }
            deliver(new CmEvent.RouteError(this, -errno, r.resolution, cause.getMessage(), r.trace));
            r.completion.completeExceptionally(
                new RdmaCmException("rdma_resolve_route", errno, cause.getMessage(), false, r.trace));
            return;
        }
        synchronized (this)
        {
            if (state != CmIdState.ROUTE_QUERY || pendingRoute != r)
            {
                return;
            }
            pendingRoute = null;
            route = resolved;
            transition(CmIdState.ROUTE_RESOLVED, "ROUTE_RESOLVED " + r.resolution.destination().getHostAddress());
        }
        deliver(new CmEvent.RouteResolved(this, r.resolution, resolved, r.trace));
        r.completion.complete(resolved);
    }

    /**
     * {@code rdma_set_option(RDMA_OPTION_IB, RDMA_OPTION_IB_PATH)}: the application gives the route
     * (from ibacm, or its own SA query) instead of {@code rdma_resolve_route}. The id must be
     * ADDR_RESOLVED (else EINVAL); it becomes ROUTE_RESOLVED at once and a ROUTE_RESOLVED event follows,
     * as {@code ucma_set_ib_path} sends it. Which path is kept, and how it reads back, is
     * {@link IbPathOption}'s.
     *
     * @param pathData {@code ibv_path_data} records, 72 bytes each.
     * @throws RdmaCmException EINVAL or ENODEV, returned by the call.
     */
    public void setIbPath(final List<byte[]> pathData) throws RdmaCmException
    {
        setPath(pathData, ResolvedRoute.Kind.GIVEN, null);
    }

    private ResolvedRoute setPath(final List<byte[]> pathData, final ResolvedRoute.Kind kind, final ResolutionTrace trace)
        throws RdmaCmException
    {
        final ResolvedRoute given;
        final AddressResolution resolved;
        synchronized (this)
        {
            if (state != CmIdState.ADDR_RESOLVED)
            {
                throw new RdmaCmException("rdma_set_option", Errno.EINVAL, "RDMA_OPTION_IB_PATH on an id that is " +
                    state + ", not ADDR_RESOLVED", true);
            }
            try
            {
                given = new ResolvedRoute(kind, List.of(IbPathOption.kept(pathData, resolution,
                    resolution.binding().gidType() != GidType.IB)));
            }
            catch (final RouteException ex)
            {
                throw new RdmaCmException("rdma_set_option", ex.errno(), ex.getMessage(), true);
            }
            resolved = resolution;
            route = given;
            transition(CmIdState.ROUTE_RESOLVED, kind == ResolvedRoute.Kind.ACM ? "RDMA_OPTION_IB_PATH from ACM" :
                "RDMA_OPTION_IB_PATH");
        }
        deliver(new CmEvent.RouteResolved(this, resolved, given, trace));
        return given;
    }

    /**
     * {@code rdma_resolve_addrinfo} (rdma-core HEAD, RDMACM_1.4), DNS branch: {@code rdma_getaddrinfo}
     * runs on the calling thread, as in librdmacm, so a lookup failure is the call's: errno the negative
     * {@code EAI_*} code it returned (or -1, see {@code AddrinfoLookup}), and no event. On success the
     * result waits for {@link #queryAddrinfo} and ADDRINFO_RESOLVED (status 0) is posted. Neither the id's
     * state nor a bound address matters. The SA branch ({@code RAI_SA}) refuses its bad inputs as
     * librdmacm does and is otherwise EOPNOTSUPP here.
     *
     * @param node    a name or numeric address, or null.
     * @param service a service name or port, or null.
     * @param hints   null for none.
     * @throws RdmaCmException EBUSY while another resolution is in progress or its result has not been
     *                taken with {@link #queryAddrinfo}; ENOTSUP (95) for RAI_SA with RAI_DNS or a node;
     *                the EAI code or -1 of a failed lookup; EINVAL on a destroyed id.
     */
    public void resolveAddrinfo(final String node, final String service, final RdmaAddrInfoHints hints)
        throws RdmaCmException
    {
        requireNotDestroyed(AddrinfoLookup.CALL);
        addrinfo.begin();
        final List<RdmaAddrInfo> entries;
        try
        {
            entries = AddrinfoLookup.resolve(node, service, hints);
        }
        catch (final RuntimeException ex)
        {
            addrinfo.failed();
            throw ex;
        }
        addrinfo.resolved(entries);
        deliver(new CmEvent.AddrinfoResolved(this));
    }

    /**
     * {@code rdma_query_addrinfo}: the entries of the last successful {@link #resolveAddrinfo}, handed
     * over once (the id forgets them, and may resolve again). Available as soon as the resolve call
     * returned, before ADDRINFO_RESOLVED is read, as in librdmacm's DNS branch.
     *
     * @throws RdmaCmException ENOENT when no successful resolution waits (none, taken already, failed, or
     *                still in progress on another thread).
     */
    public List<RdmaAddrInfo> queryAddrinfo() throws RdmaCmException
    {
        return addrinfo.take();
    }

    /**
     * {@code rdma_write_cm_event} (rdma-core HEAD): posts an event of this id on its channel, e.g. to wake
     * a thread blocked in {@link EventChannel#getEvent()}, in order with the events the CM posts. It
     * arrives as {@link CmEvent.User} with {@code status} and {@code arg} unchanged; a synchronous id has
     * no channel the application reads, so its event goes nowhere, as librdmacm's goes to the private one.
     *
     * @throws RdmaCmException EINVAL for any event but {@link CmEventType#USER}, as librdmacm refuses
     *                them before the kernel sees them, and on a destroyed id.
     */
    public void writeCmEvent(final CmEventType event, final int status, final long arg) throws RdmaCmException
    {
        if (event != CmEventType.USER)
        {
            throw new RdmaCmException("rdma_write_cm_event", Errno.EINVAL, "only RDMA_CM_EVENT_USER may be written, not " +
                event, true);
        }
        requireNotDestroyed("rdma_write_cm_event");
        deliver(new CmEvent.User(this, status, arg));
    }

    private synchronized void requireNotDestroyed(final String call) throws RdmaCmException
    {
        if (state == CmIdState.DESTROYING)
        {
            throw new RdmaCmException(call, Errno.EINVAL, this + " is destroyed", true);
        }
    }

    public synchronized CmIdState state()
    {
        return state;
    }

    /** The event channel, or null for a synchronous id. */
    public EventChannel channel()
    {
        return channel;
    }

    /** The last successful resolution, or null. */
    public synchronized AddressResolution resolution()
    {
        return resolution;
    }

    /** The bound source address (a wildcard after auto-binding to one), or null while IDLE. */
    public synchronized InetAddress boundSource()
    {
        return boundSource;
    }

    /** Events the application took from the channel and has not acknowledged yet. */
    public int unacknowledgedEvents()
    {
        synchronized (acknowledgements)
        {
            return unacknowledged;
        }
    }

    /** {@code rdma_bind_addr} with a port: 0 takes a random free one, another must be free (EADDRINUSE). */
    public void bindAddr(final InetSocketAddress source) throws RdmaCmException
    {
        synchronized (this)
        {
            if (state == CmIdState.IDLE)
            {
                sourcePort = source.getPort();
            }
        }
        bindAddr(source.getAddress());
    }

    /**
     * {@code rdma_bind_addr}: a wildcard binds at once; a concrete address must be configured on a
     * netdev (else EADDRNOTAVAIL) that has an RDMA port with its GID (else ENODEV).
     */
    public void bindAddr(final InetAddress source) throws RdmaCmException
    {
        cm.requireNotLoopThread("rdma_bind_addr");
        synchronized (this)
        {
            if (source == null)
            {
                throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "source address is null", true);
            }
            if (state != CmIdState.IDLE)
            {
                throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "id is " + state + ", not IDLE", true);
            }
            if (source.isAnyLocalAddress())
            {
                bindPort("rdma_bind_addr", source, null);
                boundSource = source;
                transition(CmIdState.ADDR_BOUND, "bind to wildcard " + source.getHostAddress() + " port " + boundPort);
                return;
            }
        }
        final CompletableFuture<AddressResolver.BoundSource> bound = new CompletableFuture<>();
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        cm.submit(agent -> agent.bind(source, trace, bound));
        try
        {
            final AddressResolver.BoundSource result = await(bound);
            synchronized (this)
            {
                if (state != CmIdState.IDLE)
                {
                    throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "id changed state to " + state, true);
                }
                bindPort("rdma_bind_addr", source, null);
                bound(source, result.ifindex(), result.binding(), result.hardwareAddress());
                transition(CmIdState.ADDR_BOUND, "bind to " + source.getHostAddress() + " port " + boundPort + " on " +
                    result.binding());
            }
        }
        catch (final ResolutionFailure failure)
        {
            throw new RdmaCmException("rdma_bind_addr", failure.errno(), failure.getMessage(), true);
        }
    }

    /**
     * {@code rdma_bind_addr} with a {@code struct sockaddr_ib} (AF_IB), as the kernel's
     * {@code rdma_bind_addr} takes it (librdmacm passes it on when its {@code af_ib_support} probe, this
     * very bind of a zero AF_IB address on an RDMA_PS_IB id, succeeded, which it does on any 6.1 kernel):
     * <ul>
     * <li>the zero GID binds no device; another GID must be in the GID table of an InfiniBand port
     *     ({@code cma_acquire_dev_by_src_ip}: an AF_IB address is ARPHRD_INFINIBAND, which no RoCE port
     *     takes), else ENODEV;</li>
     * <li>the Service ID under the Port Space bits of its mask picks the port space
     *     ({@code cma_select_ib_ps}: RDMA_PS_IB on an RDMA_PS_IB id, TCP or UDP on an id of that space
     *     or of RDMA_PS_IB; a zero mask takes any), else EPROTONOSUPPORT;</li>
     * <li>its low 16 bits are the port (0: any, from {@code ip_local_port_range}); once bound, the
     *     source's {@code sib_sid} is the space's prefix with the port and its mask all ones
     *     ({@link #ibSource()}).</li>
     * </ul>
     *
     * @throws RdmaCmException EINVAL when the id is not IDLE, ENODEV, EPROTONOSUPPORT, and the port errors
     *                         of {@link #bindAddr(InetSocketAddress)}.
     */
    public void bindAddr(final IbSockaddr source) throws RdmaCmException
    {
        synchronized (this)
        {
            if (source == null)
            {
                throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "source address is null", true);
            }
            if (state != CmIdState.IDLE)
            {
                throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "id is " + state + ", not IDLE", true);
            }
            bindIb("rdma_bind_addr", source);
        }
    }

    /**
     * {@code rdma_resolve_addr} with {@code struct sockaddr_ib} addresses (AF_IB), as the 6.1 kernel does
     * it: no route, no neighbour, no SA.
     * <ul>
     * <li>An IDLE id is bound first, to {@code source} or, when null, to the zero AF_IB address with the
     *     destination's P_Key ({@code cma_bind_addr}); see {@link #bindAddr(IbSockaddr)}. An id bound to an
     *     IP address is EINVAL (families differ).</li>
     * <li>The zero destination GID is loopback ({@code cma_resolve_loopback}): the first ACTIVE port of
     *     any device, RoCE too, DGID = SGID, and the source's GID becomes ::1.</li>
     * <li>Otherwise an id bound to no device takes the first port with the AF_IB capability (InfiniBand
     *     or RoCE) holding the destination's P_Key whose table has the destination GID, or else, on an
     *     ACTIVE port, a GID of its subnet ({@code cma_resolve_ib_dev}): on Soft-RoCE a link-local GID
     *     matches the port's fe80:: entry. None is ENODEV, returned by the call, and the id stays
     *     ADDR_BOUND. The DGID is the destination's GID, unchecked.</li>
     * </ul>
     * ADDR_RESOLVED follows at once. On InfiniBand {@link #resolveRoute} then asks the SA with the
     * destination's {@code sib_sid} as the Service ID and the traffic class of the source's
     * {@code sib_flowinfo}; on RoCE it fails with ENODEV, as an AF_IB id has no netdev.
     *
     * @param timeout validated as {@link #resolveAddr(InetAddress, InetAddress, Duration)}; AF_IB has
     *                nothing to wait for.
     */
    public void resolveAddr(final IbSockaddr source, final IbSockaddr destination, final Duration timeout)
        throws RdmaCmException
    {
        timeoutMs("rdma_resolve_addr", timeout);
        final AddressResolution result;
        final ResolutionTrace trace = new ResolutionTrace(System.nanoTime());
        synchronized (this)
        {
            if (destination == null)
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "destination address is null", true);
            }
            if (state == CmIdState.IDLE)
            {
                bindIb("rdma_resolve_addr", source != null ? source : IbAddressing.anyFor(destination));
            }
            else if (state != CmIdState.ADDR_BOUND)
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL,
                    "id is " + state + "; resolving needs IDLE or ADDR_BOUND", true);
            }
            else if (ibSource == null)
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "the id is bound to " +
                    (boundSource == null ? "an IP address" : boundSource.getHostAddress()) +
                    ", not an AF_IB address: source and destination families differ", true);
            }
            ibDestination = destination;
            transition(CmIdState.ADDR_QUERY, "resolve_addr AF_IB " + destination.gid());
            final IbAddressing.Resolved resolved;
            try
            {
                resolved = IbAddressing.resolve(cm.options().gids(), binding, ibSource, destination, trace);
            }
            catch (final RdmaCmException ex)
            {
                transition(CmIdState.ADDR_BOUND, "resolve_addr returned " + Errno.name(ex.errno()));
                throw ex;
            }
            result = resolved.resolution();
            ibSource = resolved.source();
            binding = result.binding();
            resolution = result;
            transition(CmIdState.ADDR_RESOLVED, "ADDR_RESOLVED AF_IB " + destination.gid());
        }
        deliver(new CmEvent.AddrResolved(this, result, trace));
    }

    /** {@code rdma_bind_addr_dst} for AF_IB, under this id's lock; the id is IDLE. */
    private void bindIb(final String call, final IbSockaddr source) throws RdmaCmException
    {
        RdmaPortBinding device = null;
        if (!source.gid().isZero())
        {
            device = cm.options().gids().findInfinibandGid(source.gid()).orElseThrow(() -> new RdmaCmException(call,
                Errno.ENODEV, "no InfiniBand port has GID " + source.gid() + " (an AF_IB source is ARPHRD_INFINIBAND, " +
                "which binds to InfiniBand ports only)", true));
        }
        final IbAddressing.PortSpaceChoice choice = IbAddressing.selectPortSpace(portSpace, source);
        if (choice == null)
        {
            throw new RdmaCmException(call, Errno.EPROTONOSUPPORT, String.format(
                "sib_sid 0x%016x under mask 0x%016x names no port space an RDMA_PS_%s id may take", source.serviceId(),
                source.serviceIdMask(), portSpace), true);
        }
        // AF_IB ids are never AFONLY (rdma_bind_addr_dst sets it for AF_INET and AF_INET6 only)
        boundPort = cm.bindPort(call, choice.space(), choice.port(), new PortBindings.Owner(this,
            IbAddressing.asAddress(source.gid()), null, 0, reuseAddr, false));
        boundSpace = choice.space();
        sourcePort = choice.port();
        ibSource = IbAddressing.boundTo(choice.source(), boundPort);
        binding = device;
        transition(CmIdState.ADDR_BOUND, "bind AF_IB " + source.gid() + " sid " + String.format("0x%016x",
            ibSource.serviceId()) + (device == null ? "" : " on " + device));
    }

    /**
     * {@code rdma_get_local_addr} of an AF_IB id: the {@code sockaddr_ib} the kernel holds, with its
     * bound Service ID (and, once resolved, the SGID); null for an IP id.
     */
    public synchronized IbSockaddr ibSource()
    {
        return ibSource;
    }

    /** {@code rdma_get_peer_addr} of an AF_IB id: the destination given to resolveAddr; null for an IP id. */
    public synchronized IbSockaddr ibDestination()
    {
        return ibDestination;
    }

    /**
     * {@code rdma_resolve_addr}. Errors found up front (state, families, source not configured, no RDMA
     * port for the source, route errors) are thrown here with {@link RdmaCmException#returnedByCall()};
     * the rest arrive as an ADDR_RESOLVED or ADDR_ERROR event on the channel. A synchronous id (no
     * channel) waits for that event and returns normally only on ADDR_RESOLVED.
     *
     * @param source  null or a wildcard to let the route choose; ignored when the id is already bound.
     * @param timeout bounds only the wait for the neighbour (ARP/ND); rounded up to whole milliseconds as
     *                librdmacm's {@code int timeout_ms} holds it (see {@link #timeoutMs}); zero is allowed.
     * @throws RdmaCmException EINVAL for a timeout that is null, negative or above {@link Integer#MAX_VALUE} ms.
     */
    public void resolveAddr(final InetAddress source, final InetAddress destination, final Duration timeout)
        throws RdmaCmException
    {
        cm.requireNotLoopThread("rdma_resolve_addr");
        final CompletableFuture<Void> accepted = new CompletableFuture<>();
        final PendingResolution p = begin(source, destination, timeout, accepted);
        try
        {
            await(accepted);
            if (channel == null)
            {
                await(p.completion);
            }
        }
        catch (final ResolutionFailure impossible)
        {
            throw new IllegalStateException(impossible);
        }
    }

    /**
     * The same resolution, without blocking: the future completes with the result or exceptionally with
     * an {@link RdmaCmException} (up-front errors included). Events are still posted to the channel.
     * The future completes on the event-loop thread: callbacks attached to it must not block.
     */
    public CompletableFuture<AddressResolution> resolveAddrAsync(
        final InetAddress source, final InetAddress destination, final Duration timeout)
    {
        try
        {
            return begin(source, destination, timeout, null).completion;
        }
        catch (final RdmaCmException ex)
        {
            return CompletableFuture.failedFuture(ex);
        }
    }

    private PendingResolution begin(final InetAddress source, final InetAddress destination, final Duration timeout,
        final CompletableFuture<Void> accepted) throws RdmaCmException
    {
        final int timeoutMs = timeoutMs("rdma_resolve_addr", timeout);
        final PendingResolution p;
        final CmIdState before;
        synchronized (this)
        {
            before = state;
            if (destination == null)
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "destination address is null", true);
            }
            final CompletableFuture<AddressResolution> completion = new CompletableFuture<>();
            if (state == CmIdState.IDLE)
            {
                if (source != null && !sameFamily(source, destination))
                {
                    throw familyMismatch(source, destination);
                }
                if (source != null && !source.isAnyLocalAddress())
                {
                    bindPort("rdma_resolve_addr", source, destination);
                    transition(CmIdState.ADDR_BOUND, "auto-bind to " + source.getHostAddress() + " port " + boundPort +
                        " (to be validated)");
                    transition(CmIdState.ADDR_QUERY, "resolve_addr " + destination.getHostAddress());
                    p = new PendingResolution(this, source, null, 0, null, destination, timeoutMs,
                        cm.clock().nanoTime(), accepted, completion);
                }
                else
                {
                    // cma_bind_addr: the wildcard of the destination's family, scoped like a link-local destination.
                    final int scope = destination instanceof Inet6Address v6 && v6.isLinkLocalAddress() ?
                        v6.getScopeId() : 0;
                    final InetAddress wildcard = source != null ? source : AddressResolver.wildcardOf(destination);
                    bindPort("rdma_resolve_addr", wildcard, destination);
                    boundSource = wildcard;
                    boundIfindex = scope;
                    transition(CmIdState.ADDR_BOUND, "auto-bind to the wildcard port " + boundPort +
                        (scope == 0 ? "" : " scope " + scope));
                    transition(CmIdState.ADDR_QUERY, "resolve_addr " + destination.getHostAddress());
                    p = new PendingResolution(this, null, null, scope, null, destination, timeoutMs,
                        cm.clock().nanoTime(), accepted, completion);
                }
            }
            else if (state == CmIdState.ADDR_BOUND)
            {
                if (ibSource != null)
                {
                    throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "the id is bound to the AF_IB address " +
                        ibSource.gid() + ", not to an IP address: source and destination families differ", true);
                }
                if (boundSource != null && !sameFamily(boundSource, destination))
                {
                    throw familyMismatch(boundSource, destination);
                }
                final InetAddress concrete = boundSource == null || boundSource.isAnyLocalAddress() ? null : boundSource;
                transition(CmIdState.ADDR_QUERY, "resolve_addr " + destination.getHostAddress());
                p = new PendingResolution(this, null, concrete, boundIfindex, concrete == null ? null : binding,
                    destination, timeoutMs, cm.clock().nanoTime(), accepted, completion);
            }
            else
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL,
                    "id is " + state + "; resolving needs IDLE or ADDR_BOUND", true);
            }
            pending = p;
        }
        try
        {
            cm.submit(agent -> agent.start(p));
        }
        catch (final IllegalStateException closed)
        {
            synchronized (this)
            {
                pending = null;
                transition(before, "resolve_addr refused: " + closed.getMessage());
            }
            throw closed;
        }
        return p;
    }

    // ---- connections (rdma_cm over this project's CM on umad) ----

    /**
     * {@code rdma_create_qp}'s half that concerns the CM: the RC QP this id's connection drives. It
     * must live on the id's device ({@link #binding()}); the CM moves it RESET -> INIT -> RTR -> RTS when
     * the handshake says so, and to ERR when the connection ends.
     */
    public synchronized void attachQp(final RcQueuePair queuePair) throws RdmaCmException
    {
        if (queuePair == null)
        {
            throw new RdmaCmException("rdma_create_qp", Errno.EINVAL, "no QP given", true);
        }
        if (isUd())
        {
            throw new RdmaCmException("rdma_create_qp", Errno.EINVAL, "id " + number + " is an RDMA_PS_" + portSpace
                + " id, whose QP is UD (attachQp(UdQueuePair)), not RC", true);
        }
        final RdmaPortBinding device = binding();
        if (device == null)
        {
            throw new RdmaCmException("rdma_create_qp", Errno.EINVAL, "id " + number + " is " + state
                + ": it has no device until its address is resolved or bound", true);
        }
        if (queuePair.state() == QpState.RESET)
        {
            // ucma_init_conn_qp: rdma_create_qp leaves the QP in INIT, so receives can be posted before connecting
            queuePair.init(device.port(), 0, RcQueuePair.QP_ACCESS_FLAGS);
        }
        attachedQp = queuePair;
        if (connection != null)
        {
            connection.attach(queuePair);
        }
    }

    /**
     * {@code rdma_create_qp} for a UD id (RDMA_PS_UDP): the QP is set up at once as librdmacm's
     * {@code ucma_init_ud_qp} does, RESET -> INIT (the id's port, P_Key index 0, rdma_cm's Q_Key
     * {@code RDMA_UDP_QKEY} 0x01234567, which the kernel's {@code rdma_init_qp_attr} gives) -> RTR -> RTS
     * (send PSN 0). It must live on the id's device ({@link #binding()}). Its number is what
     * {@link #accept} answers a SIDR_REQ with.
     */
    public synchronized void attachQp(final UdQueuePair queuePair) throws RdmaCmException
    {
        if (queuePair == null)
        {
            throw new RdmaCmException("rdma_create_qp", Errno.EINVAL, "no QP given", true);
        }
        if (!isUd())
        {
            throw new RdmaCmException("rdma_create_qp", Errno.EINVAL, "id " + number + " is an RDMA_PS_" + portSpace
                + " id, whose QP is RC (attachQp(RcQueuePair)), not UD", true);
        }
        if (portSpace != PortSpace.UDP)
        {
            // cma_set_default_qkey: an RDMA_PS_IPOIB id's Q_Key is its IPoIB broadcast group's, from the SA
            throw new RdmaCmException("rdma_create_qp", Errno.EOPNOTSUPP, "id " + number + " is an RDMA_PS_" + portSpace
                + " id, whose Q_Key comes from the SA's MCMemberRecord: only RDMA_PS_UDP's RDMA_UDP_QKEY is supported", true);
        }
        final RdmaPortBinding device = binding();
        if (device == null)
        {
            throw new RdmaCmException("rdma_create_qp", Errno.EINVAL, "id " + number + " is " + state
                + ": it has no device until its address is resolved or bound", true);
        }
        if (queuePair.state() == QpState.RESET)
        {
            queuePair.activate(device.port(), 0, IdConnection.RDMA_UDP_QKEY);
        }
        attachedUdQp = queuePair;
    }

    /** A UD id: RDMA_PS_UDP (and RDMA_PS_IPOIB), whose QP type is IBV_QPT_UD (librdmacm's {@code ucma_get_qp_type}). */
    private boolean isUd()
    {
        return portSpace == PortSpace.UDP || portSpace == PortSpace.IPOIB;
    }

    /** The RDMA device, port and GID the id is on: after ADDR_RESOLVED, a bind to a local address, or a connection request. */
    public synchronized RdmaPortBinding binding()
    {
        if (connection != null)
        {
            return connection.binding();
        }
        return binding != null ? binding : resolution == null ? null : resolution.binding();
    }

    /**
     * {@code rdma_connect} on an RC id after ROUTE_RESOLVED: the REQ goes to the route's destination, its
     * Service ID {@code (port space << 16) + destination port} and its private data rdma_cm's IP CM
     * header (version 0, the IP version, the source port, both addresses) followed by the parameters'.
     * ESTABLISHED, REJECTED, UNREACHABLE or CONNECT_ERROR follows.
     */
    public void connect(final ConnectionParameters parameters) throws RdmaCmException
    {
        if (isUd())
        {
            resolveUd(parameters);
            return;
        }
        final IdConnection started;
        final ConnectParameters request;
        synchronized (this)
        {
            requireNotDestroyed("rdma_connect");
            if (state != CmIdState.ROUTE_RESOLVED || route == null || route.pathData().isEmpty())
            {
                throw new RdmaCmException("rdma_connect", Errno.EINVAL, "id " + number + " is " + state
                    + ": rdma_connect needs ROUTE_RESOLVED", true);
            }
            if (attachedQp == null)
            {
                throw new RdmaCmException("rdma_connect", Errno.EINVAL, "id " + number + " has no QP (attachQp first)", true);
            }
            final byte[] consumer = parameters.privateData();
            if (consumer.length > ConnectionParameters.REQ_PRIVATE_DATA_LIMIT)
            {
                throw new RdmaCmException("rdma_connect", Errno.EINVAL, consumer.length + " bytes of private data: a REQ has room "
                    + "for " + ConnectionParameters.REQ_PRIVATE_DATA_LIMIT + " after rdma_cm's 36-byte IP CM header", true);
            }
            request = IdConnection.request(portSpace.serviceId(destinationPort), route.paths().get(0), resolution.source(),
                resolution.destination(), sourcePort, attachedQp.qpNumber(), parameters, cmResponseTimeout, maxCmRetries);
            final RdmaPortBinding device = binding();
            started = new IdConnection(this, cm.cmAgent(device), device);
            started.attach(attachedQp);
            connection = started;
            transition(CmIdState.CONNECT, "connect to " + resolution.destination().getHostAddress() + " port " + destinationPort);
        }
        started.connect(request);
    }

    /**
     * {@code rdma_connect} on a UD id: {@code cma_resolve_ib_udp}'s SIDR_REQ to the route's destination,
     * Service ID {@code (port space << 16) + destination port}, the IP CM header before the parameters'
     * private data (180 bytes left of 216), each try waiting 4096 ms and 15 retries (rdma_cm's values,
     * or {@link #setCmResponseTimeout}'s). No QP is needed. ESTABLISHED with {@code param.ud}
     * ({@link CmEvent.Established#ud()}), UNREACHABLE (a SIDR status, or -ETIMEDOUT) or ADDR_ERROR
     * (another Q_Key) follows, the id staying in CONNECT.
     */
    private void resolveUd(final ConnectionParameters parameters) throws RdmaCmException
    {
        final IdConnection started;
        final dev.rdmacm.ibcm.SidrRequestParameters request;
        final PathRecordValue path;
        final long qkey;
        synchronized (this)
        {
            requireNotDestroyed("rdma_connect");
            if (state != CmIdState.ROUTE_RESOLVED || route == null || route.pathData().isEmpty())
            {
                throw new RdmaCmException("rdma_connect", Errno.EINVAL, "id " + number + " is " + state
                    + ": rdma_connect needs ROUTE_RESOLVED", true);
            }
            final byte[] consumer = parameters.privateData();
            if (consumer.length > ConnectionParameters.SIDR_REQ_PRIVATE_DATA_LIMIT)
            {
                throw new RdmaCmException("rdma_connect", Errno.EINVAL, consumer.length + " bytes of private data: a SIDR_REQ has "
                    + "room for " + ConnectionParameters.SIDR_REQ_PRIVATE_DATA_LIMIT + " after rdma_cm's 36-byte IP CM header", true);
            }
            path = route.paths().get(0);
            request = IdConnection.sidrRequest(portSpace.serviceId(destinationPort), path, resolution.source(),
                resolution.destination(), sourcePort, consumer, cmResponseTimeout, maxCmRetries);
            final RdmaPortBinding device = binding();
            started = new IdConnection(this, cm.cmAgent(device), device);
            connection = started;
            qkey = attachedUdQp == null ? 0 : IdConnection.RDMA_UDP_QKEY;
            transition(CmIdState.CONNECT, "resolve UD QP of " + resolution.destination().getHostAddress() + " port "
                + destinationPort + " (SIDR)");
        }
        started.resolveUd(request, path, qkey);
    }

    /**
     * {@code rdma_listen}: REQs for the id's Service ID arrive as CONNECT_REQUEST events on new ids.
     * <ul>
     * <li>An id bound to a local address listens on that address's port.</li>
     * <li>An id bound to a wildcard ({@code 0.0.0.0}, {@code ::}, or an AF_IB zero GID) listens on every
     *     port of every RDMA device there is now ({@code cma_listen_on_all}), and each request's new id is
     *     bound to the port and GID entry the REQ came in on. A port whose CM cannot be opened fails the
     *     whole listen, the others undone, and the id stays ADDR_BOUND, as the kernel's error path leaves
     *     it. A device added later is not listened on (the kernel's {@code cma_add_one} would): listen
     *     again on a new id.</li>
     * <li>An IDLE id is first bound to the IPv4 wildcard and a free port, as the kernel's rdma_listen
     *     binds it ({@link #sourcePort()} tells which).</li>
     * </ul>
     * {@code backlog} is kept as the kernel keeps it, not enforced.
     */
    public void listen(final int backlog) throws RdmaCmException
    {
        final List<IdConnection> listening = new ArrayList<>();
        synchronized (this)
        {
            requireNotDestroyed("rdma_listen");
            if (state == CmIdState.IDLE)
            {
                final InetAddress any = AddressResolver.IPV4_ANY;
                bindPort("rdma_listen", any, null);
                boundSource = any;
                transition(CmIdState.ADDR_BOUND, "bind to wildcard " + any.getHostAddress() + " port " + boundPort + " (rdma_listen)");
            }
            if (state != CmIdState.ADDR_BOUND)
            {
                throw new RdmaCmException("rdma_listen", Errno.EINVAL, "id " + number + " is " + state
                    + ": rdma_listen needs an IDLE or ADDR_BOUND id", true);
            }
            if (binding != null)
            {
                listening.add(new IdConnection(this, cm.cmAgent(binding, "rdma_listen"), binding));
                connection = listening.get(0);
                transition(CmIdState.LISTEN, "listen on " + binding.device() + " port " + boundPort + " backlog " + backlog);
            }
            else
            {
                final GidDirectory gids = cm.options().gids();
                final List<RdmaPortBinding> ports = gids.ports();
                final List<CmPortAgent> agents = cm.cmAgents(ports, "rdma_listen");
                for (int i = 0; i < ports.size(); i++)
                {
                    listening.add(new IdConnection(this, agents.get(i), ports.get(i), gids));
                }
                portListens = List.copyOf(listening);
                transition(CmIdState.LISTEN, "listen on every port (" + ports.stream().map(b -> b.device() + "/" + b.port())
                    .collect(java.util.stream.Collectors.joining(", ")) + ") port " + boundPort + " backlog " + backlog);
            }
        }
        final long serviceId = portSpace.serviceId(boundPort);
        listening.forEach(port -> port.listen(serviceId));
    }

    /** {@code rdma_accept} on an id a CONNECT_REQUEST made: the QP moves to RTS and the REP goes; ESTABLISHED follows. */
    public void accept(final ConnectionParameters parameters) throws RdmaCmException
    {
        final IdConnection accepting;
        synchronized (this)
        {
            requireNotDestroyed("rdma_accept");
            if (isUd())
            {
                acceptUd(parameters);
                return;
            }
            if (state != CmIdState.CONNECT || connection == null || attachedQp == null)
            {
                throw new RdmaCmException("rdma_accept", Errno.EINVAL, "id " + number + " is " + state
                    + (attachedQp == null ? " without a QP" : "") + ": rdma_accept needs a connection request's id with a QP", true);
            }
            accepting = connection;
        }
        accepting.accept(new AcceptParameters(attachedQp.qpNumber(), parameters.responderResources(), parameters.initiatorDepth(),
            0, parameters.flowControl(), Math.min(7, parameters.rnrRetryCount()), false, parameters.privateData()));
    }

    /**
     * {@code rdma_accept} on a UD request's id ({@code cma_send_sidr_rep}): SIDR_REP status 0 with the
     * attached UD QP's number and RDMA_UDP_QKEY, and the parameters' private data (at most 136 bytes).
     * No ESTABLISHED follows, on this side, as with the kernel; the id stays in CONNECT.
     */
    private void acceptUd(final ConnectionParameters parameters) throws RdmaCmException
    {
        if (state != CmIdState.CONNECT || connection == null || attachedUdQp == null)
        {
            throw new RdmaCmException("rdma_accept", Errno.EINVAL, "id " + number + " is " + state
                + (attachedUdQp == null ? " without a UD QP" : "") + ": rdma_accept needs a SIDR request's id with a UD QP", true);
        }
        final byte[] data = parameters.privateData();
        requireSidrReplyData("rdma_accept", data);
        connection.sidrReply(SidrStatus.SUCCESS, attachedUdQp.qpNumber(), data);
    }

    private static void requireSidrReplyData(final String call, final byte[] data) throws RdmaCmException
    {
        if (data.length > ConnectionParameters.SIDR_REP_PRIVATE_DATA_LIMIT)
        {
            throw new RdmaCmException(call, Errno.EINVAL, data.length + " bytes of private data: a SIDR_REP holds at most "
                + ConnectionParameters.SIDR_REP_PRIVATE_DATA_LIMIT, true);
        }
    }

    /**
     * {@code rdma_reject}: a REJ, consumer defined (reason 28), with at most 148 bytes of private data;
     * on a UD request's id a SIDR_REP with status 2 ({@code IB_SIDR_REJECT}) and at most 136.
     */
    public void reject(final byte[] privateData) throws RdmaCmException
    {
        final IdConnection rejecting;
        synchronized (this)
        {
            requireNotDestroyed("rdma_reject");
            if (state != CmIdState.CONNECT || connection == null)
            {
                throw new RdmaCmException("rdma_reject", Errno.EINVAL, "id " + number + " is " + state
                    + ": rdma_reject needs a connection request's id", true);
            }
            if (isUd())
            {
                requireSidrReplyData("rdma_reject", privateData);
                connection.sidrReply(SidrStatus.REJECT, 0, privateData.clone());
                return;
            }
            if (privateData.length > ConnectionParameters.REJ_PRIVATE_DATA_LIMIT)
            {
                throw new RdmaCmException("rdma_reject", Errno.EINVAL, privateData.length + " bytes of private data: a REJ holds at most "
                    + ConnectionParameters.REJ_PRIVATE_DATA_LIMIT, true);
            }
            rejecting = connection;
        }
        rejecting.reject(privateData.clone());
    }

    /** {@code rdma_disconnect}: a DREQ, or the DREP when the peer's DREQ came first; DISCONNECTED follows. */
    public void disconnect() throws RdmaCmException
    {
        final IdConnection ending;
        synchronized (this)
        {
            requireNotDestroyed("rdma_disconnect");
            if (isUd())
            {
                throw new RdmaCmException("rdma_disconnect", Errno.EINVAL, "id " + number + " is a UD id (RDMA_PS_" + portSpace
                    + "): it has no connection to end; destroy it", true);
            }
            if (connection == null)
            {
                throw new RdmaCmException("rdma_disconnect", Errno.EINVAL, "id " + number + " is " + state + ": not connected", true);
            }
            ending = connection;
            if (state == CmIdState.ESTABLISHED || state == CmIdState.CONNECT)
            {
                transition(CmIdState.DISCONNECT, "disconnect");
            }
        }
        ending.disconnect();
    }

    /** From the CM thread: an event of the id's connection, with the state it leads to (or null). */
    synchronized void connectionEvent(final CmEvent event, final CmIdState next)
    {
        if (state == CmIdState.DESTROYING)
        {
            return;
        }
        if (next != null && next != state)
        {
            transition(next, event.type().name());
        }
        deliver(event);
    }

    /** cma_ib_req_handler's new id: on the listener's channel and port space, addressed from the IP CM header. */
    RdmaCmId childFor(final dev.rdmacm.ibcm.IbCmPeerAddress from, final byte[] privateData)
    {
        final RdmaCmId child = cm.createId(channel, portSpace);
        synchronized (child)
        {
            final IpCmPrivateDataHeader header = new IpCmPrivateDataHeader();
            if (privateData.length >= IpCmPrivateDataHeader.LENGTH)
            {
                header.wrap(new UnsafeBuffer(privateData), 0, privateData.length);
                child.destinationPort = header.sourcePort();
                child.sourcePort = boundPort;
                child.peerAddress = header.sourceAddress();
                child.boundSource = header.destinationAddress();
            }
            child.transition(CmIdState.CONNECT, (isUd() ? "SIDR request from " : "connection request from ") + from.gid());
        }
        return child;
    }

    synchronized void adopt(final IdConnection requested)
    {
        connection = requested;
    }

    /** The peer's address of an id a connection request made ({@code rdma_get_peer_addr}), or null. */
    public synchronized InetAddress peerAddress()
    {
        return peerAddress != null ? peerAddress : resolution == null ? null : resolution.destination();
    }

    /**
     * {@code rdma_destroy_id}: cancels a pending resolution, drops the id's events still queued on the
     * channel (no event follows), and then, as librdmacm does, waits until every event of the id that
     * the application took has been acknowledged. So an event must be acked before its id is
     * destroyed, from another thread if need be; the wait refuses to run on the event loop.
     */
    public void destroy()
    {
        final PendingResolution p;
        synchronized (this)
        {
            if (state == CmIdState.DESTROYING)
            {
                return;
            }
            transition(CmIdState.DESTROYING, "destroy");
            if (connection != null)
            {
                connection.close();
            }
            portListens.forEach(IdConnection::close);
            releasePort();
            cm.destroyed(this);
            p = pending;
            pending = null;
            pendingRoute = null;
        }
        if (p != null)
        {
            cm.submitIfOpen(agent -> agent.cancel(p));
        }
        if (channel != null)
        {
            channel.discard(this);
            awaitAcknowledgements();
        }
    }

    private void awaitAcknowledgements()
    {
        boolean interrupted = false;
        synchronized (acknowledgements)
        {
            if (unacknowledged > 0)
            {
                cm.requireNotLoopThread("rdma_destroy_id with unacknowledged events");
            }
            while (unacknowledged > 0)
            {
                try
                {
                    acknowledgements.wait();
                }
                catch (final InterruptedException ex)
                {
                    // rdma_destroy_id is not interruptible either: keep waiting, restore the flag after.
                    interrupted = true;
                }
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close()
    {
        destroy();
    }

    // ---- called by the event loop ----

    synchronized void bound(final InetAddress source, final int ifindex, final RdmaPortBinding binding,
        final byte[] hardwareAddress)
    {
        this.boundSource = source;
        this.boundIfindex = ifindex;
        this.binding = binding;
        this.boundHardwareAddress = hardwareAddress.clone();
    }

    void accepted(final PendingResolution p)
    {
        p.endCall(null);
    }

    void callFailed(final PendingResolution p, final int errno, final String detail, final CmIdState backTo)
    {
        synchronized (this)
        {
            if (state == CmIdState.ADDR_QUERY && pending == p)
            {
                pending = null;
                if (backTo == CmIdState.IDLE)
                {
                    boundSource = null;
                    boundIfindex = 0;
                    releasePort();
                }
                transition(backTo, "resolve_addr returned " + Errno.name(errno));
            }
        }
        final RdmaCmException ex = new RdmaCmException("rdma_resolve_addr", errno, detail, true, p.trace);
        p.endCall(ex);
        p.completion.completeExceptionally(ex);
    }

    void resolved(final PendingResolution p, final AddressResolution result)
    {
        synchronized (this)
        {
            if (state != CmIdState.ADDR_QUERY || pending != p)
            {
                return;
            }
            pending = null;
            resolution = result;
            transition(CmIdState.ADDR_RESOLVED, "ADDR_RESOLVED " + result.destination().getHostAddress());
        }
        deliver(new CmEvent.AddrResolved(this, result, p.trace));
        p.completion.complete(result);
    }

    void resolutionFailed(final PendingResolution p, final int errno, final String detail)
    {
        synchronized (this)
        {
            if (state != CmIdState.ADDR_QUERY || pending != p)
            {
                return;
            }
            pending = null;
            transition(CmIdState.ADDR_BOUND, "ADDR_ERROR " + Errno.name(errno));
        }
        deliver(new CmEvent.AddrError(this, -errno, detail, p.trace));
        p.completion.completeExceptionally(new RdmaCmException("rdma_resolve_addr", errno, detail, false, p.trace));
    }

    /**
     * {@code cma_send_device_removal_put}: an id bound to {@code device} (by bind, or by a resolved
     * address) moves to DEVICE_REMOVAL, a resolution or route still pending is dropped, and
     * DEVICE_REMOVAL is posted once.
     */
    void deviceRemoved(final String device)
    {
        final PendingResolution p;
        final PendingRoute r;
        synchronized (this)
        {
            final RdmaPortBinding bound = resolution != null ? resolution.binding() : binding;
            if (bound == null || !bound.device().equals(device) || state == CmIdState.IDLE ||
                state == CmIdState.DESTROYING || state == CmIdState.DEVICE_REMOVAL)
            {
                return;
            }
            transition(CmIdState.DEVICE_REMOVAL, "device " + device + " removed");
            p = pending;
            r = pendingRoute;
            pending = null;
            pendingRoute = null;
        }
        final String why = "device " + device + " was removed";
        if (p != null)
        {
            cm.submitIfOpen(agent -> agent.cancel(p));
            final RdmaCmException removed = new RdmaCmException("rdma_resolve_addr", Errno.ENODEV, why, false, p.trace);
            p.endCall(removed);
            p.completion.completeExceptionally(removed);
        }
        if (r != null)
        {
            final RdmaCmException removed = new RdmaCmException("rdma_resolve_route", Errno.ENODEV, why, false, r.trace);
            r.accepted.completeExceptionally(removed);
            r.completion.completeExceptionally(removed);
        }
        deliver(new CmEvent.DeviceRemoval(this));
    }

    /**
     * {@code cma_netdev_change}'s test: the id is on an RDMA device, its {@code bound_dev_if} is
     * {@code ifindex} and its {@code src_dev_addr} differs from the netdev's {@code address}. Nothing here
     * updates {@code src_dev_addr} afterwards, as in the kernel: a failover back to the slave whose MAC
     * the id stored changes nothing.
     */
    synchronized boolean boundToNetdevWithOtherAddress(final int ifindex, final byte[] address)
    {
        if (state == CmIdState.IDLE || state == CmIdState.DESTROYING || state == CmIdState.DEVICE_REMOVAL)
        {
            return false;
        }
        if (resolution != null)
        {
            return resolution.ifindex() == ifindex && !Arrays.equals(resolution.sourceHardwareAddress(), address);
        }
        return binding != null && boundIfindex == ifindex && !Arrays.equals(boundHardwareAddress, address);
    }

    /**
     * ADDR_CHANGE, as {@code cma_netdev_change} queues it: the state stays as it is (the kernel's work
     * has no state change), and the application decides what to do with the id.
     */
    void addressChanged(final String netdev)
    {
        deliver(new CmEvent.AddrChange(this));
    }

    /** The channel handed one of this id's events to the application. */
    void retrieved()
    {
        synchronized (acknowledgements)
        {
            unacknowledged++;
        }
    }

    void acknowledge(final CmEvent event)
    {
        synchronized (acknowledgements)
        {
            if (unacknowledged > 0)
            {
                unacknowledged--;
                acknowledgements.notifyAll();
            }
        }
    }

    private void deliver(final CmEvent event)
    {
        if (channel != null)
        {
            channel.post(event);
        }
    }

    /** The one place an id changes state. */
    private void transition(final CmIdState next, final String reason)
    {
        final CmIdState previous = state;
        state = next;
        cm.listener().onTransition(this, previous, next, reason);
    }

    /**
     * The {@code int timeout_ms} librdmacm would pass the kernel for {@code timeout}: a sub-millisecond
     * remainder rounds up, so that a positive timeout never becomes 0 (which rdma_resolve_route refuses
     * and which rdma_resolve_addr takes as "no wait"), and every deadline the resolver then keeps is the
     * whole number of milliseconds the kernel would keep. Null, negative and beyond {@code int} range are
     * EINVAL, returned by the call, as librdmacm would refuse the int it cannot be given.
     */
    static int timeoutMs(final String call, final Duration timeout) throws RdmaCmException
    {
        if (timeout == null)
        {
            throw new RdmaCmException(call, Errno.EINVAL, "timeout is null", true);
        }
        if (timeout.compareTo(MAX_TIMEOUT) > 0)
        {
            throw new RdmaCmException(call, Errno.EINVAL, "timeout " + timeout + " exceeds librdmacm's int timeout_ms (" +
                Integer.MAX_VALUE + " ms)", true);
        }
        if (timeout.isNegative())
        {
            throw new RdmaCmException(call, Errno.EINVAL, "timeout " + timeout.toMillis() + " ms is negative", true);
        }
        final long millis = timeout.toMillis();
        return (int)(timeout.equals(Duration.ofMillis(millis)) ? millis : millis + 1);
    }

    private static boolean sameFamily(final InetAddress a, final InetAddress b)
    {
        return (a instanceof Inet4Address) == (b instanceof Inet4Address);
    }

    private static RdmaCmException familyMismatch(final InetAddress source, final InetAddress destination)
    {
        return new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "source " + source.getHostAddress() +
            " and destination " + destination.getHostAddress() + " are of different families", true);
    }

    /**
     * Waits for the loop's answer: spinning first ({@link RdmaCm.Options#spin}), since the loop answers
     * most calls within microseconds and parking costs a scheduler wake-up on each side.
     */
    private <T> T await(final CompletableFuture<T> future) throws RdmaCmException, ResolutionFailure
    {
        final long spinUntil = System.nanoTime() + cm.spinNanos();
        while (!future.isDone() && System.nanoTime() - spinUntil < 0)
        {
            Thread.onSpinWait();
        }
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    return future.get();
                }
                catch (final InterruptedException ex)
                {
                    interrupted = true; // the event loop completes every future; finish the call first
                }
                catch (final ExecutionException ex)
                {
                    if (ex.getCause() instanceof RdmaCmException cm)
                    {
                        throw cm;
                    }
                    if (ex.getCause() instanceof ResolutionFailure failure)
                    {
                        throw failure;
                    }
                    throw new IllegalStateException(ex.getCause());
                }
            }
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@code cma_get_port} for {@code source} (the port asked for, else any), under this id's lock. */
    private void bindPort(final String call, final InetAddress source, final InetAddress destination)
        throws RdmaCmException
    {
        // rdma_bind_addr: without the option, an IPv4 id is AFONLY and an IPv6 one follows bindv6only.
        final boolean onlyThisFamily = afOnly != null ? afOnly : source instanceof Inet4Address || cm.bindV6Only();
        boundPort = cm.bindPort(call, portSpace, sourcePort,
            new PortBindings.Owner(this, source, destination, destinationPort, reuseAddr, onlyThisFamily));
        boundSpace = portSpace;
    }

    private void releasePort()
    {
        if (boundPort != 0)
        {
            cm.releasePort(boundSpace, boundPort, this);
            boundPort = 0;
        }
    }

    /** The kernel whose rules this id's CM follows. */
    KernelProfile kernelProfile()
    {
        return cm.options().kernelProfile();
    }

    @Override
    public String toString()
    {
        return "RdmaCmId#" + number;
    }
}
