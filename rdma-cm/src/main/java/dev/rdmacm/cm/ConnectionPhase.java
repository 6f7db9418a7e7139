package dev.rdmacm.cm;

import dev.rdmacm.ibcm.ConnectParameters;
import dev.rdmacm.ibcm.IbCmPeerAddress;
import dev.rdmacm.ibcm.SidrRequestParameters;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.resolver.engine.AddressResolver;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.UdQueuePair;
import org.agrona.concurrent.UnsafeBuffer;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * The connection calls on the conductor ({@code rdma_create_qp}'s hand-over, {@code rdma_connect},
 * {@code rdma_listen}, {@code rdma_accept}, {@code rdma_reject}, {@code rdma_disconnect}) and what the
 * CM engine reports back: the checks that need the id's state, the id's moves ROUTE_RESOLVED -> CONNECT,
 * ADDR_BOUND -> LISTEN, and the moves the connection's events make (ESTABLISHED, DISCONNECT). What goes to
 * the peer is the id's {@link CmConnection}'s: this stack's CM, whose engine runs on its port's CM thread
 * ({@link IdConnection}, {@link CmPort}) and whose events come back here as {@link IdCommand.ConnectionEvent}s,
 * or the kernel's ({@link KernelConnection}), whose events the conductor reads itself.
 */
final class ConnectionPhase
{
    private ConnectionPhase()
    {
    }

    /**
     * {@code rdma_create_qp} of an RC id, handed over: the caller checked the id's view and moved the QP
     * to INIT on its own thread ({@link RdmaCmId#attachQp(RcQueuePair)}); here it becomes the id's, and
     * its connection's when a request made one. An id destroyed in the meantime drops it: the QP stays the
     * application's, as librdmacm's stays on an id it frees.
     */
    static void attachQp(final IdContext c, final RcQueuePair queuePair)
    {
        if (c.state == CmIdState.DESTROYING)
        {
            return;
        }
        c.attachedQp = queuePair;
    }

    /** {@code rdma_create_qp} of a UD id, handed over after {@link RdmaCmId#attachQp(UdQueuePair)} set the QP up. */
    static void attachQp(final IdContext c, final UdQueuePair queuePair)
    {
        if (c.state != CmIdState.DESTROYING)
        {
            c.attachedUdQp = queuePair;
        }
    }

    /** {@code rdma_connect}: the REQ (RC) or the SIDR_REQ (UD) to the route's destination; CONNECT. */
    static void connect(final IdContext c, final ConnectionParameters parameters) throws RdmaCmException
    {
        c.requireNotDestroyed("rdma_connect");
        if (c.state != CmIdState.ROUTE_RESOLVED || c.route == null || c.route.paths().isEmpty())
        {
            throw new RdmaCmException("rdma_connect", Errno.EINVAL, "id " + c.id.number() + " is " + c.state
                + ": rdma_connect needs ROUTE_RESOLVED", true);
        }
        final boolean kernel = c.cm.managers().kernelConnects(List.of(c.binding()), "rdma_connect");
        if (c.isUd() && !kernel)
        {
            resolveUd(c, parameters);
            return;
        }
        if (c.attachedQp == null && !c.isUd())
        {
            throw new RdmaCmException("rdma_connect", Errno.EINVAL, "id " + c.id.number() + " has no QP (attachQp first)", true);
        }
        if (kernel)
        {
            final KernelConnection started = KernelConnection.connect(c, c.cm.managers().kernelCm("rdma_connect"), parameters);
            c.connection = started;
            c.transition(CmIdState.CONNECT, () -> "connect to " + c.resolution.destination().getHostAddress() + " port " +
                c.destinationPort + " through " + c.cm.managers().text() + " (kernel id " + started.handle() + ")");
            return;
        }
        final ConnectParameters request = IdConnection.request(c.portSpace.serviceId(c.destinationPort), c.route.primary().record(),
            c.resolution.source(), c.resolution.destination(), c.sourcePort, c.attachedQp.qpNumber(), parameters,
            c.cmResponseTimeout, c.maxCmRetries);
        final RdmaPortBinding device = c.binding();
        final IdConnection started = new IdConnection(c.id, c.cm.cmAgent(device), device);
        c.connection = started;
        c.transition(CmIdState.CONNECT, () -> "connect to " + c.resolution.destination().getHostAddress() + " port " +
            c.destinationPort);
        started.connect(request);
    }

