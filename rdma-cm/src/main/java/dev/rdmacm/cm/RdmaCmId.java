package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.addrinfo.RdmaAddrInfoHints;
import dev.rdmacm.ibcm.IbCmPeerAddress;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.resolver.engine.AddressQuery;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.QpState;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.UdQueuePair;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code struct rdma_cm_id}: a handle. It holds the id's number, channel and port space, the conductor's
 * command proxy ({@link ConductorProxy}) and the last {@link IdView} the conductor published; everything
 * else the id holds is in its {@link IdContext}, which the conductor ({@link IdConductor}, on the
 * resolver loop's thread) keeps by number and alone touches. A call checks what
 * needs no id state (ranges, nulls, timeouts) on the caller's thread and throws before anything is
 * queued; the rest is an {@link IdCommand} the conductor runs, whose reply a synchronous call waits for
 * on the caller's thread. Getters read the view: no lock, no hand-off.
 * <p>
 * Created with an {@link EventChannel} its events go there; created without one it is synchronous, like
 * librdmacm's NULL channel: {@link #resolveAddr} waits for the outcome and throws the error event's
 * errno. Every state change is reported to the {@link dev.rdmacm.cm.diagnostics.StateTransitionListener} of the {@link RdmaCm}, on
 * the conductor's thread. Thread-safe.
 */
public final class RdmaCmId implements AutoCloseable
{

    private final RdmaCm cm;
    private final ConductorProxy proxy;
    private final EventChannel channel;
    private final long number;
    private final PortSpace portSpace;
    private volatile IdView view = IdView.IDLE;
    private static final VarHandle DESTROYED;

    static
    {
        try
        {
            DESTROYED = MethodHandles.lookup().findVarHandle(RdmaCmId.class, "destroyed", boolean.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /**
     * Set by {@link #destroy}, before it discards the id's queued events: the id reads DESTROYING from then
     * on, even before the conductor has run it, and its channel neither takes nor hands out its events.
     */
    private volatile boolean destroyed;
    /** The RC QP {@link #attachQp(RcQueuePair)} gave: the application's threads move it (RTR, RTS, ERR), as librdmacm's do. */
    private final IdQueuePair qp = new IdQueuePair();
    /** A listener's room for requests not taken yet: taken on the CM's thread, given back by the channel's taker. */
    final ListenBacklog backlog = new ListenBacklog();
    /** A synchronous id's connect, waiting for its connection's first event ({@code ucma_complete}); else null. */
    private volatile CompletableFuture<CmEvent> synchronousConnect;
    /** Who may touch the id's context: the conductor, or a caller finishing a resolution ({@link CallerResolution}). */
    final IdGuard guard = new IdGuard();
    /** Counted by application threads; destroy waits on it. */
    private final EventAcknowledgements acknowledgements = new EventAcknowledgements();

    RdmaCmId(final RdmaCm cm, final ConductorProxy proxy, final EventChannel channel, final long number,
        final PortSpace portSpace)
    {
        this.cm = cm;
        this.proxy = proxy;
        this.channel = channel;
        this.number = number;
        this.portSpace = portSpace;
    }

    /** {@return the port space the id was created in ({@code RDMA_PS_TCP} unless another was asked for)} */
    public PortSpace portSpace()
    {
        return portSpace;
    }

    long number()
    {
        return number;
    }

    /** The conductor shows the id as it is now. */
    void publish(final IdView next)
    {
        view = next;
    }

    /** What the conductor last published. */
    IdView view()
    {
        return view;
    }

    /** {@return the route after ROUTE_RESOLVED, or null} */
    public ResolvedRoute route()
    {
        return view.route();
    }

    /**
     * {@code rdma_set_service_type}: the ToS, which becomes the QoS class of an IPv4 InfiniBand path
     * query and the traffic class (and, through the priority, the SL) of a RoCE path.
     *
     * @param typeOfService the ToS, 0-255.
     */
    public void setServiceType(final int typeOfService)
    {
        if (typeOfService < 0 || typeOfService > 0xff)
        {
            throw new IllegalArgumentException("ToS " + typeOfService + " out of range 0..255");
        }
        set(new IdOption.ServiceType(typeOfService));
    }

    /**
     * {@code rdma_set_ack_timeout}: a non-zero value makes a RoCE path's packet lifetime {@code timeout - 1}.
     *
     * @param timeout an IBA time exponent, 0-255 (0: the path's own).
     */
    public void setAckTimeout(final int timeout)
    {
        if (timeout < 0 || timeout > 0xff)
        {
            throw new IllegalArgumentException("ACK timeout " + timeout + " out of range 0..255");
        }
        set(new IdOption.AckTimeout(timeout));
    }

    /**
     * Beyond librdmacm: the REQ's CM response timeouts (both, an IBA time {@code 4.096 us * 2^timeout},
     * 0-31) and its Max CM Retries (0-15), which rdma_cm fixes at {@code CMA_CM_RESPONSE_TIMEOUT} 20 and
     * {@code CMA_MAX_CM_RETRIES} 15. They set how long this side waits for each answer to its REQ and DREQ
     * (twice the path's packet lifetime plus the remote response timeout, {@code maxRetries + 1} tries,
     * about 98 s on RoCE with rdma_cm's values) and, through the REQ, how long the peer's CM waits for
     * this side's answers. Set before {@link #connect}.
     *
     * @param timeout    the CM response timeouts, an IBA time exponent, 0-31.
     * @param maxRetries the REQ's Max CM Retries, 0-15.
     */
    public void setCmResponseTimeout(final int timeout, final int maxRetries)
    {
        if (timeout < 0 || timeout > 31)
        {
            throw new IllegalArgumentException("CM response timeout " + timeout + " out of range 0..31 (a 5-bit IBA time)");
        }
        if (maxRetries < 0 || maxRetries > 15)
        {
            throw new IllegalArgumentException("Max CM Retries " + maxRetries + " out of range 0..15 (the REQ's 4-bit field)");
        }
        set(new IdOption.CmResponseTimeout(timeout, maxRetries));
    }

    /**
     * {@code rdma_set_option(RDMA_OPTION_ID_REUSEADDR)}: ids that all set it may share a bound port.
     * Allowed while IDLE ({@code rdma_set_reuseaddr}).
     *
     * @param reuse whether the port may be shared.
     */
    public void setReuseAddr(final boolean reuse) throws RdmaCmException
    {
        set(new IdOption.ReuseAddr(reuse));
    }

    /**
     * {@code rdma_set_option(RDMA_OPTION_ID_AFONLY)}: a port bound by ids of one family only, so an
     * IPv4 and an IPv6 id that both set it may share it. Allowed while IDLE or ADDR_BOUND.
     *
     * @param value whether the port is bound for this id's family only.
     */
    public void setAfOnly(final boolean value) throws RdmaCmException
    {
        set(new IdOption.AfOnly(value));
    }

    /** {@return {@code rdma_get_src_port}: the port the id is bound to (a random one unless given), 0 while unbound} */
    public int sourcePort()
    {
        return view.sourcePort();
    }

    /** {@return {@code rdma_get_dst_port}: the destination port given to resolveAddr, 0 if none} */
    public int destinationPort()
    {
        return view.destinationPort();
    }

    /**
     * The {@code sin6_flowinfo} of an IPv6 source (host order): its traffic class and flow label.
     *
     * @param flowinfo the traffic class (bits 20-27) and flow label (bits 0-19).
     */
    public void setSourceFlowinfo(final int flowinfo)
    {
        set(new IdOption.SourceFlowinfo(flowinfo));
    }

    private void set(final IdOption option) throws RdmaCmException
    {
        await(proxy.setOption(this, option));
    }

    /**
     * {@code rdma_resolve_addr} with ports, as librdmacm takes socket addresses: the destination port
     * makes the Service ID of the path query and, with the source port, the RoCE v2 flow label. A
     * source port of 0 (or no source) gets a random free one from the namespace's local port range,
     * as {@code cma_alloc_any_port} chooses it.
     *
     * @param source      null or a wildcard to let the route choose, with the source port.
     * @param destination the address to resolve, with the destination port.
     * @param timeout     as {@link #resolveAddr(InetAddress, InetAddress, Duration)}.
     * @throws RdmaCmException as {@link #resolveAddr(InetAddress, InetAddress, Duration)}.
     */
    public void resolveAddr(final InetSocketAddress source, final InetSocketAddress destination, final Duration timeout)
        throws RdmaCmException
    {
        resolveAddr(source == null ? null : source.getAddress(), destination.getAddress(),
            source == null ? 0 : source.getPort(), destination.getPort(), timeout);
    }

    /**
     * {@code rdma_resolve_route}. Errors found up front (timeout not positive, the id not
     * ADDR_RESOLVED, no SA for an InfiniBand port, no netdev or too small an MTU for RoCE) are thrown
     * with {@link RdmaCmException#returnedByCall()}; the outcome is a ROUTE_RESOLVED or ROUTE_ERROR
     * event (status -EINVAL for an SA error status, -ETIMEDOUT when the SA never answers). A
     * synchronous id waits for it and returns normally only on ROUTE_RESOLVED.
     *
     * @param timeout bounds the SA query with its retries; it is rounded up to whole milliseconds, as
     *                librdmacm's {@code int timeout_ms} holds it (see {@code CmTimeout.timeoutMs}), and must be
     *                at least one.
     * @throws RdmaCmException EINVAL for a timeout that is null, not positive or above
     *                {@link Integer#MAX_VALUE} ms.
     */
    public void resolveRoute(final Duration timeout) throws RdmaCmException
    {
        final boolean onLoop = cm.onLoopThread();
        if (channel == null || !onInfiniband())
        {
            // this call would wait for the loop: for the outcome, or for the RoCE path built there
            cm.requireNotLoopThread("rdma_resolve_route");
        }
        final int timeoutMs = CmTimeout.timeoutMs("rdma_resolve_route", timeout);
        final CompletableFuture<Void> accepted = new CompletableFuture<>();
        final CompletableFuture<ResolvedRoute> completion = new CompletableFuture<>();
        // on the loop (an InfiniBand id with a channel) ACM's answer could not come back while the call waits
        if (onLoop || !CallerRoute.resolve(cm, this, proxy, timeoutMs, accepted, completion))
        {
            proxy.resolveRoute(this, timeoutMs, !onLoop, accepted, completion);
        }
        // the call's own part: on RoCE the path is built here or on the loop, and its errors are the call's
        await(accepted);
        if (channel == null)
        {
            await(completion);
        }
    }

    /**
     * The same, without blocking, from any thread, the event loop's included (a {@code thenCompose} on
     * {@link #resolveAddrAsync}): the future completes with the route or an {@link RdmaCmException}
     * (up-front errors included, {@link RdmaCmException#returnedByCall()} true). Events are still posted
     * to the channel.
     *
     * @param timeout as {@link #resolveRoute(Duration)}.
     * @return the route, or the call's failure.
     */
    public CompletableFuture<ResolvedRoute> resolveRouteAsync(final Duration timeout)
    {
        final int timeoutMs;
        try
        {
            timeoutMs = CmTimeout.timeoutMs("rdma_resolve_route", timeout);
        }
        catch (final RdmaCmException ex)
        {
            return CompletableFuture.failedFuture(ex);
        }
        final CompletableFuture<ResolvedRoute> completion = new CompletableFuture<>();
        proxy.resolveRoute(this, timeoutMs, true, null, completion);
        return completion;
    }

    private boolean onInfiniband()
    {
        final AddressResolution resolution = view.resolution();
        return resolution != null && resolution.binding().gidType() == GidType.IB;
    }

    /**
     * {@code rdma_set_option(RDMA_OPTION_IB, RDMA_OPTION_IB_PATH)}: the application gives the route
     * (from ibacm, or its own SA query) instead of {@code rdma_resolve_route}. The id must be
     * ADDR_RESOLVED (else EINVAL); it becomes ROUTE_RESOLVED at once and a ROUTE_RESOLVED event follows,
     * as {@code ucma_set_ib_path} sends it. Which path is kept, and how it reads back, is
     * the kernel's {@code cma_set_ib_paths} (here the resolver's {@code IbPathOption}).
     *
     * @param pathData {@code ibv_path_data} records, 72 bytes each.
     * @throws RdmaCmException EINVAL or ENODEV, returned by the call.
     */
    public void setIbPath(final List<byte[]> pathData) throws RdmaCmException
    {
        await(proxy.setIbPath(this, pathData));
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
        await(proxy.addrinfoBegin(this));
        List<RdmaAddrInfo> entries = null;
        try
        {
            entries = List.copyOf(AddrinfoLookup.resolve(node, service, hints));
        }
        finally
        {
            await(proxy.addrinfoEnd(this, entries));
        }
    }

    /**
     * {@code rdma_query_addrinfo}: the entries of the last successful {@link #resolveAddrinfo}, handed
     * over once (the id forgets them, and may resolve again). Available as soon as the resolve call
     * returned, before ADDRINFO_RESOLVED is read, as in librdmacm's DNS branch.
     *
     * @return the entries, in librdmacm's order.
     * @throws RdmaCmException ENOENT when no successful resolution waits (none, taken already, failed, or
     *                still in progress on another thread).
     */
    public List<RdmaAddrInfo> queryAddrinfo() throws RdmaCmException
    {
        return await(proxy.addrinfoTake(this));
    }

    /**
     * {@code rdma_write_cm_event} (rdma-core HEAD): posts an event of this id on its channel, e.g. to wake
     * a thread blocked in {@link EventChannel#getEvent()}, in order with the events the CM posts. It
     * arrives as {@link CmEvent.User} with {@code status} and {@code arg} unchanged; a synchronous id has
     * no channel the application reads, so its event goes nowhere, as librdmacm's goes to the private one.
     *
     * @param event  {@link CmEventType#USER}.
     * @param status the event's status, any value.
     * @param arg    the event's 64-bit {@code param.arg}.
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
        await(proxy.writeEvent(this, status, arg));
    }

    /** {@return the id's state now ({@code DESTROYING} once destroyed), as the conductor last published it} */
    public CmIdState state()
    {
        return destroyed ? CmIdState.DESTROYING : view.state();
    }

    /** {@return the event channel, or null for a synchronous id} */
    public EventChannel channel()
    {
        return channel;
    }

    /** {@return the last successful resolution, or null} */
    public AddressResolution resolution()
    {
        return view.resolution();
    }

    /** {@return the bound source address (a wildcard after auto-binding to one), or null while IDLE} */
    public InetAddress boundSource()
    {
        return view.boundSource();
    }

    /** {@return events the application took from the channel and has not acknowledged yet} */
    public int unacknowledgedEvents()
    {
        return acknowledgements.pending();
    }

    /**
     * {@code rdma_bind_addr} with a port: 0 takes a random free one, another must be free (EADDRINUSE).
     *
     * @param source the address and port to bind to.
     */
    public void bindAddr(final InetSocketAddress source) throws RdmaCmException
    {
        bind(source.getAddress(), source.getPort());
    }

    /**
     * {@code rdma_bind_addr}: a wildcard binds at once; a concrete address must be configured on a
     * netdev (else EADDRNOTAVAIL) that has an RDMA port with its GID (else ENODEV).
     *
     * @param source the address to bind to, or a wildcard.
     */
    public void bindAddr(final InetAddress source) throws RdmaCmException
    {
        bind(source, -1);
    }

    private void bind(final InetAddress source, final int port) throws RdmaCmException
    {
        cm.requireNotLoopThread("rdma_bind_addr");
        if (source == null)
        {
            throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "source address is null", true);
        }
        await(proxy.bindIp(this, source, port));
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
     * @param source the {@code sockaddr_ib} to bind to.
     * @throws RdmaCmException EINVAL when the id is not IDLE, ENODEV, EPROTONOSUPPORT, and the port errors
     *                         of {@link #bindAddr(InetSocketAddress)}.
     */
    public void bindAddr(final IbSockaddr source) throws RdmaCmException
    {
        if (source == null)
        {
            throw new RdmaCmException("rdma_bind_addr", Errno.EINVAL, "source address is null", true);
        }
        await(proxy.bindIb(this, source));
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
     * @param source      null to use the bound source, or the {@code sockaddr_ib} to bind first.
     * @param destination the destination's GID, P_Key and Service ID.
     * @param timeout validated as {@link #resolveAddr(InetAddress, InetAddress, Duration)}; AF_IB has
     *                nothing to wait for.
     */
    public void resolveAddr(final IbSockaddr source, final IbSockaddr destination, final Duration timeout)
        throws RdmaCmException
    {
        CmTimeout.timeoutMs("rdma_resolve_addr", timeout);
        if (destination == null)
        {
            throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "destination address is null", true);
        }
        await(proxy.resolveIb(this, source, destination));
    }

    /**
     * {@code rdma_get_local_addr} of an AF_IB id: the {@code sockaddr_ib} the kernel holds, with its
     * bound Service ID (and, once resolved, the SGID); null for an IP id.
     *
     * @return the bound {@code sockaddr_ib}, or null.
     */
    public IbSockaddr ibSource()
    {
        return view.ibSource();
    }

    /** {@return {@code rdma_get_peer_addr} of an AF_IB id: the destination given to resolveAddr; null for an IP id} */
    public IbSockaddr ibDestination()
    {
        return view.ibDestination();
    }

    /**
     * {@code rdma_resolve_addr}. Errors found up front (state, families, source not configured, no RDMA
     * port for the source, route errors) are thrown here with {@link RdmaCmException#returnedByCall()};
     * the rest arrive as an ADDR_RESOLVED or ADDR_ERROR event on the channel. A synchronous id (no
     * channel) waits for that event and returns normally only on ADDR_RESOLVED.
     *
     * @param source  null or a wildcard to let the route choose; ignored when the id is already bound.
     * @param destination the address to resolve.
     * @param timeout bounds only the wait for the neighbour (ARP/ND); rounded up to whole milliseconds as
     *                librdmacm's {@code int timeout_ms} holds it (see {@code CmTimeout.timeoutMs}); zero is allowed.
     * @throws RdmaCmException EINVAL for a timeout that is null, negative or above {@link Integer#MAX_VALUE} ms.
     */
    public void resolveAddr(final InetAddress source, final InetAddress destination, final Duration timeout)
        throws RdmaCmException
    {
        resolveAddr(source, destination, -1, -1, timeout);
    }

    /**
     * The synchronous call; ports -1 when not given. The lookup runs here, on the caller's thread, as the
     * kernel runs it in the caller's write ({@link CallerAddressLookup}); one round trip to the conductor
     * then checks the state, moves the id and takes the result, or resolves itself when the caller could
     * not (a neighbour to wait for, a source to bind).
     */
    private void resolveAddr(final InetAddress source, final InetAddress destination, final int sourcePort,
        final int destinationPort, final Duration timeout) throws RdmaCmException
    {
        cm.requireNotLoopThread("rdma_resolve_addr");
        final int timeoutMs = CmTimeout.timeoutMs("rdma_resolve_addr", timeout);
        if (destination == null)
        {
            throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "destination address is null", true);
        }
        final CompletableFuture<Void> accepted = new CompletableFuture<>();
        final CompletableFuture<AddressResolution> completion = new CompletableFuture<>();
        final long startNanos = cm.clock().nanoTime();
        final CallerAddressLookup lookup = cm.callerLookup();
        final AddressQuery early = lookup == null ? null : lookup.attempt(view, source, destination, timeoutMs, startNanos);
        if (early == null || !CallerResolution.resolve(cm, this, proxy, lookup, early, source, destination, sourcePort,
            destinationPort, accepted, completion))
        {
            proxy.resolveIp(this, source, destination, sourcePort, destinationPort, timeoutMs, startNanos, early,
                accepted, completion);
            await(accepted);
        }
        if (channel == null)
        {
            await(completion);
        }
    }

    /**
     * The same resolution, without blocking: the future completes with the result or exceptionally with
     * an {@link RdmaCmException} (up-front errors included). Events are still posted to the channel.
     * The future completes on the event-loop thread: callbacks attached to it must not block.
     *
     * @param source      as {@link #resolveAddr(InetAddress, InetAddress, Duration)}.
     * @param destination the address to resolve.
     * @param timeout     as {@link #resolveAddr(InetAddress, InetAddress, Duration)}.
     * @return the resolution, or the call's failure.
     */
    public CompletableFuture<AddressResolution> resolveAddrAsync(
        final InetAddress source, final InetAddress destination, final Duration timeout)
    {
        final int timeoutMs;
        try
        {
            timeoutMs = CmTimeout.timeoutMs("rdma_resolve_addr", timeout);
            if (destination == null)
            {
                throw new RdmaCmException("rdma_resolve_addr", Errno.EINVAL, "destination address is null", true);
            }
        }
        catch (final RdmaCmException ex)
        {
            return CompletableFuture.failedFuture(ex);
        }
        final CompletableFuture<AddressResolution> completion = new CompletableFuture<>();
        proxy.resolveIp(this, source, destination, -1, -1, timeoutMs, cm.clock().nanoTime(), null, null,
            completion);
        return completion;
    }

    // ---- connections (rdma_cm over this project's CM on umad) ----

    /**
     * {@code rdma_create_qp}'s half that concerns the CM: the RC QP this id's connection drives. It
     * must live on the id's device ({@link #binding()}). It moves as librdmacm moves it: to INIT here, to
     * RTR and RTS on the thread that takes the connect response ({@link EventChannel#getEvent}, or
     * {@link #connect}'s caller for a synchronous id) or in {@link #accept}'s caller, and to ERR in
     * {@link #disconnect}'s caller or the thread that takes a REJECTED; the CM's thread never touches it.
     * <p>
     * As librdmacm's {@code rdma_create_qp} in the caller, the work is done on this thread: the checks
     * read the id's {@link IdView}, a QP in RESET moves to INIT ({@code ucma_init_conn_qp}) here, and the
     * conductor is handed the QP without a reply to wait for. A call this thread makes next finds it
     * attached, as the conductor runs its commands in order (docs/decisions.md, "rdma_create_qp").
     *
     * @param queuePair an RC QP in RESET, on the id's device.
     * @throws RdmaCmException EINVAL for no QP, a UD id, or an id destroyed or with no device yet.
     */
    public void attachQp(final RcQueuePair queuePair) throws RdmaCmException
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
        final RdmaPortBinding device = qpDevice();
        if (queuePair.state() == QpState.RESET)
        {
            // ucma_init_conn_qp: rdma_create_qp leaves the QP in INIT, so receives can be posted before connecting
            queuePair.init(device.port(), 0, RcQueuePair.QP_ACCESS_FLAGS);
        }
        qp.attach(queuePair);
        if (!CallerQpHandOver.handOver(cm, this, queuePair))
        {
            proxy.attachQp(this, queuePair);
        }
    }

    /**
     * {@code rdma_create_qp} for a UD id (RDMA_PS_UDP): the QP is set up at once as librdmacm's
     * {@code ucma_init_ud_qp} does, RESET -> INIT (the id's port, P_Key index 0, rdma_cm's Q_Key
     * {@code RDMA_UDP_QKEY} 0x01234567, which the kernel's {@code rdma_init_qp_attr} gives) -> RTR -> RTS
     * (send PSN 0). It must live on the id's device ({@link #binding()}). Its number is what
     * {@link #accept} answers a SIDR_REQ with. Done on this thread, as the RC one.
     *
     * @param queuePair a UD QP in RESET, on the id's device.
     * @throws RdmaCmException EINVAL for no QP, an RC id, or an id destroyed or with no device yet;
     *                         EOPNOTSUPP on an RDMA_PS_IPOIB id.
     */
    public void attachQp(final UdQueuePair queuePair) throws RdmaCmException
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
        final RdmaPortBinding device = qpDevice();
        if (queuePair.state() == QpState.RESET)
        {
            queuePair.activate(device.port(), 0, IdConnection.RDMA_UDP_QKEY);
        }
        proxy.attachQp(this, queuePair);
    }

    /**
     * {@code rdma_join_multicast_ex} on a UD id that is ADDR_BOUND or ADDR_RESOLVED, on InfiniBand: the group's
     * MGID as the kernel maps {@code group} (a wildcard asks the SA for a new one), the SA membership shared by
     * every id of the port. MULTICAST_JOIN follows with the UD parameters and {@code context} (the id's UD QP,
     * if attached, joined to the group unless send-only), or MULTICAST_ERROR with the kernel's status.
     * EINVAL for an id that is unbound, not UD or in another state, as the kernel returns it.
     *
     * @param group   the group's IP address, or a wildcard.
     * @param flag    the join state asked for.
     * @param context handed back in the group's events.
     * @throws RdmaCmException EINVAL, as above.
     */
    public void join(final InetAddress group, final MulticastJoinFlag flag, final Object context) throws RdmaCmException
    {
        if (group == null || flag == null)
        {
            throw new RdmaCmException("rdma_join_multicast", Errno.EINVAL, "no group address or join flag given", true);
        }
        await(proxy.joinMulticast(this, group, flag, context));
    }

    /**
     * {@code rdma_leave_multicast} of a group {@link #join} joined by {@code group}.
     *
     * @param group the group's IP address, as joined.
     * @throws RdmaCmException EADDRNOTAVAIL for a group this id did not join.
     */
    public void leave(final InetAddress group) throws RdmaCmException
    {
        if (group == null)
        {
            throw new RdmaCmException("rdma_leave_multicast", Errno.EINVAL, "no group address given", true);
        }
        await(proxy.leaveMulticast(this, group));
    }

    /**
     * The device a QP of this id is set up on, as the view shows it: {@code rdma_init_qp_attr} needs the
     * id's device, which a resolved or bound address or a connection request gives. A destroyed id has none.
     */
    private RdmaPortBinding qpDevice() throws RdmaCmException
    {
        final IdView now = view;
        if (destroyed)
        {
            throw new RdmaCmException("rdma_create_qp", Errno.EINVAL, this + " is destroyed", true);
        }
        if (now.binding() == null)
        {
            throw new RdmaCmException("rdma_create_qp", Errno.EINVAL, "id " + number + " is " + now.state()
                + ": it has no device until its address is resolved or bound", true);
        }
        return now.binding();
    }

    /** A UD id: RDMA_PS_UDP (and RDMA_PS_IPOIB), whose QP type is IBV_QPT_UD (librdmacm's {@code ucma_get_qp_type}). */
    boolean isUd()
    {
        return portSpace == PortSpace.UDP || portSpace == PortSpace.IPOIB;
    }

    /** {@return the RDMA device, port and GID the id is on: after ADDR_RESOLVED, a bind to a local address, or a connection request} */
    public RdmaPortBinding binding()
    {
        return view.binding();
    }

    /**
     * {@code rdma_connect} on an RC id after ROUTE_RESOLVED: the REQ goes to the route's destination, its
     * Service ID {@code (port space << 16) + destination port} and its private data rdma_cm's IP CM
     * header (version 0, the IP version, the source port, both addresses) followed by the parameters'.
     * ESTABLISHED, REJECTED, UNREACHABLE or CONNECT_ERROR follows. The REP arrives as CONNECT_RESPONSE, and the
     * thread that takes it from the channel moves the QP to RTR and RTS and has the RTU sent before it gets
     * ESTABLISHED (librdmacm's {@code ucma_process_conn_resp}); see {@link EventChannel#getEvent()}.
     * <p>
     * A synchronous RC id's call waits for that outcome and moves the QP on this thread, as librdmacm's
     * {@code ucma_complete} does: it returns on ESTABLISHED, and throws ECONNREFUSED on REJECTED, else the
     * error event's errno (ETIMEDOUT for UNREACHABLE, EPERM for CONNECT_ERROR's -1).
     *
     * @param parameters the REQ's private data, resources, retry counts and flow control.
     */
    public void connect(final ConnectionParameters parameters) throws RdmaCmException
    {
        parameters.requireRoomInRequest(isUd());
        if (channel != null || isUd())
        {
            CallerKernelCm.connect(cm, this, proxy, parameters);
            return;
        }
        final CompletableFuture<CmEvent> outcome = new CompletableFuture<>();
        synchronousConnect = outcome;
        try
        {
            CallerKernelCm.connect(cm, this, proxy, parameters);
            final CmEvent event = taken(await(outcome));
            if (event.status() != 0)
            {
                // ucma_complete: REJECTED is ECONNREFUSED, any other error its status's errno
                final int errno = event instanceof CmEvent.Rejected ? Errno.ECONNREFUSED : Math.abs(event.status());
                throw new RdmaCmException("rdma_connect", errno, event.type() + " status " + event.status(), true);
            }
        }
        finally
        {
            synchronousConnect = null;
        }
    }

    /**
     * From the conductor: an event of a synchronous id, which has no channel: the first one a waiting
     * {@link #connect} takes, the others go nowhere, as before.
     */
    void deliverSynchronous(final CmEvent event)
    {
        final CompletableFuture<CmEvent> outcome = synchronousConnect;
        if (outcome != null)
        {
            outcome.complete(event);
        }
    }

    /** From the CM thread, before it posts CONNECT_RESPONSE: what the thread that takes it needs to move the QP. */
    void connectResponse(final ConnectResponseMoves moves)
    {
        qp.connectResponse(moves);
    }

    /**
     * The event the application gets for {@code event}, taken off the channel (or by a synchronous call) on this
     * thread, which moves the QP as librdmacm's {@code rdma_get_cm_event} does ({@link IdQueuePair#taken}).
     */
    CmEvent taken(final CmEvent event)
    {
        return qp.taken(event, () -> CallerKernelCm.readyToUse(cm, this, proxy));
    }

    /** From the CM thread: the RTU of {@link #taken}'s CONNECT_RESPONSE went out; the conductor moves the id and replies. */
    void rtuSent(final CompletableFuture<Void> reply)
    {
        proxy.rtuSent(this, reply);
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
     * At most {@code backlog} requests wait with their CONNECT_REQUEST not taken; beyond, a REQ is dropped as the kernel
     * drops it (0, or above {@link RdmaCm.Options#maxBacklog()}: that; {@link ListenBacklog}).
     *
     * @param backlog how many requests may wait; 0 or above the maximum: the maximum.
     */
    public void listen(final int backlog) throws RdmaCmException
    {
        await(proxy.listen(this, backlog));
    }

    /**
     * {@code rdma_accept} on an id a CONNECT_REQUEST made: as librdmacm's, this thread moves the QP to RTR and RTS
     * with the attributes the CM gives ({@code rdma_init_qp_attr}), then the REP goes ({@code UCMA_CMD_ACCEPT});
     * ESTABLISHED follows. A move that fails throws its errno and sends nothing; a REP that cannot go moves the QP
     * to ERR and throws.
     *
     * @param parameters the REP's private data, resources and retry counts.
     */
    public void accept(final ConnectionParameters parameters) throws RdmaCmException
    {
        if (isUd())
        {
            requireSidrReplyData("rdma_accept", parameters.privateData());
            await(proxy.accept(this, parameters));
            return;
        }
        qp.accept(await(proxy.prepareAccept(this, parameters)), () -> await(proxy.accept(this, parameters)));
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
     *
     * @param privateData the REJ's or SIDR_REP's private data, or null.
     */
    public void reject(final byte[] privateData) throws RdmaCmException
    {
        if (isUd())
        {
            requireSidrReplyData("rdma_reject", privateData);
        }
        else if (privateData.length > ConnectionParameters.REJ_PRIVATE_DATA_LIMIT)
        {
            throw new RdmaCmException("rdma_reject", Errno.EINVAL, privateData.length + " bytes of private data: a REJ holds at most "
                + ConnectionParameters.REJ_PRIVATE_DATA_LIMIT, true);
        }
        await(proxy.reject(this, privateData.clone()));
    }

    /**
     * {@code rdma_disconnect}: as librdmacm's ({@code ucma_shutdown}), this thread moves the RC QP to ERR first,
     * and a move that fails throws its errno with no DREQ sent; then a DREQ, or the DREP when the peer's DREQ
     * came first; DISCONNECTED follows.
     */
    public void disconnect() throws RdmaCmException
    {
        qp.shutdown();
        CallerKernelCm.disconnect(cm, this, proxy);
    }

    /** From the CM thread: an event of the id's connection, with the state it leads to (or null). */
    void connectionEvent(final CmEvent event, final CmIdState next)
    {
        proxy.connectionEvent(this, event, next);
    }

    /** From the CM thread: cma_ib_req_handler's new id, on the listener's channel and port space. */
    RdmaCmId newChild()
    {
        return cm.createId(channel, portSpace);
    }

    /** From the CM thread: a request on this listener made {@code child}, addressed from the request's IP CM header. */
    void requested(final RdmaCmId child, final IdConnection connection, final IbCmPeerAddress from, final byte[] privateData)
    {
        proxy.connectionRequest(this, child, connection, from, privateData);
    }

    /** {@return the peer's address of an id a connection request made ({@code rdma_get_peer_addr}), or null} */
    public InetAddress peerAddress()
    {
        final IdView now = view;
        return now.peerAddress() != null ? now.peerAddress() : now.resolution() == null ? null : now.resolution().destination();
    }

    /**
     * {@code rdma_destroy_id}: cancels a pending resolution, drops the id's events still queued on the
     * channel (no event follows), and then, as librdmacm does, waits until every event of the id that
     * the application took has been acknowledged. So an event must be acked before its id is
     * destroyed, from another thread if need be; the wait refuses to run on the event loop.
     * <p>
     * The conductor's part (the connection closed, the port released, a resolution cancelled) is queued,
     * not waited for, or done here when it needs no conductor ({@link CallerDestroy}): from the moment this call starts, the channel hands out no event of the id and
     * takes none for it, so the events the conductor still makes for it before it runs the destroy go
     * nowhere, and a call this thread makes next runs after it. Only the first call destroys; a second
     * returns at once.
     */
    public void destroy()
    {
        if (!DESTROYED.compareAndSet(this, false, true))
        {
            return;
        }
        CallerDestroy.destroy(cm, this, proxy);
        if (channel != null)
        {
            // After the flag: an event posted or counted from now on is dropped by the channel itself.
            channel.discard(this);
            acknowledgements.awaitAll(cm);
        }
    }

    /** Whether {@link #destroy} was called: the channel neither takes nor hands out the id's events from then on. */
    boolean isDestroyed()
    {
        return destroyed;
    }

    @Override
    public void close()
    {
        destroy();
    }

    /** The channel handed one of this id's events to the application. */
    void retrieved()
    {
        acknowledgements.retrieved();
    }

    void acknowledge(final CmEvent event)
    {
        acknowledgements.acknowledged();
    }

    /** Waits for the conductor's reply, spinning first ({@link RdmaCm.Options#spin}). */
    private <T> T await(final CompletableFuture<T> future) throws RdmaCmException
    {
        return ConductorReply.await(future, cm.spinNanos());
    }

    @Override
    public String toString()
    {
        return "RdmaCmId#" + number;
    }
}
