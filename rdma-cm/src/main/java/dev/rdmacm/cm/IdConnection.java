package dev.rdmacm.cm;

import dev.rdmacm.ibcm.AcceptParameters;
import dev.rdmacm.ibcm.ConnectParameters;
import dev.rdmacm.ibcm.IbCmConnection;
import dev.rdmacm.ibcm.IbCmEvent;
import dev.rdmacm.ibcm.IbCmEventHandler;
import dev.rdmacm.ibcm.IbCmPath;
import dev.rdmacm.ibcm.IbCmPeerAddress;
import dev.rdmacm.ibcm.QpTransitions;
import dev.rdmacm.ibcm.SidrRequestParameters;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.ErrnoException;
import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.cm.RejectReason;
import dev.rdmacm.protocol.cm.SidrStatus;
import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.resolver.spi.GidDirectory;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.resolver.ResolutionTrace;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.verbs.AddressVector;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CM connection of one {@link RdmaCmId}: what rdma_cm's {@code cma_ib_handler} and
 * {@code cma_ib_req_handler} do between ib_cm's events and the id's: it turns each ib_cm event into the
 * {@code RDMA_CM_EVENT_*} the kernel would post (librdmacm's reading of CONNECT_RESPONSE in the last column):
 * <pre>
 *   ib_cm event                      RDMA CM event            status
 *   REP received (MRA, delayed)      CONNECT_RESPONSE         the QP moved to RTS and the RTU sent by the taker:
 *                                                             ESTABLISHED 0 with the REP's private data, or
 *                                                             CONNECT_ERROR -1 (librdmacm's rdma_seterrno)
 *   RTU received / first receive     ESTABLISHED              0
 *   REJ received                     REJECTED                 the reason, the REJ's private data (the taker moves the QP to ERR)
 *   REQ or REP timed out             UNREACHABLE              -ETIMEDOUT
 *   DREQ received / DREP received    DISCONNECTED             0
 *   DREQ timed out (DREP lost)       DISCONNECTED             -ETIMEDOUT
 *   timewait over                    TIMEWAIT_EXIT            0
 *   REQ on a listener                CONNECT_REQUEST          on a new id, the REQ's data after the IP CM header
 * </pre>
 * A UD id (RDMA_PS_UDP) has no connection: {@code rdma_connect} sends a SIDR_REQ ({@code cma_resolve_ib_udp}),
 * and {@code cma_sidr_rep_handler} turns the answer into its event, the id staying in CONNECT:
 * <pre>
 *   SIDR_REP status 0                ESTABLISHED              0, param.ud: the QPN, the Q_Key, the route's AH
 *   SIDR_REP with another Q_Key      ADDR_ERROR               -EINVAL (cma_set_qkey)
 *   SIDR_REP status N != 0           UNREACHABLE              N, the SIDR status itself (1 no listener, 2 rejected)
 *   SIDR_REQ timed out               UNREACHABLE              -ETIMEDOUT
 *   SIDR_REQ on a listener           CONNECT_REQUEST          on a new id, the data after the IP CM header; no MRA
 * </pre>
 * Engine calls happen on the port's CM thread ({@link CmPort#execute}); events reach the id's conductor from there,
 * as commands ({@link RdmaCmId#connectionEvent}).
 * <p>
 * The CM thread never touches the id's QP: the split is librdmacm's over the kernel's CM, which never sees a
 * userspace QP. A REP is MRA'd (delayed, as {@code cma_ib_handler} does) and becomes CONNECT_RESPONSE with the
 * QP's attributes ({@link RdmaCmId#connectResponse}); the thread that takes it moves the QP to RTR and RTS and
 * asks for the RTU ({@link #sendRtu}). {@code rdma_accept}'s caller asks for the attributes ({@link #prepareAccept}),
 * moves the QP, then asks for the REP ({@link #accept}); {@code rdma_disconnect}'s caller moves it to ERR.
 */
final class IdConnection implements CmConnection, IbCmEventHandler
{
    /** cma.c: both CM response timeouts of a REQ, 4.096 us * 2^20. */
    static final int CMA_CM_RESPONSE_TIMEOUT = 20;
    static final int CMA_MAX_CM_RETRIES = 15;
    /** cma.c {@code CMA_CM_MRA_SETTING}: {@code IB_CM_MRA_FLAG_DELAY | 24}, "received, 68.7 s more". */
    static final int CMA_CM_MRA_SERVICE_TIMEOUT = 24;
    /** rdma_cm's {@code RDMA_UDP_QKEY} (include/rdma/rdma_cm.h): the Q_Key of every RDMA_PS_UDP id's QP and SIDR_REP. */
    static final long RDMA_UDP_QKEY = 0x01234567L;

    private final RdmaCmId id;
    private final CmPort agent;
    private final RdmaPortBinding binding;
    /**
     * For one port's listen of a wildcard listener ({@code cma_listen_on_dev}'s internal id): where the
     * entry a request arrived on is looked up, its child's binding. Null for every other connection,
     * whose children take {@link #binding}.
     */
    private final GidDirectory arrivals;
    /**
     * The binding {@link #takesRequest} found for the request it took, for {@link #newChild} right after it
     * on the same engine call (the CM's thread); null when the request's GID entry is gone.
     */
    private RdmaPortBinding taken;
    /** A listener's children, by the connection the engine made for each REQ. */
    private final Map<IbCmConnection, IdConnection> children = new ConcurrentHashMap<>();
    private volatile IbCmConnection connection;
    /** A UD id's route, for the address handle attributes of its ESTABLISHED ({@code id.route.path_rec}). */
    private volatile PathRecordValue udPath;
    /** A UD id's Q_Key ({@code id_priv->qkey}): RDMA_UDP_QKEY once its QP is set up, else 0 (any answer's taken). */
    private volatile long udQkey;

    IdConnection(final RdmaCmId id, final CmPort agent, final RdmaPortBinding binding)
    {
        this(id, agent, binding, (GidDirectory)null);
    }

    /**
     * One port's listen of a listener bound to a wildcard address: {@code port} is the port's first GID
     * entry, and each request's new id is bound to the entry of {@code arrivals} that the REQ came in on.
     */
    IdConnection(final RdmaCmId id, final CmPort agent, final RdmaPortBinding port, final GidDirectory arrivals)
    {
        this.id = id;
        this.agent = agent;
        this.binding = port;
        this.arrivals = arrivals;
    }

    private IdConnection(final RdmaCmId id, final CmPort agent, final RdmaPortBinding binding, final IbCmConnection connection)
    {
        this(id, agent, binding);
        this.connection = connection;
    }

    @Override
    public RdmaPortBinding binding()
    {
        return binding;
    }

    /**
     * {@code cma_connect_ib}'s REQ: the primary path from the route, the IP CM header (version 0, the IP
     * version, the source port, both addresses) before the consumer's private data, both CM response
     * timeouts {@code responseTimeout} (rdma_cm: {@code CMA_CM_RESPONSE_TIMEOUT}, 20), {@code maxRetries}
     * (rdma_cm: {@code CMA_MAX_CM_RETRIES}, 15), retry counts cut to 7.
     */
    static ConnectParameters request(final long serviceId, final PathRecordValue path, final InetAddress source,
        final InetAddress destination, final int sourcePort, final int qpn, final ConnectionParameters parameters,
        final int responseTimeout, final int maxRetries)
    {
        final IbCmPath cmPath = new IbCmPath(path.sgid(), path.dgid(), path.slid().value(), path.dlid().value(), path.flowLabel(),
            path.rate(), path.tClass(), path.hopLimit(), path.sl(), path.mtu(), path.packetLifeTime(), path.pKey().value());
        final byte[] data = IpCmPrivateDataHeader.privateData(source, destination, sourcePort, parameters.privateData());
        return new ConnectParameters(serviceId, IbCmPeerAddress.cmAt(path.dgid(), 0), cmPath, qpn, false,
            parameters.responderResources(), parameters.initiatorDepth(), responseTimeout, responseTimeout,
            maxRetries, Math.min(7, parameters.retryCount()), Math.min(7, parameters.rnrRetryCount()),
            parameters.flowControl(), false, data);
    }

    /**
     * {@code cma_resolve_ib_udp}'s SIDR_REQ: the Service ID, the path's P_Key, the IP CM header before
     * the consumer's private data, and {@code ib_send_cm_sidr_req}'s wait and retries: rdma_cm's
     * {@code 1 << (CMA_CM_RESPONSE_TIMEOUT - 8)} = 4096 ms and {@code CMA_MAX_CM_RETRIES} (15) from the
     * defaults, each try's wait {@code cm_convert_to_ms(responseTimeout)}.
     */
    static SidrRequestParameters sidrRequest(final long serviceId, final PathRecordValue path, final InetAddress source,
        final InetAddress destination, final int sourcePort, final byte[] consumer, final int responseTimeout, final int maxRetries)
    {
        return new SidrRequestParameters(serviceId, IbCmPeerAddress.cmAt(path.dgid(), 0), path.pKey().value(),
            1L << Math.max(responseTimeout - 8, 0), maxRetries, IpCmPrivateDataHeader.privateData(source, destination, sourcePort, consumer));
    }

    /**
     * ib_send_cm_sidr_req on the CM thread, for a UD id whose route is {@code path}; {@code qkey} is
     * the id's (RDMA_UDP_QKEY once its QP is set up, else 0), which the SIDR_REP's must match.
     */
    void resolveUd(final SidrRequestParameters parameters, final PathRecordValue path, final long qkey)
    {
        udPath = path;
        udQkey = qkey;
        agent.useLocalGid(parameters.peer().gid(), binding.gidIndex());
        agent.execute(engine ->
        {
            connection = engine.createConnection(this);
            try
            {
                connection.sidrRequest(parameters);
            }
            catch (final RuntimeException ex)
            {
                id.connectionEvent(new dev.rdmacm.cm.CmEvent.ConnectError(id, -errnoOf(ex)), null);
            }
        });
    }

    /**
     * {@code cma_send_sidr_rep}: rdma_accept on a UD request's id answers {@link SidrStatus#SUCCESS} with
     * the QP's number and RDMA_UDP_QKEY, rdma_reject {@link SidrStatus#REJECT} (IB_SIDR_REJECT) with neither.
     */
    private void sidrReply(final SidrStatus status, final int qpn, final byte[] privateData)
    {
        final boolean accepted = status == SidrStatus.SUCCESS;
        agent.execute(engine ->
        {
            try
            {
                connection.sidrReply(status, accepted ? qpn : 0, accepted ? RDMA_UDP_QKEY : 0, new byte[0], privateData);
            }
            catch (final RuntimeException ex)
            {
                id.connectionEvent(new dev.rdmacm.cm.CmEvent.ConnectError(id, -errnoOf(ex)), null);
            }
        });
    }

    /**
     * {@code cma_sidr_rep_handler}: the event a SIDR_REP gives a UD id whose Q_Key is {@code idQkey}
     * (0 when it has none yet) and whose route is {@code path} on {@code binding}.
     */
    static dev.rdmacm.cm.CmEvent sidrReplyEvent(final RdmaCmId id, final IbCmEvent.SidrReplyReceived reply,
        final RdmaPortBinding binding, final PathRecordValue path, final long idQkey)
    {
        if (reply.status() != SidrStatus.SUCCESS.code())
        {
            return new dev.rdmacm.cm.CmEvent.Unreachable(id, reply.status());
        }
        // cma_set_qkey: no Q_Key, or another than the id's, is refused
        if (reply.qKey() == 0 || idQkey != 0 && reply.qKey() != idQkey)
        {
            return new dev.rdmacm.cm.CmEvent.AddrError(id, -Errno.EINVAL, "the SIDR_REP's Q_Key 0x" + Long.toHexString(reply.qKey())
                + " is not the id's 0x" + Long.toHexString(idQkey) + " (cma_set_qkey)", new ResolutionTrace(System.nanoTime()));
        }
        return new dev.rdmacm.cm.CmEvent.Established(id, reply.privateData(), Optional.of(
            new UdParameters(reply.privateData(), udAddress(binding, path), reply.qpn(), reply.qKey())));
    }

    /**
     * {@code ib_init_ah_attr_from_path} as userspace gets it ({@code ib_copy_ah_attr_to_user}): the id's
     * port, the route's SL and rate, a GRH to the route's DGID from the id's GID index with its hop
     * limit, traffic class and flow label; on RoCE no DLID (a RoCE AH has none: 0), on InfiniBand the
     * path's, with a GRH only when the path has hops.
     */
    static AddressVector udAddress(final RdmaPortBinding binding, final PathRecordValue path)
    {
        final boolean roce = binding.netdev() != null;
        final Optional<AddressVector.GlobalRoute> grh = roce || path.hopLimit() > 0 ? Optional.of(new AddressVector.GlobalRoute(
            path.dgid(), binding.gidIndex(), path.hopLimit(), path.tClass(), path.flowLabel())) : Optional.empty();
        return new AddressVector(binding.port(), roce ? 0 : path.dlid().value(), path.sl(), 0, path.rate(), grh);
    }

    /** ib_send_cm_req, on the CM thread. */
    void connect(final ConnectParameters parameters)
    {
        agent.useLocalGid(parameters.peer().gid(), binding.gidIndex());
        agent.execute(engine ->
        {
            connection = engine.createConnection(this);
            try
            {
                connection.connect(parameters, QpTransitions.NONE);
            }
            catch (final RuntimeException ex)
            {
                id.connectionEvent(new dev.rdmacm.cm.CmEvent.ConnectError(id, -errnoOf(ex)), null);
            }
        });
    }

    /** ib_cm_listen on the id's Service ID. */
    void listen(final long serviceId)
    {
        agent.execute(engine ->
        {
            connection = engine.createConnection(this);
            connection.listen(serviceId);
        });
    }

    /**
     * The QP's attributes for {@code rdma_accept} with {@code parameters} ({@code rdma_init_qp_attr}), with the
     * connection's port: {@code reply} completes with them, or with EINVAL when the request is gone (rejected,
     * timed out, destroyed).
     */
    @Override
    public void prepareAccept(final ConnectionParameters parameters, final int qpNumber,
        final CompletableFuture<ConnectResponseMoves> reply)
    {
        final AcceptParameters accepted = acceptParameters(parameters, qpNumber);
        agent.execute(engine ->
        {
            try
            {
                reply.complete(new IbCmQpMoves(binding, connection.prepareAccept(accepted), new byte[0]));
            }
            catch (final RuntimeException ex)
            {
                reply.completeExceptionally(callFailed("rdma_accept", ex));
            }
        });
    }

    /**
     * ib_send_cm_rep ({@code UCMA_CMD_ACCEPT}): the caller moved the QP already. {@code reply} completes when the REP
     * is out, or with the error that kept it from going, as the kernel's ACCEPT fails. A UD request's id answers
     * with SIDR_REP status 0 instead ({@link #sidrReply}), {@code reply} completing at once.
     */
    @Override
    public void accept(final ConnectionParameters parameters, final int qpNumber, final CompletableFuture<Void> reply)
    {
        if (id.isUd())
        {
            sidrReply(SidrStatus.SUCCESS, qpNumber, parameters.privateData());
            reply.complete(null);
            return;
        }
        final AcceptParameters accepted = acceptParameters(parameters, qpNumber);
        agent.execute(engine ->
        {
            try
            {
                connection.accept(accepted, QpTransitions.NONE);
                reply.complete(null);
            }
            catch (final RuntimeException ex)
            {
                reply.completeExceptionally(callFailed("rdma_accept", ex));
            }
        });
    }

    /** ib_cm's REP parameters of an accept: the RNR retry count cut to 7, no SRQ, no failover, as {@code cma_accept_ib}. */
    private static AcceptParameters acceptParameters(final ConnectionParameters parameters, final int qpNumber)
    {
        return new AcceptParameters(qpNumber, parameters.responderResources(), parameters.initiatorDepth(), 0,
            parameters.flowControl(), Math.min(7, parameters.rnrRetryCount()), false, parameters.privateData());
    }

    /**
     * {@code UCMA_CMD_ACCEPT} of the active side ({@code cma_rep_recv}): the RTU, once the thread that took
     * CONNECT_RESPONSE has moved the QP to RTS. {@code reply} completes once the id is ESTABLISHED, or with the
     * error that kept the RTU from going (the connection rejected or timed out meanwhile: EINVAL).
     */
    @Override
    public void sendRtu(final CompletableFuture<Void> reply)
    {
        agent.execute(engine ->
        {
            final IbCmConnection c = connection;
            try
            {
                if (c == null)
                {
                    throw new IllegalStateException("no connection");
                }
                c.sendRtu(new byte[0]);
            }
            catch (final RuntimeException ex)
            {
                reply.completeExceptionally(callFailed("rdma_connect", ex));
                return;
            }
            id.rtuSent(reply);
        });
    }

    private static RdmaCmException callFailed(final String call, final RuntimeException cause)
    {
        return cause instanceof RdmaCmException refused ? refused :
            new RdmaCmException(call, errnoOf(cause), cause.getMessage(), true);
    }

    /** ib_send_cm_rej, consumer defined (rdma_reject); on a UD request's id SIDR_REP status 2 ({@link #sidrReply}). */
    @Override
    public void reject(final byte[] privateData)
    {
        if (id.isUd())
        {
            sidrReply(SidrStatus.REJECT, 0, privateData);
            return;
        }
        agent.execute(engine -> connection.reject(RejectReason.CONSUMER_DEFINED, new byte[0], privateData));
    }

    /** rdma_disconnect: a DREQ, or the DREP when the peer's DREQ came first. */
    @Override
    public void disconnect()
    {
        agent.execute(engine ->
        {
            final IbCmConnection c = connection;
            if (c == null)
            {
                return;
            }
            switch (c.state())
            {
                case DREQ_RCVD -> c.drep(new byte[0]);
                case ESTABLISHED, REP_SENT, MRA_REP_RCVD -> c.disconnect(new byte[0]);
                default ->
                {
                    // nothing to end: rdma_disconnect returns EINVAL from ib_send_cm_dreq and ib_send_cm_drep
                }
            }
        });
    }

    /**
     * ib_destroy_cm_id: REJ, DREQ or DREP as the state asks, then the comm ID is freed. On a port whose CM
     * is closed (the RdmaCm closed, or its umad failed) nothing can go out and the engine is gone with its
     * connections: nothing to do, and rdma_destroy_id, which no one waits for, never fails on it.
     */
    @Override
    public void close()
    {
        try
        {
            agent.execute(engine ->
            {
                final IbCmConnection c = connection;
                if (c != null && !c.isClosed())
                {
                    c.close();
                }
            });
        }
        catch (final IllegalStateException closed)
        {
            // the port's CM is closed: nothing more to send
        }
    }

    @Override
    public void onEvent(final IbCmConnection from, final IbCmEvent event)
    {
        if (from != connection)
        {
            final IdConnection child = children.get(from);
            if (child != null)
            {
                child.onEvent(from, event);
            }
            else if (event instanceof IbCmEvent.RequestReceived request)
            {
                requestReceived(from, request);
            }
            else if (event instanceof IbCmEvent.SidrRequestReceived request)
            {
                sidrRequestReceived(from, request);
            }
            return;
        }
        switch (event)
        {
            // cma_ib_handler, IB_CM_REP_RECEIVED without a kernel QP: a delayed MRA, then CONNECT_RESPONSE
            case IbCmEvent.ReplyReceived reply -> replyReceived(from, reply);
            // the RTU this side sent (sendRtu): its caller moves the id to ESTABLISHED; the event was CONNECT_RESPONSE's
            case IbCmEvent.Established established when established.by() == IbCmEvent.EstablishedBy.RTU_SENT ->
            {
            }
            case IbCmEvent.Established established -> id.connectionEvent(
                new dev.rdmacm.cm.CmEvent.Established(id, established.privateData()), CmIdState.ESTABLISHED);
            case IbCmEvent.Rejected rejected -> id.connectionEvent(
                new dev.rdmacm.cm.CmEvent.Rejected(id, rejected.reason(), rejected.privateData()), null);
            case IbCmEvent.RequestTimedOut ignored -> id.connectionEvent(
                new dev.rdmacm.cm.CmEvent.Unreachable(id, -Errno.ETIMEDOUT), null);
            case IbCmEvent.ReplyTimedOut ignored -> id.connectionEvent(
                new dev.rdmacm.cm.CmEvent.Unreachable(id, -Errno.ETIMEDOUT), null);
            case IbCmEvent.ConnectError error -> id.connectionEvent(
                new dev.rdmacm.cm.CmEvent.ConnectError(id, -errnoOf(error.cause())), null);
            case IbCmEvent.DisconnectRequested ignored -> id.connectionEvent(
                new dev.rdmacm.cm.CmEvent.Disconnected(id, 0), CmIdState.DISCONNECT);
            case IbCmEvent.DisconnectReplyReceived ignored -> id.connectionEvent(
                new dev.rdmacm.cm.CmEvent.Disconnected(id, 0), CmIdState.DISCONNECT);
            // cma_ib_handler: IB_CM_DREQ_ERROR is DISCONNECTED with -ETIMEDOUT, the DREP lost
            case IbCmEvent.DisconnectRequestTimedOut ignored -> id.connectionEvent(
                new dev.rdmacm.cm.CmEvent.Disconnected(id, -Errno.ETIMEDOUT), CmIdState.DISCONNECT);
            case IbCmEvent.TimewaitExit ignored -> id.connectionEvent(new dev.rdmacm.cm.CmEvent.TimewaitExit(id), null);
            // cma_sidr_rep_handler: the id stays in CONNECT whatever the answer
            case IbCmEvent.SidrReplyReceived reply -> id.connectionEvent(sidrReplyEvent(id, reply, binding, udPath, udQkey), null);
            case IbCmEvent.SidrRequestTimedOut ignored -> id.connectionEvent(
                new dev.rdmacm.cm.CmEvent.Unreachable(id, -Errno.ETIMEDOUT), null);
            default ->
            {
                // MRA received: nothing for the id
            }
        }
    }

    /**
     * {@code cma_ib_handler} on a REP for an id whose QP the kernel does not hold: {@code ib_send_cm_mra} with
     * {@code CMA_CM_MRA_SETTING} (delayed: sent only if the REP comes again, while the application moves its QP),
     * then CONNECT_RESPONSE with the REP's private data; the QP's attributes go with it to the id's handle.
     */
    private void replyReceived(final IbCmConnection from, final IbCmEvent.ReplyReceived reply)
    {
        if (from.state() != IbCmState.REP_RCVD)
        {
            return;
        }
        from.sendMra(CMA_CM_MRA_SERVICE_TIMEOUT, true, new byte[0]);
        id.connectResponse(new IbCmQpMoves(binding, from.qpAttributes(), reply.privateData()));
        id.connectionEvent(new dev.rdmacm.cm.CmEvent.ConnectResponse(id), null);
    }

    /**
     * cma_ib_req_handler: a new id for the REQ, bound where the listener is, or, under a wildcard
     * listener, to the port and GID entry the REQ came in on (cma_ib_acquire_dev). A REQ whose entry is
     * not in the GID table (gone since) is rejected as the kernel's handler failing it is: REJ 28.
     */
    private void requestReceived(final IbCmConnection from, final IbCmEvent.RequestReceived request)
    {
        final byte[] data = request.privateData();
        final RdmaCmId child = newChild(from, request.from(), data);
        if (child == null)
        {
            return;
        }
        final byte[] consumerData = consumerData(data);
        id.connectionEvent(new dev.rdmacm.cm.CmEvent.ConnectRequest(child, id, consumerData,
            requestParameters(request, consumerData)), null);
        // cma_ib_req_handler: the consumer answers later, so a delayed MRA, sent only if the REQ comes again
        from.sendMra(CMA_CM_MRA_SERVICE_TIMEOUT, true, new byte[0]);
    }

    /**
     * cma_ib_req_handler for a SIDR_REQ ({@code cma_new_udp_id}): a new UD id bound as a REQ's would be,
     * CONNECT_REQUEST with the SIDR_REQ's private data after the IP CM header ({@code param.ud}'s 180
     * bytes) and a zero {@code param.conn}; no MRA, which rdma_cm sends only for a connection's REQ.
     * A request whose GID entry is gone is refused as a failing handler's: SIDR_REP status 2.
     */
    private void sidrRequestReceived(final IbCmConnection from, final IbCmEvent.SidrRequestReceived request)
    {
        final byte[] data = request.privateData();
        final RdmaCmId child = newChild(from, request.from(), data);
        if (child != null)
        {
            id.connectionEvent(new dev.rdmacm.cm.CmEvent.ConnectRequest(child, id, consumerData(data)), null);
        }
    }

    /**
     * cma_ib_req_handler up to {@code ucma_connect_event_handler}'s backlog: a request whose GID entry is
     * gone is taken here, to be refused by {@link #newChild} with a REJ, as {@code cma_ib_acquire_dev}
     * fails before the backlog is looked at; any other takes a place of the listener's backlog, or is
     * refused (dropped) when none is left.
     */
    @Override
    public boolean takesRequest(final IbCmPeerAddress from)
    {
        taken = arrivals == null ? binding : arrivals.entry(binding.device(), binding.port(),
            agent.localGidIndex(from.gid())).orElse(null);
        if (taken == null || id.backlog.tryTake())
        {
            return true;
        }
        taken = null;
        return false;
    }

    /**
     * The new id of a REQ or SIDR_REQ, on the listener's port or, under a wildcard listener, on the GID
     * entry the request came in on ({@link #takesRequest}, cma_ib_acquire_dev); null, and the request refused (its
     * connection closed), when that entry is gone.
     */
    private RdmaCmId newChild(final IbCmConnection from, final IbCmPeerAddress peer, final byte[] privateData)
    {
        final RdmaPortBinding childBinding = taken;
        taken = null;
        if (childBinding == null)
        {
            from.close();
            return null;
        }
        final RdmaCmId child = id.newChild();
        final IdConnection childConnection = new IdConnection(child, agent, childBinding, from);
        children.put(from, childConnection);
        id.requested(child, childConnection, peer, privateData);
        return child;
    }

    /** The consumer's part of a request's private data: what follows rdma_cm's IP CM header. */
    private static byte[] consumerData(final byte[] data)
    {
        final int header = IpCmPrivateDataHeader.LENGTH;
        return data.length > header ? Arrays.copyOfRange(data, header, data.length) : new byte[0];
    }

    /**
     * The event's {@code param.conn} as rdma_cm fills it ({@code cma_set_req_event_data}) from ib_cm's
     * REQ parameters, which name each value from the receiver's side ({@code cm_format_req_event}): the
     * responder resources to accept with are the REQ's initiator depth, and the initiator depth its
     * responder resources.
     */
    static ConnectionParameters requestParameters(final IbCmEvent.RequestReceived request, final byte[] consumerData)
    {
        return new ConnectionParameters(consumerData, request.initiatorDepth(), request.responderResources(), request.flowControl(),
            request.retryCount(), request.rnrRetryCount());
    }

    private static int errnoOf(final Throwable failure)
    {
        return failure instanceof ErrnoException errno ? errno.errno() : Errno.EINVAL;
    }
}
