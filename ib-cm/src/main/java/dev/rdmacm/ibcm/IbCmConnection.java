package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.cm.ConnectReject;
import dev.rdmacm.protocol.cm.ConnectReply;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.ConnectRequestPath;
import dev.rdmacm.protocol.cm.DisconnectRequest;
import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.protocol.cm.MessageReceiptAck;
import dev.rdmacm.protocol.cm.RejectReason;
import dev.rdmacm.protocol.cm.SidrReply;
import dev.rdmacm.protocol.cm.SidrRequest;
import dev.rdmacm.protocol.cm.SidrStatus;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * One communication: ib_cm's {@code cm_id_private} and the state machine cm.c runs on it, in Aeron's
 * Election shape: a {@link IbCmState}, one method per state that takes the inputs (received MADs already
 * matched to this connection by {@link IbCmEngine}, and its one timer), and every state change through
 * {@link #transition}, which the engine's {@code TransitionListener} sees with the clock's time.
 * <p>
 * The consumer's calls are ib_cm's: {@link #listen}, {@link #connect}, {@link #accept}, {@link #reject},
 * {@link #sendMra}, {@link #sendRtu}, {@link #establish} ({@code ib_cm_notify(IB_EVENT_COMM_EST)}),
 * {@link #disconnect} (DREQ), {@link #drep}, {@link #sidrRequest}, {@link #sidrReply} and {@link #close}
 * ({@code ib_destroy_cm_id}). A call in a state that does not take it throws
 * {@link IllegalStateException} naming the state, where ib_cm returns EINVAL. Like rdma_cm (and unlike
 * bare ib_cm) the engine moves the QP through {@link QpTransitions} and sends the RTU itself when the
 * REP comes, unless the consumer MRAs the REP from its {@link IbCmEvent.ReplyReceived} handler. A consumer
 * that moves its QP itself passes {@link QpTransitions#NONE}, asks {@link #prepareAccept} or
 * {@link #qpAttributes} for the attributes and MRAs the REP (delayed) until it calls {@link #sendRtu}.
 * <p>
 * Timers: one per connection ({@link RetryTimer}), for the message that waits for an answer (REQ, REP, DREQ, SIDR_REQ:
 * re-sent byte for byte every {@code timeoutMs}, {@code maxCmRetries} times, as the MAD layer does for
 * ib_cm) or for TIMEWAIT. See docs/connection.md for the formulas and the cm.c lines they come from.
 */
public final class IbCmConnection
{
    /** What a state method takes. */
    enum Input
    {
        REP, DUPLICATE_REP, REJ, MRA, RTU, DREQ, DREP, SIDR_REP, TIMEOUT
    }

    private static final byte[] NONE = new byte[0];

    private final IbCmEngine engine;
    private final long localCommId;
    private final IbCmEventHandler handler;
    private final RetryTimer timer;
    private QpTransitions qp = QpTransitions.NONE;
    private IbCmState state = IbCmState.IDLE;
    private boolean closed;

    private long remoteCommId;
    private long serviceId;
    /** The TID of this connection's exchange: its REQ's (cm.c {@code cm_id_priv->tid}), a DREQ's once one came. */
    private long tid;
    private long receivedTid;
    private long remoteCaGuid;
    private int remoteQpn;
    private int localQpn;
    private IbCmPeerAddress peer;
    private IbCmPath path;

    /** cm.c {@code timeout_ms} and {@code max_cm_retries}: the REQ's, REP's and DREQ's wait and retries. */
    private long timeoutMs;
    private int maxCmRetries;

    /** cm.c {@code av.timeout}: the QP's local ACK timeout, and the base of the MRA wait and of TIMEWAIT. */
    private int avTimeout;
    private int initiatorDepth;
    private int responderResources;
    private int pathMtu;
    private int pkey;
    private int sendPsn;
    private int receivePsn;
    private int retryCount;
    private int rnrRetryCount;
    private boolean flowControl;

    private int serviceTimeout;
    private byte[] mraPrivateData = NONE;
    private byte[] rtuPrivateData = NONE;
    private byte[] drepPrivateData = NONE;

    private ConnectionTable.RemoteKey remoteIdKey;
    private ConnectionTable.RemoteKey remoteQpnKey;
    private ConnectionTable.SidrKey sidrKey;
    private boolean qpModified;
    private boolean qpErrored;
    private boolean receivePsnDrawn;

    IbCmConnection(final IbCmEngine engine, final long localCommId, final IbCmEventHandler handler)
    {
        this.engine = engine;
        this.localCommId = localCommId;
        this.handler = handler;
        this.timer = new RetryTimer(engine, this);
    }

    public IbCmState state()
    {
        return state;
    }

    /** This side's comm ID as on the wire (the LocalCommunicationID of what it sends). */
    public long localCommId()
    {
        return localCommId;
    }

    /** The peer's comm ID (0 until its REQ or REP is known). */
    public long remoteCommId()
    {
        return remoteCommId;
    }

    public long serviceId()
    {
        return serviceId;
    }

    /** Where this connection's MADs go; null before connect or a received REQ. */
    public IbCmPeerAddress peer()
    {
        return peer;
    }

    IbCmEventHandler handler()
    {
        return handler;
    }

    /** What the QP is (or would be) set to at RTR and RTS from what REQ and REP said so far. */
    public QpAttributes qpAttributes()
    {
        return new QpAttributes(path, pkey, remoteQpn, receivePsn, sendPsn, pathMtu, responderResources,
            initiatorDepth, 0, avTimeout, retryCount, rnrRetryCount, flowControl);
    }

    // ---------------------------------------------------------------- the consumer's calls

    /** {@code ib_cm_listen}: REQs and SIDR_REQs for {@code serviceId} make new connections with this handler. */
    public void listen(final long serviceId)
    {
        engine.tick();
        requireState("listen", IbCmState.IDLE);
        if (!engine.table.addListener(serviceId, this))
        {
            throw new IllegalStateException("listen: Service ID 0x" + Long.toHexString(serviceId) +
                " has a listener already (ib_cm_listen: EBUSY)");
        }
        this.serviceId = serviceId;
        transition(IbCmState.LISTEN);
    }

    /** {@code ib_send_cm_req}: sends the REQ and waits for REP, REJ or MRA. */
    public void connect(final ConnectParameters parameters, final QpTransitions qpTransitions)
    {
        Objects.requireNonNull(parameters, "parameters");
        engine.tick();
        requireState("connect", IbCmState.IDLE);
        qp = Objects.requireNonNull(qpTransitions, "qpTransitions");
        serviceId = parameters.serviceId();
        peer = parameters.peer();
        path = parameters.path();
        final int packetLifeTime = path.packetLifeTime();
        // cm.c ib_send_cm_req: timeout_ms = cm_convert_to_ms(packet_life_time) * 2 +
        //                                   cm_convert_to_ms(remote_cm_response_timeout)
        timeoutMs = IbCmTimeouts.convertToMillis(packetLifeTime) * 2 +
            IbCmTimeouts.convertToMillis(parameters.remoteCmResponseTimeout());
        maxCmRetries = parameters.maxCmRetries();
        initiatorDepth = parameters.initiatorDepth();
        responderResources = parameters.responderResources();
        retryCount = parameters.retryCount();
        rnrRetryCount = parameters.rnrRetryCount();
        pathMtu = path.mtu();
        pkey = path.pkey();
        localQpn = parameters.localQpn();
        flowControl = parameters.flowControl();
        // cm_init_av_by_path: av->timeout = path->packet_life_time + 1
        avTimeout = packetLifeTime + 1;
        receivePsn = engine.randomPsn();
        // cm_form_tid: the agent's hi_tid (the MAD transport's business) above the local ID
        tid = localCommId;
        engine.formatter.req(tid, localCommId, engine.configuration.localCaGuid(), parameters, receivePsn,
            IbCmTimeouts.ackTimeout(engine.configuration.caAckDelay(), packetLifeTime));
        timer.sendAndWait(peer, timeoutMs, maxCmRetries);
        transition(IbCmState.REQ_SENT);
    }

    /**
     * {@code ib_send_cm_rep} after rdma_cm's {@code cma_accept_ib}: the QP to RTR and RTS, then the REP,
     * which waits for the RTU (or the first receive, {@link #establish}).
     *
     * @throws RuntimeException what the QP transition threw, after a REJ (consumer defined) went out.
     */
    public void accept(final AcceptParameters parameters, final QpTransitions qpTransitions)
    {
        Objects.requireNonNull(parameters, "parameters");
        engine.tick();
        prepareAccept(parameters);
        qp = Objects.requireNonNull(qpTransitions, "qpTransitions");
        try
        {
            moveQpToReadyToSend();
        }
        catch (final RuntimeException failed)
        {
            reject(RejectReason.CONSUMER_DEFINED.code(), NONE, NONE);
            throw failed;
        }
        engine.formatter.rep(tid, localCommId, remoteCommId, engine.configuration.localCaGuid(), parameters,
            receivePsn, engine.configuration.caAckDelay());
        timer.sendAndWait(peer, timeoutMs, maxCmRetries);
        transition(IbCmState.REP_SENT);
    }

    /**
     * The QP's RTR and RTS attributes if accepted with {@code parameters}, for a consumer that moves its QP before
     * {@link #accept} sends the REP (librdmacm's {@code rdma_init_qp_attr}): the REP carries the PSN drawn here.
     */
    public QpAttributes prepareAccept(final AcceptParameters parameters)
    {
        requireState("accept", IbCmState.REQ_RCVD, IbCmState.MRA_REQ_SENT);
        localQpn = parameters.localQpn();
        responderResources = parameters.responderResources();
        initiatorDepth = parameters.initiatorDepth();
        receivePsn = receivePsnDrawn ? receivePsn : engine.randomPsn();
        receivePsnDrawn = true;
        return qpAttributes();
    }

    /** {@code ib_send_cm_rej} with a {@link RejectReason}. */
    public void reject(final RejectReason reason, final byte[] ari, final byte[] privateData)
    {
        reject(reason.code(), ari, privateData);
    }

    /**
     * {@code ib_send_cm_rej}: from a handshake state the connection goes back to IDLE, from REP_SENT and
     * MRA_REP_RCVD (the QP may have sent already) to TIMEWAIT.
     *
     * @param reason      the 16-bit REJ reason.
     * @param ari         at most 72 bytes of additional rejection information, or null.
     * @param privateData at most 148 bytes, or null.
     */
    public void reject(final int reason, final byte[] ari, final byte[] privateData)
    {
        Limits.requireBits("reject reason", reason, 16);
        final byte[] info = Limits.ari(ari);
        final byte[] data = Limits.privateData("REJ", privateData, Limits.REJ_PRIVATE_DATA_SIZE);
        engine.tick();
        if (closed)
        {
            throw new IllegalStateException("reject: the connection is closed");
        }
        final IbCmState prior = state;
        switch (prior)
        {
            case REQ_SENT, MRA_REQ_RCVD, REQ_RCVD, MRA_REQ_SENT, REP_RCVD, MRA_REP_SENT -> resetToIdle();
            case REP_SENT, MRA_REP_RCVD -> enterTimewait();
            default -> throw wrongState("reject");
        }
        // cm.c cm_format_rej: which message is rejected, and no local ID yet for a REQ not MRA'd
        final int messageRejected = switch (prior)
        {
            case REQ_RCVD, MRA_REQ_SENT -> ConnectReject.MESSAGE_REJECTED_REQ;
            case REP_RCVD, MRA_REP_SENT -> ConnectReject.MESSAGE_REJECTED_REP;
            default -> ConnectReject.MESSAGE_REJECTED_OTHER;
        };
        engine.send(peer, engine.formatter.rej(tid, prior == IbCmState.REQ_RCVD ? 0 : localCommId, remoteCommId,
            messageRejected, reason, info, data));
    }

    /**
     * {@code ib_send_cm_mra}: "received, need {@code serviceTimeout} more" for the REQ (REQ_RCVD) or the
     * REP (REP_RCVD). {@code delayed} is ib_cm's {@code IB_CM_MRA_FLAG_DELAY}, what rdma_cm uses: no MRA
     * now, only in answer to a duplicate (a retried REQ or REP).
     */
    public void sendMra(final int serviceTimeout, final boolean delayed, final byte[] privateData)
    {
        Limits.requireBits("sendMra serviceTimeout", serviceTimeout, 5);
        final byte[] data = Limits.privateData("MRA", privateData, Limits.MRA_PRIVATE_DATA_SIZE);
        engine.tick();
        final IbCmState next;
        final int messageMraed;
        switch (state)
        {
            case REQ_RCVD ->
            {
                next = IbCmState.MRA_REQ_SENT;
                messageMraed = MessageReceiptAck.MESSAGE_MRAED_REQ;
            }
            case REP_RCVD ->
            {
                next = IbCmState.MRA_REP_SENT;
                messageMraed = MessageReceiptAck.MESSAGE_MRAED_REP;
            }
            default -> throw wrongState("sendMra");
        }
        if (!delayed)
        {
            engine.send(peer, engine.formatter.mra(tid, localCommId, remoteCommId, messageMraed, serviceTimeout, data));
        }
        this.serviceTimeout = serviceTimeout;
        this.mraPrivateData = data;
        transition(next);
    }

    /** {@code ib_send_cm_rtu}, for a consumer that MRA'd the REP: the QP to RTR and RTS, then the RTU. */
    public void sendRtu(final byte[] privateData)
    {
        final byte[] data = Limits.privateData("RTU", privateData, Limits.RTU_PRIVATE_DATA_SIZE);
        engine.tick();
        requireState("sendRtu", IbCmState.REP_RCVD, IbCmState.MRA_REP_SENT);
        completeWithRtu(data);
    }

    /**
     * {@code ib_cm_notify(IB_EVENT_COMM_EST)}: the QP received before the RTU came (the RTU was lost or is
     * late), so the connection is established without it.
     *
     * @return false when it was ESTABLISHED already (ib_cm's EISCONN).
     */
    public boolean establish()
    {
        engine.tick();
        if (state == IbCmState.ESTABLISHED)
        {
            return false;
        }
        requireState("establish", IbCmState.REP_SENT, IbCmState.MRA_REP_RCVD);
        timer.cancel();
        transition(IbCmState.ESTABLISHED);
        emit(new IbCmEvent.Established(IbCmEvent.EstablishedBy.COMMUNICATION_ESTABLISHED, NONE));
        return true;
    }

    /** {@code ib_send_cm_dreq}: the QP to ERR, the DREQ, retried until a DREP (or DREQ) comes. */
    public void disconnect(final byte[] privateData)
    {
        final byte[] data = Limits.privateData("DREQ", privateData, Limits.DREQ_PRIVATE_DATA_SIZE);
        engine.tick();
        requireState("disconnect", IbCmState.ESTABLISHED);
        sendDreq(data);
    }

    /** {@code ib_send_cm_drep}: answers the DREQ; the connection enters TIMEWAIT. */
    public void drep(final byte[] privateData)
    {
        final byte[] data = Limits.privateData("DREP", privateData, Limits.DREP_PRIVATE_DATA_SIZE);
        engine.tick();
        requireState("drep", IbCmState.DREQ_RCVD);
        drepPrivateData = data;
        enterTimewait();
        engine.send(peer, engine.formatter.drep(tid, localCommId, remoteCommId, data));
    }

    /** {@code ib_send_cm_sidr_req}: resolve a Service ID to a UD QPN and Q_Key. */
    public void sidrRequest(final SidrRequestParameters parameters)
    {
        Objects.requireNonNull(parameters, "parameters");
        engine.tick();
        requireState("sidrRequest", IbCmState.IDLE);
        peer = parameters.peer();
        serviceId = parameters.serviceId();
        tid = localCommId;
        engine.formatter.sidrReq(tid, localCommId, parameters.pkey(), serviceId, parameters.privateData());
        timer.sendAndWait(peer, parameters.timeoutMs(), parameters.maxCmRetries());
        transition(IbCmState.SIDR_REQ_SENT);
    }

    /** {@code ib_send_cm_sidr_rep}: answers a SIDR_REQ; the connection goes back to IDLE. */
    public void sidrReply(final SidrStatus status, final int qpn, final long qKey, final byte[] additionalInfo,
        final byte[] privateData)
    {
        Objects.requireNonNull(status, "status");
        Limits.requireBits("sidrReply qpn", qpn, 24);
        Limits.requireBits("sidrReply qKey", qKey, 32);
        final byte[] info = Limits.sidrInfo(additionalInfo);
        final byte[] data = Limits.privateData("SIDR_REP", privateData, Limits.SIDR_REP_PRIVATE_DATA_SIZE);
        engine.tick();
        requireState("sidrReply", IbCmState.SIDR_REQ_RCVD);
        engine.send(peer, engine.formatter.sidrRep(tid, remoteCommId, status.code(), qpn, serviceId, qKey, info, data));
        transition(IbCmState.IDLE);
        engine.table.removeSidr(sidrKey, this);
        sidrKey = null;
    }

    /**
     * {@code ib_destroy_cm_id}: ends the connection from whatever state as cm.c's {@code cm_destroy_id}
     * does (a REJ, DREQ, DREP or SIDR_REP as the state asks; TIMEWAIT cut short), and frees its comm ID.
     */
    public void close()
    {
        if (closed)
        {
            return;
        }
        engine.tick();
        while (state != IbCmState.IDLE)
        {
            switch (state)
            {
                case LISTEN ->
                {
                    engine.table.removeListener(serviceId);
                    transition(IbCmState.IDLE);
                }
                case SIDR_REQ_SENT ->
                {
                    timer.cancel();
                    transition(IbCmState.IDLE);
                }
                case SIDR_REQ_RCVD -> sidrReply(SidrStatus.REJECT, 0, 0, NONE, NONE);
                case REQ_SENT, MRA_REQ_RCVD ->
                {
                    timer.cancel();
                    final byte[] guid = new byte[8];
                    new UnsafeBuffer(guid).putLong(0, engine.configuration.localCaGuid(), ByteOrder.BIG_ENDIAN);
                    reject(RejectReason.TIMEOUT.code(), guid, NONE);
                }
                case REQ_RCVD, REP_SENT, MRA_REP_RCVD, MRA_REQ_SENT, REP_RCVD, MRA_REP_SENT ->
                    reject(RejectReason.CONSUMER_DEFINED.code(), NONE, NONE);
                case ESTABLISHED -> sendDreq(NONE);
                case DREQ_SENT -> enterTimewait();
                case DREQ_RCVD -> drep(NONE);
                case TIMEWAIT ->
                {
                    timer.cancel();
                    transition(IbCmState.IDLE);
                }
                default -> throw new IllegalStateException("close: unhandled state " + state);
            }
        }
        timer.cancel();
        removeRemote();
        engine.table.removeSidr(sidrKey, this);
        engine.table.remove(this);
        engine.releaseId(localCommId);
        closed = true;
    }

    public boolean isClosed()
    {
        return closed;
    }

    // ---------------------------------------------------------------- inputs from the engine

    /** cm.c {@code cm_req_handler} after {@code cm_match_req} found the listener: this is the new connection. */
    void onReqForListener(final IbCmPeerAddress from, final long reqTid, final ConnectRequest req,
        final ConnectionTable.RemoteKey remoteId, final ConnectionTable.RemoteKey remoteQpnKey)
    {
        peer = from;
        tid = reqTid;
        remoteCommId = req.localCommId();
        serviceId = req.serviceId();
        remoteCaGuid = req.localCaGuid();
        remoteQpn = req.localQpn();
        // cm_req_handler: timeout_ms = cm_convert_to_ms(LOCAL_CM_RESPONSE_TIMEOUT): how long the REP waits
        timeoutMs = IbCmTimeouts.convertToMillis(req.localCmResponseTimeout());
        maxCmRetries = req.maxCmRetries();
        initiatorDepth = req.responderResources();
        responderResources = req.initiatorDepth();
        pathMtu = req.pathMtu();
        pkey = req.partitionKey();
        sendPsn = req.startingPsn();
        retryCount = req.retryCount();
        rnrRetryCount = req.rnrRetryCount();
        flowControl = req.endToEndFlowControl();
        final ConnectRequestPath primary = req.primaryPath();
        // cm_format_path_from_req: packet_life_time = LocalACKTimeout - 1 (not below 0), then
        // cm_init_av_by_path: av->timeout = packet_life_time + 1
        final int localAckTimeout = primary.localAckTimeout();
        final int packetLifeTime = localAckTimeout - (localAckTimeout > 0 ? 1 : 0);
        avTimeout = packetLifeTime + 1;
        path = new IbCmPath(new Gid(primary.remotePortGidSubnetPrefix(), primary.remotePortGidInterfaceId()),
            new Gid(primary.localPortGidSubnetPrefix(), primary.localPortGidInterfaceId()), primary.remotePortLid(),
            primary.localPortLid(), primary.flowLabel(), primary.packetRate(), primary.trafficClass(),
            primary.hopLimit(), primary.sl(), req.pathMtu(), packetLifeTime, req.partitionKey());
        engine.table.insertRemoteId(remoteId, this);
        engine.table.insertRemoteQpn(remoteQpnKey, this);
        this.remoteIdKey = remoteId;
        this.remoteQpnKey = remoteQpnKey;
        transition(IbCmState.REQ_RCVD);
        emit(new IbCmEvent.RequestReceived(serviceId, remoteCaGuid, remoteQpn, (int)remoteCommId, path,
            req.responderResources(), req.initiatorDepth(), req.remoteCmResponseTimeout(),
            req.localCmResponseTimeout(), retryCount, rnrRetryCount, flowControl, req.srq(), from, req.privateData()));
    }

    /** cm.c {@code cm_sidr_req_handler} after the listener was found. */
    void onSidrReqForListener(final IbCmPeerAddress from, final long reqTid, final SidrRequest req,
        final ConnectionTable.SidrKey key)
    {
        peer = from;
        tid = reqTid;
        remoteCommId = req.requestId();
        serviceId = req.serviceId();
        pkey = req.partitionKey();
        sidrKey = key;
        transition(IbCmState.SIDR_REQ_RCVD);
        emit(new IbCmEvent.SidrRequestReceived(serviceId, pkey, from, req.privateData()));
    }

    /** cm.c {@code cm_dup_req_handler}: the same REQ again (our MRA, REP or REJ was lost). */
    void onDuplicateReq(final IbCmPeerAddress from)
    {
        switch (state)
        {
            case MRA_REQ_SENT -> engine.send(from, engine.formatter.mra(tid, localCommId, remoteCommId,
                MessageReceiptAck.MESSAGE_MRAED_REQ, serviceTimeout, mraPrivateData));
            case TIMEWAIT -> engine.send(from, engine.formatter.rej(tid, localCommId, remoteCommId,
                ConnectReject.MESSAGE_REJECTED_OTHER, RejectReason.STALE_CONN.code(), NONE, NONE));
            // REQ_RCVD: the consumer has not answered yet; REP_SENT: the REP's own retries answer
            default -> engine.countDuplicate();
        }
    }

    /** cm.c {@code cm_match_req} and {@code cm_rep_handler} on a stale connection: {@code ib_send_cm_dreq}. */
    void disconnectStale()
    {
        if (state == IbCmState.ESTABLISHED)
        {
            sendDreq(NONE);
        }
    }

    void setReceivedTid(final long receivedTid)
    {
        this.receivedTid = receivedTid;
    }

    void onTimer(final long firedTimerId)
    {
        if (timer.fired(firedTimerId))
        {
            onInput(Input.TIMEOUT, null);
        }
    }

    /** Hands an input to the current state's method; false when the state does not take it (dropped). */
    boolean onInput(final Input input, final IbCmPeerAddress from)
    {
        if (input == Input.DREQ && engine.rxDreq.remoteQpnEecn() != localQpn)
        {
            // cm_dreq_handler: a DREQ for another QP than ours is not for this connection
            return false;
        }
        return switch (state)
        {
            case IDLE, LISTEN, SIDR_REQ_RCVD -> false;
            case REQ_SENT -> reqSent(input, from);
            case REQ_RCVD -> reqRcvd(input);
            case MRA_REQ_SENT -> mraReqSent(input);
            case MRA_REQ_RCVD -> mraReqRcvd(input, from);
            case REP_SENT -> repSent(input);
            case REP_RCVD -> repRcvd(input);
            case MRA_REP_SENT -> mraRepSent(input, from);
            case MRA_REP_RCVD -> mraRepRcvd(input);
            case ESTABLISHED -> established(input, from);
            case DREQ_SENT -> dreqSent(input);
            case DREQ_RCVD -> dreqRcvd(input);
            case TIMEWAIT -> timewait(input, from);
            case SIDR_REQ_SENT -> sidrReqSent(input);
        };
    }

    // ---------------------------------------------------------------- one method per state

    private boolean reqSent(final Input input, final IbCmPeerAddress from)
    {
        return switch (input)
        {
            case REP -> repReceived(from);
            case REJ -> rejReceived();
            case MRA -> mraReceived(MessageReceiptAck.MESSAGE_MRAED_REQ, IbCmState.MRA_REQ_RCVD);
            case TIMEOUT -> timer.retryOr(peer, this::requestTimedOut);
            default -> false;
        };
    }

    private boolean mraReqRcvd(final Input input, final IbCmPeerAddress from)
    {
        return switch (input)
        {
            case REP -> repReceived(from);
            case REJ -> rejReceived();
            // the REQ is still outstanding, now on the MRA's timeout; a second MRA changes nothing
            case TIMEOUT -> timer.retryOr(peer, this::requestTimedOut);
            case MRA -> duplicate();
            default -> false;
        };
    }

    private boolean reqRcvd(final Input input)
    {
        return input == Input.REJ && rejReceived();
    }

    private boolean mraReqSent(final Input input)
    {
        return input == Input.REJ && rejReceived();
    }

    private boolean repSent(final Input input)
    {
        return switch (input)
        {
            case RTU -> rtuReceived();
            case MRA -> mraReceived(MessageReceiptAck.MESSAGE_MRAED_REP, IbCmState.MRA_REP_RCVD);
            case REJ -> rejReceived();
            case DREQ -> dreqReceived();
            case TIMEOUT -> timer.retryOr(peer, this::replyTimedOut);
            default -> false;
        };
    }

    private boolean mraRepRcvd(final Input input)
    {
        return switch (input)
        {
            case RTU -> rtuReceived();
            case REJ -> rejReceived();
            case DREQ -> dreqReceived();
            case TIMEOUT -> timer.retryOr(peer, this::replyTimedOut);
            case MRA -> duplicate();
            default -> false;
        };
    }

    private boolean repRcvd(final Input input)
    {
        return input == Input.REJ && rejReceived();
    }

    private boolean mraRepSent(final Input input, final IbCmPeerAddress from)
    {
        return switch (input)
        {
            case REJ -> rejReceived();
            case DUPLICATE_REP ->
            {
                // cm_dup_rep_handler: the REP again: our MRA was lost
                engine.send(from, engine.formatter.mra(tid, localCommId, remoteCommId,
                    MessageReceiptAck.MESSAGE_MRAED_REP, serviceTimeout, mraPrivateData));
                yield true;
            }
            default -> false;
        };
    }

    private boolean established(final Input input, final IbCmPeerAddress from)
    {
        return switch (input)
        {
            case DUPLICATE_REP ->
            {
                // cm_dup_rep_handler: the REP again: our RTU was lost
                engine.send(from, engine.formatter.rtu(tid, localCommId, remoteCommId, rtuPrivateData));
                yield true;
            }
            case REJ -> rejReceived();
            case DREQ -> dreqReceived();
            // cm_rtu_handler: an RTU after COMM_EST got here first
            case RTU -> duplicate();
            default -> false;
        };
    }

    private boolean dreqSent(final Input input)
    {
        return switch (input)
        {
            // both sides disconnected at once: each answers the other's DREQ
            case DREQ -> dreqReceived();
            case DREP -> drepReceived();
            case REJ -> rejReceived();
            case TIMEOUT -> timer.retryOr(peer, this::disconnectRequestTimedOut);
            default -> false;
        };
    }

    private boolean dreqRcvd(final Input input)
    {
        return switch (input)
        {
            case DREP -> drepReceived();
            case DREQ -> duplicate();
            default -> false;
        };
    }

    private boolean timewait(final Input input, final IbCmPeerAddress from)
    {
        return switch (input)
        {
            case DREQ ->
            {
                // cm_dreq_handler in TIMEWAIT: our DREP was lost; say it again
                engine.send(from, engine.formatter.drep(tid, localCommId, remoteCommId, drepPrivateData));
                yield true;
            }
            case TIMEOUT ->
            {
                transition(IbCmState.IDLE);
                emit(new IbCmEvent.TimewaitExit());
                yield true;
            }
            default -> false;
        };
    }

    private boolean sidrReqSent(final Input input)
    {
        return switch (input)
        {
            case SIDR_REP ->
            {
                final SidrReply rep = engine.rxSidrRep;
                timer.cancel();
                transition(IbCmState.IDLE);
                final byte[] info = new byte[rep.additionalInfoLength()];
                rep.getAdditionalInfo(new UnsafeBuffer(info), 0);
                emit(new IbCmEvent.SidrReplyReceived(rep.status(), rep.qpn(), rep.qKey(), info, rep.privateData()));
                yield true;
            }
            case TIMEOUT -> timer.retryOr(peer, () ->
            {
                transition(IbCmState.IDLE);
                emit(new IbCmEvent.SidrRequestTimedOut());
            });
            default -> false;
        };
    }

    // ---------------------------------------------------------------- what the states share

    /** A message this state has taken already (cm.c's {@code CM_RECV_DUPLICATES} counters): nothing to do. */
    private boolean duplicate()
    {
        engine.countDuplicate();
        return true;
    }

    /** cm.c {@code cm_rep_handler}, REQ_SENT or MRA_REQ_RCVD. */
    private boolean repReceived(final IbCmPeerAddress from)
    {
        final ConnectReply rep = engine.rxRep;
        final ConnectionTable.RemoteKey remoteId = new ConnectionTable.RemoteKey(rep.localCommId(), rep.localCaGuid());
        final ConnectionTable.RemoteKey remoteQpnKey = new ConnectionTable.RemoteKey(rep.localQpn(), rep.localCaGuid());
        if (engine.table.byRemoteId(remoteId) != null)
        {
            // a REP from a comm ID that another connection of ours already has: a duplicate
            return false;
        }
        final IbCmConnection stale = engine.table.byRemoteQpn(remoteQpnKey);
        if (stale != null)
        {
            // the REQ stays outstanding, as in cm.c; the REP is rejected and the old connection ended
            engine.issueRejForReceived(from, RejectReason.STALE_CONN, ConnectReject.MESSAGE_REJECTED_REP,
                rep.localCommId(), rep.remoteCommId());
            stale.disconnectStale();
            return true;
        }
        engine.table.insertRemoteId(remoteId, this);
        engine.table.insertRemoteQpn(remoteQpnKey, this);
        this.remoteIdKey = remoteId;
        this.remoteQpnKey = remoteQpnKey;
        remoteCommId = rep.localCommId();
        remoteCaGuid = rep.localCaGuid();
        remoteQpn = rep.localQpn();
        initiatorDepth = rep.responderResources();
        responderResources = rep.initiatorDepth();
        sendPsn = rep.startingPsn();
        rnrRetryCount = rep.rnrRetryCount();
        // cm_rep_handler: av.timeout = cm_ack_timeout(target_ack_delay, av.timeout - 1)
        avTimeout = IbCmTimeouts.ackTimeout(rep.targetAckDelay(), avTimeout - 1);
        timer.cancel();
        transition(IbCmState.REP_RCVD);
        emit(new IbCmEvent.ReplyReceived(remoteQpn, sendPsn, rep.responderResources(), rep.initiatorDepth(),
            rep.targetAckDelay(), rep.failoverAccepted(), rep.endToEndFlowControl(), rnrRetryCount, rep.srq(),
            remoteCaGuid, rep.privateData()));
        if (state == IbCmState.REP_RCVD && !closed)
        {
            completeWithRtu(NONE);
        }
        return true;
    }

    /** rdma_cm's {@code cma_rep_recv}: the QP to RTR and RTS, then {@code ib_send_cm_rtu}. */
    private void completeWithRtu(final byte[] privateData)
    {
        try
        {
            moveQpToReadyToSend();
        }
        catch (final RuntimeException failed)
        {
            reject(RejectReason.CONSUMER_DEFINED.code(), NONE, NONE);
            emit(new IbCmEvent.ConnectError(failed));
            return;
        }
        rtuPrivateData = privateData;
        engine.send(peer, engine.formatter.rtu(tid, localCommId, remoteCommId, privateData));
        transition(IbCmState.ESTABLISHED);
        emit(new IbCmEvent.Established(IbCmEvent.EstablishedBy.RTU_SENT, NONE));
    }

    private boolean rtuReceived()
    {
        timer.cancel();
        transition(IbCmState.ESTABLISHED);
        emit(new IbCmEvent.Established(IbCmEvent.EstablishedBy.RTU_RECEIVED, engine.rxRtu.privateData()));
        return true;
    }

    /** cm.c {@code cm_mra_handler}: the outstanding message now waits service timeout + av.timeout. */
    private boolean mraReceived(final int expectedMraed, final IbCmState next)
    {
        final MessageReceiptAck mra = engine.rxMra;
        if (mra.messageMraed() != expectedMraed || !timer.waiting())
        {
            return false;
        }
        // cm_mra_handler: timeout = cm_convert_to_ms(service_timeout) + cm_convert_to_ms(av.timeout)
        final long extended = IbCmTimeouts.convertToMillis(mra.serviceTimeout()) +
            IbCmTimeouts.convertToMillis(avTimeout);
        // ib_modify_mad: this wait and every retry's from now on; the retries left stay as they were
        timer.extendWait(extended);
        transition(next);
        emit(new IbCmEvent.MraReceived(mra.serviceTimeout(), mra.privateData()));
        return true;
    }

    /** cm.c {@code cm_rej_handler}. */
    private boolean rejReceived()
    {
        final ConnectReject rej = engine.rxRej;
        final int reason = rej.reason();
        switch (state)
        {
            case REQ_SENT, MRA_REQ_RCVD, REP_SENT, MRA_REP_RCVD, REQ_RCVD, MRA_REQ_SENT ->
            {
                if (reason == RejectReason.STALE_CONN.code())
                {
                    enterTimewait();
                }
                else
                {
                    resetToIdle();
                }
            }
            case DREQ_SENT, REP_RCVD, MRA_REP_SENT, ESTABLISHED -> enterTimewait();
            default ->
            {
                return false;
            }
        }
        final byte[] ari = new byte[rej.rejectedInfoLength()];
        rej.getAri(new UnsafeBuffer(ari), 0);
        emit(new IbCmEvent.Rejected(reason, ari, rej.privateData()));
        return true;
    }

    /** cm.c {@code cm_dreq_handler}: REP_SENT, MRA_REP_RCVD, ESTABLISHED, DREQ_SENT. */
    private boolean dreqReceived()
    {
        final DisconnectRequest dreq = engine.rxDreq;
        timer.cancel();
        tid = receivedTid;
        transition(IbCmState.DREQ_RCVD);
        emit(new IbCmEvent.DisconnectRequested(dreq.privateData()));
        return true;
    }

    /** cm.c {@code cm_drep_handler}: DREQ_SENT or DREQ_RCVD. */
    private boolean drepReceived()
    {
        enterTimewait();
        emit(new IbCmEvent.DisconnectReplyReceived(engine.rxDrep.privateData()));
        return true;
    }

    private void requestTimedOut()
    {
        // cm_process_send_error, IB_CM_REQ_ERROR: no REJ goes out, the peer never answered
        resetToIdle();
        emit(new IbCmEvent.RequestTimedOut());
    }

    private void replyTimedOut()
    {
        resetToIdle();
        emit(new IbCmEvent.ReplyTimedOut());
    }

    private void disconnectRequestTimedOut()
    {
        enterTimewait();
        emit(new IbCmEvent.DisconnectRequestTimedOut());
    }

    private void sendDreq(final byte[] privateData)
    {
        // cm_format_dreq: a TID of its own (cm_form_tid), and the QPN the peer must check against its own
        engine.formatter.dreq(localCommId, localCommId, remoteCommId, remoteQpn, privateData);
        timer.sendAndWait(peer, timeoutMs, maxCmRetries);
        transition(IbCmState.DREQ_SENT);
    }

    /** cm.c {@code cm_enter_timewait}: out of the remote tables, IDLE after cm_convert_to_ms(av.timeout). */
    private void enterTimewait()
    {
        timer.cancel();
        removeRemote();
        transition(IbCmState.TIMEWAIT);
        timer.schedule(IbCmTimeouts.convertToMillis(avTimeout));
    }

    /** cm.c {@code cm_reset_to_idle}. */
    private void resetToIdle()
    {
        timer.cancel();
        removeRemote();
        transition(IbCmState.IDLE);
    }

    private void removeRemote()
    {
        engine.table.removeRemote(remoteIdKey, remoteQpnKey, this);
        remoteIdKey = null;
        remoteQpnKey = null;
    }

    private void moveQpToReadyToSend()
    {
        final QpAttributes attributes = qpAttributes();
        qpModified = true;
        qp.readyToReceive(this, attributes);
        qp.readyToSend(this, attributes);
    }

    private void transition(final IbCmState to)
    {
        final IbCmState from = state;
        state = to;
        engine.traceTransition(this, from, to);
        if (qpModified && !qpErrored &&
            (to == IbCmState.IDLE || to == IbCmState.TIMEWAIT || to == IbCmState.DREQ_SENT || to == IbCmState.DREQ_RCVD))
        {
            // the connection is ending: flush the QP (rdma_cm's cma_modify_qp_err)
            qpErrored = true;
            qp.error(this);
        }
    }

    private void emit(final IbCmEvent event)
    {
        handler.onEvent(this, event);
    }

    private void requireState(final String call, final IbCmState... allowed)
    {
        if (closed)
        {
            throw new IllegalStateException(call + ": the connection is closed");
        }
        for (final IbCmState candidate : allowed)
        {
            if (state == candidate)
            {
                return;
            }
        }
        throw wrongState(call);
    }

    private IllegalStateException wrongState(final String call)
    {
        return new IllegalStateException(call + " is not allowed in state " + state +
            (closed ? " (closed)" : "") + " (ib_cm: EINVAL)");
    }

    @Override
    public String toString()
    {
        return "IbCmConnection{local=0x" + Long.toHexString(localCommId) + ", remote=0x" + Long.toHexString(remoteCommId) +
            ", " + state + "}";
    }
}
