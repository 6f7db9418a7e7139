package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.Ipv6Sockaddr;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.RoutePath;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.ucma.KernelQpAttributes;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.ucma.UcmaException;
import dev.rdmacm.ucma.abi.QueryAddrResponse;
import dev.rdmacm.ucma.abi.QueryPathResponse;
import dev.rdmacm.ucma.abi.UcmaConstants;

import java.lang.reflect.RecordComponent;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One id's connection through the kernel's RDMA CM ({@link ConnectionManager#KERNEL}): its kernel id, made at
 * {@code rdma_connect} or {@code rdma_listen} (or by a CONNECT_REQUEST), and the events that come for it,
 * turned into the {@link CmEvent}s the userspace CM gives ({@link IdConnection}), on the conductor's thread.
 * <p>
 * The resolution stays this stack's: the id is ROUTE_RESOLVED by our resolver before {@code rdma_connect}.
 * The kernel id is then resolved to the same place (on InfiniBand an AF_IB RESOLVE_ADDR with our GIDs, so the
 * kernel does no IP lookup, as librdmacm's ACM path does; on RoCE the kernel resolves the IP itself) and handed
 * our route with {@code RDMA_OPTION_IB_PATH}; what the kernel then holds (QUERY ADDR, QUERY PATH) is compared
 * with ours field by field, each difference a {@link dev.rdmacm.cm.diagnostics.KernelDifference} and a line of
 * the id's trace. A kernel that refuses our path resolves its own route (RESOLVE_ROUTE), and that too is a
 * difference, never a silent choice.
 * <pre>
 *   state               event                 next                  what goes to the kernel
 *   (rdma_connect)                            RESOLVING_ADDRESS     CREATE_ID, RESOLVE_ADDR
 *   RESOLVING_ADDRESS   ADDR_RESOLVED         RESOLVING_ROUTE       QUERY ADDR/GID, SET_OPTION IB_PATH
 *   RESOLVING_ROUTE     ROUTE_RESOLVED        CONNECTING            QUERY PATH, CONNECT
 *   CONNECTING          CONNECT_RESPONSE      (the taker moves the QP with INIT_QP_ATTR, then ACCEPT, the RTU,
 *                                             on its own thread: CallerKernelCm)
 *   (rdma_listen)                             LISTENING             CREATE_ID, BIND, LISTEN
 *   LISTENING           CONNECT_REQUEST       a new id, REQUESTED   QUERY ADDR/GID of the new kernel id
 *   REQUESTED           (rdma_accept)         ACCEPTED              INIT_QP_ATTR (the caller's moves), ACCEPT
 * </pre>
 */
final class KernelConnection implements CmConnection
{
    /** The kernel's resolve timeouts: our own resolution already answered, this only finds the same answer. */
    private static final int RESOLVE_TIMEOUT_MS = 2000;

    enum State
    {
        RESOLVING_ADDRESS, RESOLVING_ROUTE, CONNECTING, LISTENING, REQUESTED, ACCEPTED, CLOSED
    }

    private final KernelCm kernel;
    private final IdContext c;
    private final int handle;
    private final boolean listener;
    private final RdmaPortBinding binding;
    private State state;
    private ConnectionParameters parameters;
    /** DESTROY_ID sent: a connection that failed (CLOSED) still holds its kernel id until then. */
    private boolean destroyed;

    private KernelConnection(final KernelCm kernel, final IdContext c, final int handle, final RdmaPortBinding binding,
        final boolean listener, final State state)
    {
        this.kernel = kernel;
        this.c = c;
        this.handle = handle;
        this.binding = binding;
        this.listener = listener;
        this.state = state;
        kernel.register(handle, this);
    }

    /** The RDMA device, port and GID entry of the id (null for a listener on a wildcard address). */
    @Override
    public RdmaPortBinding binding()
    {
        return binding;
    }

    State state()
    {
        return state;
    }

    /** A UD id's connection (RDMA_PS_UDP: SIDR), whose events carry {@code param.ud}. */
    boolean isUd()
    {
        return c.isUd();
    }

    /** The kernel's id, as a trace names it. */
    int handle()
    {
        return handle;
    }

    // ---- the calls, on the conductor (rdma_connect, the RTU and rdma_disconnect also on a caller's thread, under the id's IdGuard) ----

    /**
     * {@code rdma_connect} of a ROUTE_RESOLVED RC id: a kernel id resolved to our destination, and our route
     * handed to it; CONNECT follows once the kernel says it holds the route. On the conductor or the caller's thread
     * ({@link CallerKernelCm}).
     */
    static KernelConnection connect(final IdContext c, final KernelCm kernel, final ConnectionParameters parameters)
        throws RdmaCmException
    {
        final RdmaPortBinding device = c.binding();
        final int handle = createId(c, kernel, "rdma_connect");
        // registered before RESOLVE_ADDR: on a caller's thread (CallerKernelCm) the conductor may read its event at once
        final KernelConnection connection = new KernelConnection(kernel, c, handle, device, false, State.RESOLVING_ADDRESS);
        connection.parameters = parameters;
        try
        {
            final RdmaSockaddr source;
            final RdmaSockaddr destination;
            if (device.netdev() == null)
            {
                final PathRecordValue path = c.route.primary().record();
                source = new IbSockaddr(path.pKey(), 0, path.sgid(), 0, 0, 0);
                destination = new IbSockaddr(path.pKey(), 0, path.dgid(), c.portSpace.serviceId(c.destinationPort), -1L, 0);
            }
            else
            {
                // a link-local address without its scope is EINVAL to the kernel's BIND: the netdev we resolved it on
                source = sockaddr(c.resolution.source(), 0, c.resolution.ifindex());
                destination = sockaddr(c.resolution.destination(), c.destinationPort, c.resolution.ifindex());
            }
            kernel.command(channel ->
            {
                setIdOptions(c, channel, handle);
                channel.resolveAddr(handle, source, destination, RESOLVE_TIMEOUT_MS);
            });
        }
        catch (final UcmaException ex)
        {
            connection.close();
            throw KernelCm.refused("rdma_connect", ex);
        }
        return connection;
    }

    /** {@code rdma_listen} of an ADDR_BOUND RC id: a kernel id bound to the id's address and port, listening. */
    static KernelConnection listen(final IdContext c, final KernelCm kernel, final int backlog) throws RdmaCmException
    {
        final int handle = createId(c, kernel, "rdma_listen");
        try
        {
            final RdmaSockaddr address = c.ibSource != null ? c.ibSource : sockaddr(c.boundSource, c.boundPort, c.boundIfindex);
            kernel.command(channel ->
            {
                setIdOptions(c, channel, handle);
                channel.bind(handle, address);
                channel.listen(handle, backlog);
            });
        }
        catch (final UcmaException ex)
        {
            kernel.destroyQuietly(handle);
            throw KernelCm.refused("rdma_listen", ex);
        }
        final KernelConnection connection = new KernelConnection(kernel, c, handle, c.binding, true, State.LISTENING);
        kernel.listening(c.id.number(), connection);
        return connection;
    }

    private static int createId(final IdContext c, final KernelCm kernel, final String call) throws RdmaCmException
    {
        try
        {
            return kernel.answer(channel -> channel.createId(c.id.number(), c.portSpace.code(),
                c.isUd() ? UcmaConstants.IB_QPT_UD : UcmaConstants.IB_QPT_RC));
        }
        catch (final UcmaException ex)
        {
            throw KernelCm.refused(call, ex);
        }
    }

    /**
     * The id's options the kernel applies itself, as rdma_set_option set them: its type of service and ACK timeout,
     * and REUSEADDR and AFONLY, which the kernel's BIND of this id checks against every other kernel id on the port
     * (ours bound the port only among our ids). AFONLY goes only when set: unset, the kernel takes the default from
     * the family and {@code net.ipv6.bindv6only}, as ours does. Sent while the kernel id is IDLE, the one state in
     * which the kernel takes REUSEADDR.
     */
    private static void setIdOptions(final IdContext c, final UcmaChannel channel, final int handle)
    {
        if (c.reuseAddr)
        {
            channel.setOption(handle, UcmaConstants.RDMA_OPTION_ID, UcmaConstants.RDMA_OPTION_ID_REUSEADDR, intOption(1));
        }
        if (c.afOnly != null)
        {
            channel.setOption(handle, UcmaConstants.RDMA_OPTION_ID, UcmaConstants.RDMA_OPTION_ID_AFONLY,
                intOption(c.afOnly ? 1 : 0));
        }
        if (c.tos != null)
        {
            channel.setOption(handle, UcmaConstants.RDMA_OPTION_ID, UcmaConstants.RDMA_OPTION_ID_TOS,
                new byte[] {(byte)(int)c.tos});
        }
        if (c.ackTimeout != null)
        {
            channel.setOption(handle, UcmaConstants.RDMA_OPTION_ID, UcmaConstants.RDMA_OPTION_ID_ACK_TIMEOUT,
                new byte[] {(byte)(int)c.ackTimeout});
        }
    }

    /** An {@code int} option's value as the kernel reads it ({@code optlen == sizeof(int)}, host order). */
    private static byte[] intOption(final int value)
    {
        final byte[] bytes = new byte[Integer.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).putInt(value);
        return bytes;
    }

    /** {@code rdma_accept}'s first part: what the caller moves the QP with (INIT_QP_ATTR, asked on its thread). */
    @Override
    public void prepareAccept(final ConnectionParameters accepted, final int qpNumber,
        final CompletableFuture<ConnectResponseMoves> reply) throws RdmaCmException
    {
        requireState("rdma_accept", State.REQUESTED);
        reply.complete(new KernelQpMoves(kernel, handle, accepted.responderResources(), accepted.initiatorDepth(), new byte[0]));
    }

    /**
     * {@code rdma_accept}: ACCEPT with the QP's number and the REP's parameters (a UD id's: the SIDR_REP's, the
     * kernel adding the id's Q_Key), the id's number as its uid from now on; {@code reply} completes once the kernel
     * took it.
     */
    @Override
    public void accept(final ConnectionParameters accepted, final int qpNumber, final CompletableFuture<Void> reply)
        throws RdmaCmException
    {
        requireState("rdma_accept", State.REQUESTED);
        try
        {
            kernel.command(channel -> channel.accept(handle, a -> a.uid(c.id.number()).connParam().qpNum(qpNumber)
                .responderResources(accepted.responderResources()).initiatorDepth(accepted.initiatorDepth())
                .flowControl(accepted.flowControl() ? 1 : 0).rnrRetryCount(Math.min(7, accepted.rnrRetryCount()))
                .privateData(accepted.privateData()).valid(1)));
        }
        catch (final UcmaException ex)
        {
            throw KernelCm.refused("rdma_accept", ex);
        }
        state = State.ACCEPTED;
        reply.complete(null);
    }

    /**
     * The active side's ACCEPT without parameters ({@code cma_rep_recv}): the RTU, after the taker moved the QP;
     * ESTABLISHED once the kernel took it. On the taker's thread ({@link CallerKernelCm}) or the conductor's, under the
     * id's {@link IdGuard} either way.
     */
    @Override
    public void sendRtu(final CompletableFuture<Void> reply) throws RdmaCmException
    {
        try
        {
            kernel.command(channel -> channel.accept(handle, a -> a.connParam().valid(0)));
        }
        catch (final UcmaException ex)
        {
            throw KernelCm.refused("rdma_connect", ex);
        }
        ConnectionPhase.rtuSent(c, reply);
    }

    /** {@code rdma_reject}: REJECT, consumer defined. */
    @Override
    public void reject(final byte[] privateData) throws RdmaCmException
    {
        try
        {
            kernel.command(channel -> channel.reject(handle, 0, privateData));
        }
        catch (final UcmaException ex)
        {
            throw KernelCm.refused("rdma_reject", ex);
        }
    }

    /** {@code rdma_disconnect}: DISCONNECT (a DREQ, or the DREP to the peer's). */
    @Override
    public void disconnect() throws RdmaCmException
    {
        try
        {
            kernel.command(channel -> channel.disconnect(handle));
        }
        catch (final UcmaException ex)
        {
            throw KernelCm.refused("rdma_disconnect", ex);
        }
    }

    /** {@code rdma_destroy_id}: DESTROY_ID (the kernel sends the REJ, DREQ or DREP the state asks for). */
    @Override
    public void close()
    {
        if (destroyed)
        {
            return;
        }
        destroyed = true;
        state = State.CLOSED;
        kernel.forget(handle, listener ? c.id.number() : 0);
        kernel.destroyQuietly(handle);
    }

    private void requireState(final String call, final State expected) throws RdmaCmException
    {
        if (state != expected)
        {
            throw new RdmaCmException(call, Errno.EINVAL, "id " + c.id.number() + "'s kernel id " + handle + " is " + state +
                ", not " + expected, true);
        }
    }

    // ---- the kernel's events, on the conductor ----

    /**
     * The id's {@link IdGuard}, which the conductor holds while it takes one of the kernel's events for the id,
     * as for any work no command brings: a caller may be finishing a resolution of the same id on its own thread.
     */
    IdGuard guard()
    {
        return c.id.guard;
    }

    void onEvent(final KernelEvent event)
    {
        final RdmaCmId id = c.id;
        switch (event.type())
        {
            case ADDR_RESOLVED -> addressResolved();
            case ROUTE_RESOLVED -> routeResolved();
            case ADDR_ERROR, ROUTE_ERROR -> failed(event.type() + " status " + event.status(), event.status());
            case CONNECT_RESPONSE ->
            {
                final ConnectionParameters asked = parameters;
                id.connectResponse(new KernelQpMoves(kernel, handle, asked.responderResources(), asked.initiatorDepth(),
                    event.privateData()));
                ConnectionPhase.onEvent(c, new CmEvent.ConnectResponse(id), null);
            }
            // a UD id's (SIDR_REP status 0) stays in CONNECT, as cma_sidr_rep_handler leaves it
            case ESTABLISHED -> ConnectionPhase.onEvent(c, event.ud().isPresent()
                ? new CmEvent.Established(id, event.privateData(), event.ud())
                : new CmEvent.Established(id, event.privateData()), event.ud().isPresent() ? null : CmIdState.ESTABLISHED);
            case REJECTED -> ConnectionPhase.onEvent(c, new CmEvent.Rejected(id, event.status(), event.privateData()), null);
            case UNREACHABLE -> ConnectionPhase.onEvent(c, new CmEvent.Unreachable(id, event.status()), null);
            case CONNECT_ERROR -> ConnectionPhase.onEvent(c, new CmEvent.ConnectError(id, event.status()), null);
            case DISCONNECTED -> ConnectionPhase.onEvent(c, new CmEvent.Disconnected(id, event.status()), CmIdState.DISCONNECT);
            case TIMEWAIT_EXIT -> ConnectionPhase.onEvent(c, new CmEvent.TimewaitExit(id), null);
            case ADDR_CHANGE -> ConnectionPhase.onEvent(c, new CmEvent.AddrChange(id), null);
            case DEVICE_REMOVAL ->
            {
                // the uevent watch may have posted it first (IdConductor.deviceRemoved): once per id
                if (c.state != CmIdState.DEVICE_REMOVAL && c.state != CmIdState.DESTROYING)
                {
                    ConnectionPhase.onEvent(c, new CmEvent.DeviceRemoval(id), CmIdState.DEVICE_REMOVAL);
                }
            }
            default ->
            {
                // multicast and addrinfo events belong to calls that do not go to the kernel
            }
        }
    }

    /** ADDR_RESOLVED: the kernel's address answer beside ours, then our route handed over. */
    private void addressResolved()
    {
        if (state != State.RESOLVING_ADDRESS)
        {
            return;
        }
        final KernelAddress kernels;
        try
        {
            kernels = KernelAddress.query(kernel, handle);
        }
        catch (final UcmaException ex)
        {
            failed("QUERY after ADDR_RESOLVED: " + ex.getMessage(), -ex.errno());
            return;
        }
        final String device = kernel.deviceOf(kernels.nodeGuid());
        // values compared, text made only for a difference or a listener: this runs once per connection on the conductor
        compare("device", binding.device(), device);
        compare("port", binding.port(), kernels.port());
        compare("sgid", binding.gid(), kernels.sgid());
        compare("dgid", c.route.primary().record().dgid(), kernels.dgid());
        if (binding.netdev() != null)
        {
            compare("source address", c.resolution.source(), kernels.source());
            compare("destination address", c.resolution.destination(), kernels.destination());
        }
        c.transition(c.state, () -> "kernel CM id " + handle + " ADDR_RESOLVED: the kernel's " + device + '/' + kernels.port() + ' '
            + KernelCm.text(kernels.source()) + " -> " + KernelCm.text(kernels.destination()) + " sgid " + kernels.sgid() + " dgid "
            + kernels.dgid() + "; ours " + binding.device() + '/' + binding.port() + ' ' + c.resolution.source().getHostAddress()
            + " -> " + c.resolution.destination().getHostAddress() + " sgid " + binding.gid());
        state = State.RESOLVING_ROUTE;
        final byte[] path = c.route.primary().toPathData();
        ByteBuffer.wrap(path).order(ByteOrder.nativeOrder()).putInt(0, RoutePath.PATH_DATA_FLAGS);
        try
        {
            kernel.command(channel -> channel.setOption(handle, UcmaConstants.RDMA_OPTION_IB, UcmaConstants.RDMA_OPTION_IB_PATH, path));
        }
        catch (final UcmaException refused)
        {
            // said, not chosen silently: the kernel's own route is used, and the difference is reported
            kernel.difference(c.id, "route", "ours set with RDMA_OPTION_IB_PATH", "refused (" + Errno.name(refused.errno()) +
                "): the kernel resolves its own route");
            try
            {
                kernel.command(channel -> channel.resolveRoute(handle, RESOLVE_TIMEOUT_MS));
            }
            catch (final UcmaException ex)
            {
                failed("RESOLVE_ROUTE: " + ex.getMessage(), -ex.errno());
            }
        }
    }

    /** ROUTE_RESOLVED: the kernel's path beside ours, field by field, then CONNECT. */
    private void routeResolved()
    {
        if (state != State.RESOLVING_ROUTE)
        {
            return;
        }
        final PathRecordValue ours = c.route.primary().record();
        final PathRecordValue kernels;
        try
        {
            kernels = kernel.answer(channel ->
            {
                final QueryPathResponse paths = channel.queryPath(handle);
                if (paths.numPaths() == 0)
                {
                    return null;
                }
                final IbvPathData first = paths.path(0, new IbvPathData());
                return RoutePath.decode(first.buffer(), first.offset()).record();
            });
        }
        catch (final UcmaException ex)
        {
            failed("QUERY PATH after ROUTE_RESOLVED: " + ex.getMessage(), -ex.errno());
            return;
        }
        if (kernels == null)
        {
            failed("QUERY PATH after ROUTE_RESOLVED: no path", -Errno.EINVAL);
            return;
        }
        if (!ours.equals(kernels))
        {
            // field by field only when they differ: equal records have equal fields
            for (final RecordComponent field : PathRecordValue.class.getRecordComponents())
            {
                compare("path." + field.getName(), value(field, ours), value(field, kernels));
            }
        }
        c.transition(c.state, () -> "kernel CM id " + handle + " ROUTE_RESOLVED: the kernel's path " + kernels + "; ours " + ours);
        final ConnectionParameters asked = parameters;
        final int qpNumber = c.isUd() ? (c.attachedUdQp == null ? 0 : c.attachedUdQp.qpNumber()) : c.attachedQp.qpNumber();
        final byte[] data = binding.netdev() == null && c.resolution != null && c.ibDestination == null ?
            IpCmPrivateDataHeader.privateData(c.resolution.source(), c.resolution.destination(), c.sourcePort, asked.privateData()) :
            asked.privateData();
        try
        {
            kernel.command(channel -> channel.connect(handle, command -> command.connParam().qpNum(qpNumber)
                .responderResources(asked.responderResources()).initiatorDepth(asked.initiatorDepth())
                .flowControl(asked.flowControl() ? 1 : 0).retryCount(Math.min(7, asked.retryCount()))
                .rnrRetryCount(Math.min(7, asked.rnrRetryCount())).privateData(data).valid(1)));
        }
        catch (final UcmaException ex)
        {
            failed("CONNECT: " + ex.getMessage(), -ex.errno());
            return;
        }
        state = State.CONNECTING;
    }

    /** The kernel failed what our resolution had answered: the connection ends with CONNECT_ERROR, and the trace says why. */
    private void failed(final String why, final int status)
    {
        state = State.CLOSED;
        kernel.difference(c.id, "connection", "resolved", why);
        c.transition(c.state, () -> "kernel CM id " + handle + ": " + why);
        ConnectionPhase.onEvent(c, new CmEvent.ConnectError(c.id, status < 0 ? status : -Errno.EINVAL), null);
    }

    /**
     * CONNECT_REQUEST on this listener ({@code ucma_connect_event_handler}): a new id on the listener's channel
     * and port space, addressed from the kernel's answer for the new kernel id, CONNECT; or, with the listener's
     * backlog full, the kernel id destroyed (the kernel rejects the REQ), as the userspace CM drops it.
     */
    void onRequest(final KernelEvent event)
    {
        final int child = event.handle();
        if (state != State.LISTENING || !c.id.backlog.tryTake())
        {
            kernel.destroyQuietly(child);
            return;
        }
        final KernelAddress kernels;
        try
        {
            kernels = KernelAddress.query(kernel, child);
        }
        catch (final UcmaException ex)
        {
            c.id.backlog.giveBack();
            kernel.destroyQuietly(child);
            kernel.difference(c.id, "connection request", "a new id", "QUERY of kernel id " + child + ": " + ex.getMessage());
            return;
        }
        final RdmaSockaddr destination = kernels.destination();
        final RdmaPortBinding arrival = kernel.binding(kernel.deviceOf(kernels.nodeGuid()), kernels.port(), kernels.sgid());
        final RdmaCmId newId = c.id.newChild();
        final IdContext n = kernel.context(newId);
        final KernelConnection connection = new KernelConnection(kernel, n, child, arrival, false, State.REQUESTED);
        n.connection = connection;
        n.binding = arrival;
        n.boundSource = inetOf(kernels.source());
        n.sourcePort = c.boundPort;
        n.peerAddress = inetOf(destination);
        n.destinationPort = portOf(destination);
        n.transition(CmIdState.CONNECT, () -> "connection request from " + KernelCm.text(destination) + " through the kernel's CM (id "
            + child + ", " + (arrival == null ? "no device" : arrival.device() + "/" + arrival.port()) + ")");
        final ConnectionParameters asked = new ConnectionParameters(event.privateData(), event.responderResources(),
            event.initiatorDepth(), event.flowControl() != 0, event.retryCount(), event.rnrRetryCount());
        // a SIDR_REQ's carries no connection parameters, as the userspace CM's
        c.deliver(c.isUd() ? new CmEvent.ConnectRequest(newId, c.id, event.privateData())
            : new CmEvent.ConnectRequest(newId, c.id, event.privateData(), asked));
    }

    /** What the kernel holds for one of its ids: QUERY ADDR's answer and QUERY GID's, read under the channel's lock. */
    private record KernelAddress(long nodeGuid, int port, RdmaSockaddr source, RdmaSockaddr destination, Gid sgid, Gid dgid)
    {
        static KernelAddress query(final KernelCm kernel, final int handle)
        {
            return kernel.answer(channel ->
            {
                final QueryAddrResponse addr = channel.queryAddr(handle);
                final long nodeGuid = addr.nodeGuid();
                final int port = addr.portNum();
                final RdmaSockaddr source = addr.source();
                final RdmaSockaddr destination = addr.destination();
                final QueryAddrResponse gids = channel.queryGid(handle);
                return new KernelAddress(nodeGuid, port, source, destination, gids.sourceGid(), gids.destinationGid());
            });
        }
    }

    private void compare(final String field, final Object ours, final Object kernels)
    {
        if (!Objects.equals(ours, kernels))
        {
            kernel.difference(c.id, field, String.valueOf(ours), String.valueOf(kernels));
        }
    }

    /**
     * An IP address of ours against the kernel's, as their text compares them, without the IPv6 zone, which the kernel
     * gives as a number and ours as a name (the zone is ours: the kernel got it from us); no text for an equal IPv4 one.
     */
    private void compare(final String field, final InetAddress ours, final RdmaSockaddr kernels)
    {
        final InetAddress theirs = inetOf(kernels);
        if (ours instanceof Inet4Address && ours.equals(theirs))
        {
            return;
        }
        final String text = theirs == null ? KernelCm.text(kernels) : theirs.getHostAddress();
        if (!hostOf(ours).equals(text))
        {
            kernel.difference(c.id, field, ours.getHostAddress(), text);
        }
    }

    /** The address as text without its IPv6 zone ({@code %k0}). */
    private static String hostOf(final InetAddress address)
    {
        try
        {
            return InetAddress.getByAddress(address.getAddress()).getHostAddress();
        }
        catch (final UnknownHostException ex)
        {
            return address.getHostAddress();
        }
    }

    private static String value(final RecordComponent field, final PathRecordValue path)
    {
        try
        {
            return String.valueOf(field.getAccessor().invoke(path));
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new IllegalStateException("PathRecordValue." + field.getName() + ": " + ex, ex);
        }
    }

    /** The address as the kernel's sockaddr, an IPv6 one with the scope it carries. */
    static RdmaSockaddr sockaddr(final InetAddress address, final int port)
    {
        return sockaddr(address, port, 0);
    }

    /**
     * The address as the kernel's sockaddr; an IPv6 link-local one without a scope takes {@code ifindex}, the netdev
     * our resolution or bind found it on (the kernel refuses a link-local address without its scope).
     */
    static RdmaSockaddr sockaddr(final InetAddress address, final int port, final int ifindex)
    {
        if (address instanceof Inet4Address)
        {
            return new Ipv4Sockaddr(ByteBuffer.wrap(address.getAddress()).getInt(), port);
        }
        final java.net.Inet6Address v6 = (java.net.Inet6Address)address;
        final long scope = v6.getScopeId() != 0 || !v6.isLinkLocalAddress() ? v6.getScopeId() : ifindex;
        return new Ipv6Sockaddr(address.getAddress(), port, 0, scope);
    }

    private static InetAddress inetOf(final RdmaSockaddr address)
    {
        try
        {
            return switch (address)
            {
                case Ipv4Sockaddr v4 -> InetAddress.getByAddress(v4.addressBytes());
                case Ipv6Sockaddr v6 -> InetAddress.getByAddress(v6.address());
                default -> null;
            };
        }
        catch (final UnknownHostException ex)
        {
            return null;
        }
    }

    private static int portOf(final RdmaSockaddr address)
    {
        return switch (address)
        {
            case Ipv4Sockaddr v4 -> v4.port();
            case Ipv6Sockaddr v6 -> v6.port();
            case IbSockaddr ib -> ib.port();
            default -> 0;
        };
    }

    @Override
    public String toString()
    {
        return "kernel CM id " + handle + " of " + c.id + " (" + state + ")";
    }
}