    /** {@code cma_resolve_ib_udp}: a UD id's rdma_connect, a SIDR_REQ; the id stays in CONNECT whatever the answer. */
    private static void resolveUd(final IdContext c, final ConnectionParameters parameters) throws RdmaCmException
    {
        final byte[] consumer = parameters.privateData();
        final PathRecordValue path = c.route.primary().record();
        final SidrRequestParameters request = IdConnection.sidrRequest(c.portSpace.serviceId(c.destinationPort), path,
            c.resolution.source(), c.resolution.destination(), c.sourcePort, consumer, c.cmResponseTimeout, c.maxCmRetries);
        final RdmaPortBinding device = c.binding();
        final IdConnection started = new IdConnection(c.id, c.cm.cmAgent(device), device);
        c.connection = started;
        final long qkey = c.attachedUdQp == null ? 0 : IdConnection.RDMA_UDP_QKEY;
        c.transition(CmIdState.CONNECT, () -> "resolve UD QP of " + c.resolution.destination().getHostAddress() + " port "
            + c.destinationPort + " (SIDR)");
        started.resolveUd(request, path, qkey);
    }

    /** {@code rdma_listen}; see {@link RdmaCmId#listen}. */
    static void listen(final IdContext c, final int backlog) throws RdmaCmException
    {
        final List<IdConnection> listening = new ArrayList<>();
        c.requireNotDestroyed("rdma_listen");
        // ucma_listen sets the backlog before rdma_listen, which may still refuse (a second listen sets it again)
        c.id.backlog.listen(backlog, c.cm.options().maxBacklog());
        if (c.state == CmIdState.IDLE)
        {
            final InetAddress any = AddressResolver.IPV4_ANY;
            c.bindPort("rdma_listen", any, null);
            c.boundSource = any;
            c.transition(CmIdState.ADDR_BOUND, "bind to wildcard " + any.getHostAddress() + " port " + c.boundPort +
                " (rdma_listen)");
        }
        if (c.state != CmIdState.ADDR_BOUND)
        {
            throw new RdmaCmException("rdma_listen", Errno.EINVAL, "id " + c.id.number() + " is " + c.state
                + ": rdma_listen needs an IDLE or ADDR_BOUND id", true);
        }
        final List<RdmaPortBinding> portsListened = c.binding != null ? List.of(c.binding) : c.cm.options().gids().ports();
        if (c.cm.managers().kernelConnects(portsListened, "rdma_listen"))
        {
            final KernelConnection started = KernelConnection.listen(c, c.cm.managers().kernelCm("rdma_listen"), backlog);
            c.connection = started;
            c.transition(CmIdState.LISTEN, () -> "listen on " + (c.binding == null ? "every port" : c.binding.device()) + " port " +
                c.boundPort + " backlog " + backlog + " through " + c.cm.managers().text() + " (kernel id " +
                started.handle() + ")");
            return;
        }
        if (c.binding != null)
        {
            listening.add(new IdConnection(c.id, c.cm.cmAgent(c.binding, "rdma_listen"), c.binding));
            c.connection = listening.get(0);
            c.transition(CmIdState.LISTEN, "listen on " + c.binding.device() + " port " + c.boundPort + " backlog " + backlog);
        }
        else
        {
            final GidDirectory gids = c.cm.options().gids();
            final List<RdmaPortBinding> ports = gids.ports();
            final List<CmPort> agents = c.cm.cmAgents(ports, "rdma_listen");
            for (int i = 0; i < ports.size(); i++)
            {
                listening.add(new IdConnection(c.id, agents.get(i), ports.get(i), gids));
            }
            c.portListens = List.copyOf(listening);
            c.transition(CmIdState.LISTEN, "listen on every port (" + ports.stream().map(b -> b.device() + "/" + b.port())
                .collect(Collectors.joining(", ")) + ") port " + c.boundPort + " backlog " + backlog);
        }
        final long serviceId = c.portSpace.serviceId(c.boundPort);
        listening.forEach(port -> port.listen(serviceId));
    }

    /**
     * {@code rdma_accept}'s first part on an RC id, {@code rdma_init_qp_attr}: the QP's attributes for RTR and RTS
     * if accepted with {@code parameters}, which its caller moves the QP with before {@link #accept}.
     */
    static void prepareAccept(final IdContext c, final ConnectionParameters parameters,
        final CompletableFuture<ConnectResponseMoves> reply) throws RdmaCmException
    {
        requireRequest(c);
        c.connection.prepareAccept(parameters, c.attachedQp.qpNumber(), reply);
    }

    /**
     * {@code rdma_accept}: the REP, its caller having moved the QP (RC), or SIDR_REP status 0 (UD). {@code reply}
     * completes once the REP is out (RC), or at once (UD).
     */
    static void accept(final IdContext c, final ConnectionParameters parameters, final CompletableFuture<Void> reply)
        throws RdmaCmException
    {
        c.requireNotDestroyed("rdma_accept");
        if (c.isUd())
        {
            if (c.state != CmIdState.CONNECT || c.connection == null || c.attachedUdQp == null)
            {
                throw new RdmaCmException("rdma_accept", Errno.EINVAL, "id " + c.id.number() + " is " + c.state
                    + (c.attachedUdQp == null ? " without a UD QP" : "") + ": rdma_accept needs a SIDR request's id with a UD QP", true);
            }
            c.connection.accept(parameters, c.attachedUdQp.qpNumber(), reply);
            return;
        }
        requireRequest(c);
        c.connection.accept(parameters, c.attachedQp.qpNumber(), reply);
    }

