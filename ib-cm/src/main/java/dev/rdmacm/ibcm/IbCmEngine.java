package dev.rdmacm.ibcm;

import dev.rdmacm.loop.DeadlineTimers;
import dev.rdmacm.loop.NanoClock;
import dev.rdmacm.loop.TransitionListener;
import dev.rdmacm.protocol.MalformedMessageException;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.CmMad;
import dev.rdmacm.protocol.cm.ConnectReject;
import dev.rdmacm.protocol.cm.ConnectReply;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.DisconnectReply;
import dev.rdmacm.protocol.cm.DisconnectRequest;
import dev.rdmacm.protocol.cm.IbCmState;
import dev.rdmacm.protocol.cm.MessageReceiptAck;
import dev.rdmacm.protocol.cm.ReadyToUse;
import dev.rdmacm.protocol.cm.RejectReason;
import dev.rdmacm.protocol.cm.SidrReply;
import dev.rdmacm.protocol.cm.SidrRequest;
import dev.rdmacm.protocol.cm.SidrStatus;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.ManagementClass;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The IB CM protocol engine of one CA port (ib_cm's layer: drivers/infiniband/core/cm.c): it owns the
 * connections, demultiplexes every received CM MAD to one of them as ib_cm does, and runs their timers.
 * It has no I/O and no thread of its own: MADs come in through {@link #onMadReceived} and go out through
 * a {@link IbCmMadSender}; time is the injected {@link DeadlineTimers}' clock, and the loop that owns the
 * engine calls {@link #doWork} when {@link #nanosToNextDeadline} says a timer is due. Not thread-safe:
 * one loop thread calls everything, the consumers' calls included.
 * <p>
 * Demultiplexing (cm.c {@code cm_recv_handler} and the per-message handlers):
 * <ul>
 *   <li>REQ: a duplicate (remote comm ID and CA GUID known) goes to its connection, which re-sends its
 *   MRA, or its REJ when in TIMEWAIT, or drops it; a REQ from a QP that a live connection already talks
 *   to is stale: REJ reason 10 and a DREQ on the old connection; no listener on the Service ID: REJ
 *   reason 8 ({@code IB_CM_REJ_INVALID_SERVICE_ID}); a listener whose consumer does not take it (its
 *   backlog used up): dropped, nothing kept ({@link IbCmEventHandler#takesRequest}); else a new connection
 *   in REQ_RCVD.</li>
 *   <li>every other message by its RemoteCommunicationID, the receiver's local ID, checked against the
 *   connection's remote ID as {@code cm_acquire_id} does; a DREQ that matches nothing is still answered
 *   with a DREP ({@code cm_issue_drep}).</li>
 * </ul>
 * LAP, APR and ClassPortInfo are dropped (see docs/connection.md).
 */
public final class IbCmEngine
{
    /**
     * What the engine needs to know of its CA.
     *
     * @param localCaGuid the CA's node GUID, the REQ's and REP's LocalCAGUID.
     * @param caAckDelay  the CA's {@code local_ca_ack_delay} (ibv_query_device), the REP's TargetACKDelay
     *                    and an input of the REQ's LocalACKTimeout; 5 bits.
     */
    public record Configuration(long localCaGuid, int caAckDelay)
    {
        public Configuration
        {
            Limits.requireBits("IbCmEngine caAckDelay", caAckDelay, 5);
        }
    }

    private static final int EXPIRY_LIMIT = 64;
    private static final byte[] NONE = new byte[0];

    final Configuration configuration;
    final DeadlineTimers<IbCmConnection> timers;
    final ConnectionTable table = new ConnectionTable();
    final MadFormatter formatter = new MadFormatter();
    private final NanoClock clock;
    private final IbCmMadSender sender;
    private final RandomGenerator random;
    private final TransitionListener<IbCmConnection, IbCmState> transitionListener;
    private final CommIdAllocator commIds;
    private final DeadlineTimers.Expiry<IbCmConnection> onDeadline = (connection, timerId, now) ->
        connection.onTimer(timerId);

    // Received messages are read through these, apart from the formatter's, so that an answer can be
    // written while the message it answers is still being read.
    final MadHeader rxHeader = new MadHeader();
    final ConnectRequest rxReq = new ConnectRequest();
    final ConnectReply rxRep = new ConnectReply();
    final ConnectReject rxRej = new ConnectReject();
    final MessageReceiptAck rxMra = new MessageReceiptAck();
    final ReadyToUse rxRtu = new ReadyToUse();
    final DisconnectRequest rxDreq = new DisconnectRequest();
    final DisconnectReply rxDrep = new DisconnectReply();
    final SidrRequest rxSidrReq = new SidrRequest();
    final SidrReply rxSidrRep = new SidrReply();
    private final UnsafeBuffer ariScratch = new UnsafeBuffer(new byte[ConnectReject.ARI_CAPACITY]);

    private final UnsafeBuffer sendScratch = new UnsafeBuffer(new byte[0]);
    private long nowNanos;
    private long dropped;
    private long refusedRequests;
    private long duplicates;
    private long sendFailures;

    /**
     * @param timers             the loop's timers; their clock is the engine's.
     * @param random             draws the comm-ID operand (once, here) and every starting PSN.
     * @param transitionListener sees every state change of every connection.
     */
    public IbCmEngine(final Configuration configuration, final DeadlineTimers<IbCmConnection> timers,
        final IbCmMadSender sender, final RandomGenerator random,
        final TransitionListener<IbCmConnection, IbCmState> transitionListener)
    {
        this.configuration = Objects.requireNonNull(configuration, "configuration");
        this.timers = Objects.requireNonNull(timers, "timers");
        this.clock = timers.clock();
        this.sender = Objects.requireNonNull(sender, "sender");
        this.random = Objects.requireNonNull(random, "random");
        this.transitionListener = Objects.requireNonNull(transitionListener, "transitionListener");
        this.commIds = new CommIdAllocator(random.nextInt());
        this.nowNanos = clock.nanoTime();
    }

    /** A new connection in IDLE with its local comm ID ({@code ib_create_cm_id}). */
    public IbCmConnection createConnection(final IbCmEventHandler handler)
    {
        Objects.requireNonNull(handler, "handler");
        tick();
        final IbCmConnection connection = new IbCmConnection(this, commIds.allocate(), handler);
        table.add(connection);
        return connection;
    }

    /** The connections that exist (not yet closed), listeners included. */
    public List<IbCmConnection> connections()
    {
        return table.connections();
    }

    /** Received MADs that matched no connection or no state that takes them, or did not parse. */
    public long droppedMads()
    {
        return dropped;
    }

    /**
     * New REQs and SIDR_REQs that a listener's consumer did not take ({@link IbCmEventHandler#takesRequest}):
     * REQs dropped without a trace, SIDR_REQs answered REJECT.
     */
    public long refusedRequests()
    {
        return refusedRequests;
    }

    /** How long the loop may wait from {@code now}: 0 when a timer is due, {@link Long#MAX_VALUE} with none. */
    public long nanosToNextDeadline(final long now)
    {
        return timers.nanosToEarliest(now);
    }

    /** Runs every timer due at {@code now} (retries, timeouts, timewait exits); returns how many ran. */
    public int doWork(final long now)
    {
        nowNanos = now;
        return timers.expire(now, onDeadline, EXPIRY_LIMIT);
    }

    /**
     * One received MAD of the CM class, {@code length} bytes at {@code offset} (256 for a CM MAD), from
     * {@code from}, the address answers go to.
     */
    public void onMadReceived(final IbCmPeerAddress from, final DirectBuffer buffer, final int offset, final int length)
    {
        tick();
        try
        {
            rxHeader.wrap(buffer, offset, length);
            if (rxHeader.mgmtClass() != ManagementClass.COMM_MGT || rxHeader.classVersion() != CmMad.CLASS_VERSION ||
                rxHeader.method() != MadMethod.SEND)
            {
                dropped++;
                return;
            }
            final CmAttribute attribute = CmAttribute.fromId(rxHeader.attributeId());
            if (attribute == null)
            {
                dropped++;
                return;
            }
            final long tid = rxHeader.transactionId();
            switch (attribute)
            {
                case REQ -> onReq(from, tid, buffer, offset, length);
                case MRA -> onMra(from, buffer, offset, length);
                case REJ -> onRej(from, buffer, offset, length);
                case REP -> onRep(from, buffer, offset, length);
                case RTU -> onRtu(from, buffer, offset, length);
                case DREQ -> onDreq(from, tid, buffer, offset, length);
                case DREP -> onDrep(from, buffer, offset, length);
                case SIDR_REQ -> onSidrReq(from, tid, buffer, offset, length);
                case SIDR_REP -> onSidrRep(from, buffer, offset, length);
                default -> dropped++;
            }
        }
        catch (final MalformedMessageException malformed)
        {
            dropped++;
        }
    }

    private void onReq(final IbCmPeerAddress from, final long tid, final DirectBuffer buffer, final int offset,
        final int length)
    {
        final ConnectRequest req = rxReq.wrapMad(buffer, offset, length);
        final ConnectionTable.RemoteKey remoteId = new ConnectionTable.RemoteKey(req.localCommId(), req.localCaGuid());
        final IbCmConnection duplicateOf = table.byRemoteId(remoteId);
        if (duplicateOf != null)
        {
            duplicateOf.onDuplicateReq(from);
            return;
        }
        final ConnectionTable.RemoteKey remoteQpn = new ConnectionTable.RemoteKey(req.localQpn(), req.localCaGuid());
        final IbCmConnection stale = table.byRemoteQpn(remoteQpn);
        if (stale != null)
        {
            // cm_match_req: the peer reused a QP we still think is connected; reject the new REQ and end the old
            issueRej(from, tid, buffer, offset, RejectReason.STALE_CONN, ConnectReject.MESSAGE_REJECTED_REQ);
            stale.disconnectStale();
            return;
        }
        final IbCmConnection listener = table.listener(req.serviceId());
        if (listener == null)
        {
            issueRej(from, tid, buffer, offset, RejectReason.INVALID_SERVICE_ID, ConnectReject.MESSAGE_REJECTED_REQ);
            return;
        }
        if (!listener.handler().takesRequest(from))
        {
            // cm_destroy_id(-ENOMEM) in REQ_RCVD: no REJ and nothing kept; the peer's retry is a new REQ
            refusedRequests++;
            return;
        }
        final IbCmConnection connection = new IbCmConnection(this, commIds.allocate(), listener.handler());
        table.add(connection);
        connection.onReqForListener(from, tid, req, remoteId, remoteQpn);
    }

    private void onMra(final IbCmPeerAddress from, final DirectBuffer buffer, final int offset, final int length)
    {
        final MessageReceiptAck mra = rxMra.wrapMad(buffer, offset, length);
        final IbCmConnection connection = switch (mra.messageMraed())
        {
            case MessageReceiptAck.MESSAGE_MRAED_REQ -> table.acquire(mra.remoteCommId(), 0);
            case MessageReceiptAck.MESSAGE_MRAED_REP, MessageReceiptAck.MESSAGE_MRAED_LAP ->
                table.acquire(mra.remoteCommId(), mra.localCommId());
            default -> null;
        };
        deliver(connection, IbCmConnection.Input.MRA, from);
    }

    private void onRej(final IbCmPeerAddress from, final DirectBuffer buffer, final int offset, final int length)
    {
        final ConnectReject rej = rxRej.wrapMad(buffer, offset, length);
        // cm_acquire_rejected_id
        final IbCmConnection connection;
        if (rej.reason() == RejectReason.TIMEOUT.code())
        {
            // ib_cm's REJ(timeout) carries the rejecting CA's GUID as its ARI
            rej.getAri(ariScratch, 0);
            final long caGuid = rej.rejectedInfoLength() >= 8 ? ariScratch.getLong(0, ByteOrder.BIG_ENDIAN) : 0;
            final IbCmConnection byRemote = table.byRemoteId(new ConnectionTable.RemoteKey(rej.localCommId(), caGuid));
            connection = byRemote == null ? null : table.acquire(byRemote.localCommId(), rej.localCommId());
        }
        else if (rej.messageRejected() == ConnectReject.MESSAGE_REJECTED_REQ)
        {
            connection = table.acquire(rej.remoteCommId(), 0);
        }
        else
        {
            connection = table.acquire(rej.remoteCommId(), rej.localCommId());
        }
        deliver(connection, IbCmConnection.Input.REJ, from);
    }

    private void onRep(final IbCmPeerAddress from, final DirectBuffer buffer, final int offset, final int length)
    {
        final ConnectReply rep = rxRep.wrapMad(buffer, offset, length);
        final IbCmConnection connection = table.acquire(rep.remoteCommId(), 0);
        if (connection != null)
        {
            deliver(connection, IbCmConnection.Input.REP, from);
        }
        else
        {
            // cm_dup_rep_handler: the REP again, after ours moved on (our RTU or MRA was lost)
            deliver(table.acquire(rep.remoteCommId(), rep.localCommId()), IbCmConnection.Input.DUPLICATE_REP, from);
        }
    }

    private void onRtu(final IbCmPeerAddress from, final DirectBuffer buffer, final int offset, final int length)
    {
        final ReadyToUse rtu = rxRtu.wrapMad(buffer, offset, length);
        deliver(table.acquire(rtu.remoteCommId(), rtu.localCommId()), IbCmConnection.Input.RTU, from);
    }

    private void onDreq(final IbCmPeerAddress from, final long tid, final DirectBuffer buffer, final int offset,
        final int length)
    {
        final DisconnectRequest dreq = rxDreq.wrapMad(buffer, offset, length);
        final IbCmConnection connection = table.acquire(dreq.remoteCommId(), dreq.localCommId());
        if (connection == null)
        {
            // cm_issue_drep: whatever this was, it is gone here; say so, so the peer need not retry
            dropped++;
            send(from, formatter.drepFor(tid, dreq.remoteCommId(), dreq.localCommId()));
            return;
        }
        connection.setReceivedTid(tid);
        deliver(connection, IbCmConnection.Input.DREQ, from);
    }

    private void onDrep(final IbCmPeerAddress from, final DirectBuffer buffer, final int offset, final int length)
    {
        final DisconnectReply drep = rxDrep.wrapMad(buffer, offset, length);
        deliver(table.acquire(drep.remoteCommId(), drep.localCommId()), IbCmConnection.Input.DREP, from);
    }

    private void onSidrReq(final IbCmPeerAddress from, final long tid, final DirectBuffer buffer, final int offset,
        final int length)
    {
        final SidrRequest req = rxSidrReq.wrapMad(buffer, offset, length);
        final ConnectionTable.SidrKey key = new ConnectionTable.SidrKey(req.requestId(), from.gid());
        if (table.sidrBeingServed(key))
        {
            // cm_sidr_req_handler: a duplicate of one being served
            dropped++;
            return;
        }
        final IbCmConnection listener = table.listener(req.serviceId());
        if (listener == null)
        {
            send(from, formatter.sidrRep(tid, req.requestId(), SidrStatus.UNSUPPORTED.code(), 0, req.serviceId(), 0,
                NONE, NONE));
            return;
        }
        if (!listener.handler().takesRequest(from))
        {
            // cm_destroy_id(-ENOMEM) in SIDR_REQ_RCVD: SIDR_REP REJECT, and nothing kept
            refusedRequests++;
            send(from, formatter.sidrRep(tid, req.requestId(), SidrStatus.REJECT.code(), 0, req.serviceId(), 0, NONE,
                NONE));
            return;
        }
        final IbCmConnection connection = new IbCmConnection(this, commIds.allocate(), listener.handler());
        table.insertSidr(key, connection);
        table.add(connection);
        connection.onSidrReqForListener(from, tid, req, key);
    }

    private void onSidrRep(final IbCmPeerAddress from, final DirectBuffer buffer, final int offset, final int length)
    {
        final SidrReply rep = rxSidrRep.wrapMad(buffer, offset, length);
        deliver(table.acquire(rep.requestId(), 0), IbCmConnection.Input.SIDR_REP, from);
    }

    private void deliver(final IbCmConnection connection, final IbCmConnection.Input input, final IbCmPeerAddress from)
    {
        if (connection == null || !connection.onInput(input, from))
        {
            dropped++;
        }
    }

    /**
     * cm.c {@code cm_issue_rej}: a REJ for a received MAD that has no connection: the IDs swapped from the
     * received message's first two words, its TID, no private data.
     */
    private void issueRej(final IbCmPeerAddress to, final long tid, final DirectBuffer buffer, final int offset,
        final RejectReason reason, final int messageRejected)
    {
        final int message = offset + CmMad.MESSAGE_OFFSET;
        final long receivedLocal = Integer.toUnsignedLong(buffer.getInt(message, ByteOrder.BIG_ENDIAN));
        final long receivedRemote = Integer.toUnsignedLong(buffer.getInt(message + 4, ByteOrder.BIG_ENDIAN));
        send(to, formatter.issueRej(tid, receivedRemote, receivedLocal, reason.code(), messageRejected));
    }

    /**
     * A REJ answering the received MAD (whose header {@link #rxHeader} still reads) that no connection
     * takes: its IDs swapped, as {@code cm_issue_rej} does.
     */
    void issueRejForReceived(final IbCmPeerAddress to, final RejectReason reason, final int messageRejected,
        final long receivedLocalId, final long receivedRemoteId)
    {
        send(to, formatter.issueRej(rxHeader.transactionId(), receivedRemoteId, receivedLocalId, reason.code(),
            messageRejected));
    }

    void send(final IbCmPeerAddress to, final DirectBuffer mad)
    {
        try
        {
            sender.send(to, mad, 0, MadHeader.MAD_SIZE);
        }
        catch (final RuntimeException failed)
        {
            // a send that fails is a MAD lost on the way: the retries (ours or the peer's) cover it
            sendFailures++;
        }
    }

    void sendBytes(final IbCmPeerAddress to, final byte[] mad)
    {
        sendScratch.wrap(mad);
        send(to, sendScratch);
    }

    void countDuplicate()
    {
        duplicates++;
    }

    /** Received MADs that repeated one already taken (a retried REQ, REP, RTU, DREQ, MRA) and needed no answer. */
    public long duplicateMads()
    {
        return duplicates;
    }

    /** Sends the MAD transport refused; each counts as a MAD lost. */
    public long sendFailures()
    {
        return sendFailures;
    }

    int randomPsn()
    {
        return random.nextInt() & 0xff_ffff;
    }

    void releaseId(final long localCommId)
    {
        commIds.release(localCommId);
    }

    long now()
    {
        return nowNanos;
    }

    /** Reads the clock at an entry point, so that the transitions it causes are traced at that time. */
    void tick()
    {
        nowNanos = clock.nanoTime();
    }

    void traceTransition(final IbCmConnection connection, final IbCmState from, final IbCmState to)
    {
        transitionListener.onTransition(connection, from, to, nowNanos);
    }
}