    private static void requireRequest(final IdContext c) throws RdmaCmException
    {
        c.requireNotDestroyed("rdma_accept");
        if (c.isUd() || c.state != CmIdState.CONNECT || c.connection == null || c.attachedQp == null)
        {
            throw new RdmaCmException("rdma_accept", Errno.EINVAL, "id " + c.id.number() + " is " + c.state
                + (c.attachedQp == null ? " without a QP" : "") + ": rdma_accept needs a connection request's id with a QP", true);
        }
    }

    /**
     * The active side's {@code UCMA_CMD_ACCEPT} after CONNECT_RESPONSE ({@code cma_rep_recv}): the RTU. The id must
     * still be connecting (a REJ or a timeout since leaves EINVAL, as the kernel's ACCEPT returns it).
     */
    static void readyToUse(final IdContext c, final CompletableFuture<Void> reply) throws RdmaCmException
    {
        c.requireNotDestroyed("rdma_connect");
        if (c.state != CmIdState.CONNECT || c.connection == null)
        {
            throw new RdmaCmException("rdma_connect", Errno.EINVAL, "id " + c.id.number() + " is " + c.state
                + ": the RTU needs a connecting id", true);
        }
        c.connection.sendRtu(reply);
    }

    /** The RTU of {@link #readyToUse} is out: ESTABLISHED (no event: its taker hands out ESTABLISHED itself). */
    static void rtuSent(final IdContext c, final CompletableFuture<Void> reply)
    {
        if (c.state == CmIdState.CONNECT)
        {
            c.transition(CmIdState.ESTABLISHED, "RTU sent");
        }
        reply.complete(null);
    }

    /** {@code rdma_reject}: a REJ, consumer defined; on a UD request's id a SIDR_REP with status 2. */
    static void reject(final IdContext c, final byte[] privateData) throws RdmaCmException
    {
        c.requireNotDestroyed("rdma_reject");
        if (c.state != CmIdState.CONNECT || c.connection == null)
        {
            throw new RdmaCmException("rdma_reject", Errno.EINVAL, "id " + c.id.number() + " is " + c.state
                + ": rdma_reject needs a connection request's id", true);
        }
        c.connection.reject(privateData);
    }

    /** {@code rdma_disconnect}: a DREQ, or the DREP when the peer's DREQ came first. */
    static void disconnect(final IdContext c) throws RdmaCmException
    {
        c.requireNotDestroyed("rdma_disconnect");
        if (c.isUd())
        {
            throw new RdmaCmException("rdma_disconnect", Errno.EINVAL, "id " + c.id.number() + " is a UD id (RDMA_PS_" +
                c.portSpace + "): it has no connection to end; destroy it", true);
        }
        if (c.connection == null)
        {
            throw new RdmaCmException("rdma_disconnect", Errno.EINVAL, "id " + c.id.number() + " is " + c.state +
                ": not connected", true);
        }
        if (c.state == CmIdState.ESTABLISHED || c.state == CmIdState.CONNECT)
        {
            c.transition(CmIdState.DISCONNECT, "disconnect");
        }
        c.connection.disconnect();
    }

    /** An event of the id's connection, with the state it leads to (or null). */
    static void onEvent(final IdContext c, final CmEvent event, final CmIdState next)
    {
        if (c.state == CmIdState.DESTROYING)
        {
            return;
        }
        if (next != null && next != c.state)
        {
            c.transition(next, event.type().name());
        }
        c.deliver(event);
    }

    /**
     * cma_ib_req_handler's new id, {@code child}: on the listener's channel and port space, addressed from
     * the request's IP CM header, driven by {@code connection}; CONNECT.
     */
    static void onRequest(final IdContext listener, final IdContext child, final IdConnection connection,
        final IbCmPeerAddress from, final byte[] privateData)
    {
        final IpCmPrivateDataHeader header = new IpCmPrivateDataHeader();
        if (privateData.length >= IpCmPrivateDataHeader.LENGTH)
        {
            header.wrap(new UnsafeBuffer(privateData), 0, privateData.length);
            child.destinationPort = header.sourcePort();
            child.sourcePort = listener.boundPort;
            child.peerAddress = header.sourceAddress();
            child.boundSource = header.destinationAddress();
        }
        child.connection = connection;
        child.transition(CmIdState.CONNECT, () -> (listener.isUd() ? "SIDR request from " : "connection request from ") +
            from.gid());
    }
}
