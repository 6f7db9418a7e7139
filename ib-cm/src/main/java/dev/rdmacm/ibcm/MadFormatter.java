package dev.rdmacm.ibcm;

import dev.rdmacm.protocol.cm.CmMessage;
import dev.rdmacm.protocol.cm.ConnectReject;
import dev.rdmacm.protocol.cm.ConnectReply;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.DisconnectReply;
import dev.rdmacm.protocol.cm.DisconnectRequest;
import dev.rdmacm.protocol.cm.MessageReceiptAck;
import dev.rdmacm.protocol.cm.ReadyToUse;
import dev.rdmacm.protocol.cm.SidrReply;
import dev.rdmacm.protocol.cm.SidrRequest;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes each CM message the engine sends into one 256-byte MAD buffer, field for field as cm.c's
 * {@code cm_format_*} functions do; every method returns that buffer, valid until the next call. A
 * message that waits for an answer is copied out ({@link #copy}) so that its retries send the same bytes.
 */
final class MadFormatter
{
    /** cm.c {@code cm_format_req}: a LID the REQ cannot know when the path leaves the subnet. */
    static final int PERMISSIVE_LID = 0xffff;

    private final byte[] bytes = new byte[MadHeader.MAD_SIZE];
    private final UnsafeBuffer mad = new UnsafeBuffer(bytes);
    private final UnsafeBuffer source = new UnsafeBuffer(new byte[0]);
    private final MadHeader header = new MadHeader();
    private final ConnectRequest req = new ConnectRequest();
    private final ConnectReply rep = new ConnectReply();
    private final ReadyToUse rtu = new ReadyToUse();
    private final MessageReceiptAck mra = new MessageReceiptAck();
    private final ConnectReject rej = new ConnectReject();
    private final DisconnectRequest dreq = new DisconnectRequest();
    private final DisconnectReply drep = new DisconnectReply();
    private final SidrRequest sidrReq = new SidrRequest();
    private final SidrReply sidrRep = new SidrReply();

    byte[] copy()
    {
        return bytes.clone();
    }

    DirectBuffer req(final long tid, final long localId, final long localCaGuid, final ConnectParameters p,
        final int startingPsn, final int localAckTimeout)
    {
        final IbCmPath path = p.path();
        req.encodeMad(mad, 0, header, tid)
            .localCommId(localId)
            .serviceId(p.serviceId())
            .localCaGuid(localCaGuid)
            .localQpn(p.localQpn())
            .responderResources(p.responderResources())
            .initiatorDepth(p.initiatorDepth())
            .remoteCmResponseTimeout(p.remoteCmResponseTimeout())
            .transportServiceType(p.unreliable() ? ConnectRequest.TRANSPORT_SERVICE_TYPE_UC :
                ConnectRequest.TRANSPORT_SERVICE_TYPE_RC)
            .endToEndFlowControl(p.flowControl())
            .startingPsn(startingPsn)
            .localCmResponseTimeout(p.localCmResponseTimeout())
            .partitionKey(path.pkey())
            .pathMtu(path.mtu())
            .maxCmRetries(p.maxCmRetries())
            .retryCount(p.retryCount())
            .rnrRetryCount(p.rnrRetryCount())
            .srq(p.srq());
        final boolean subnetLocal = path.hopLimit() <= 1;
        req.primaryPath()
            .localPortGid(path.sgid())
            .remotePortGid(path.dgid())
            .localPortLid(subnetLocal ? path.slid() : PERMISSIVE_LID)
            .remotePortLid(subnetLocal ? path.dlid() : PERMISSIVE_LID)
            .flowLabel(path.flowLabel())
            .packetRate(path.rate())
            .trafficClass(path.trafficClass())
            .hopLimit(path.hopLimit())
            .sl(path.sl())
            .subnetLocal(subnetLocal)
            .localAckTimeout(localAckTimeout);
        return withPrivateData(req, p.privateData());
    }

    DirectBuffer rep(final long tid, final long localId, final long remoteId, final long localCaGuid,
        final AcceptParameters p, final int startingPsn, final int targetAckDelay)
    {
        rep.encodeMad(mad, 0, header, tid)
            .localCommId(localId)
            .remoteCommId(remoteId)
            .startingPsn(startingPsn)
            .responderResources(p.responderResources())
            .targetAckDelay(targetAckDelay)
            .failoverAccepted(p.failoverAccepted())
            .rnrRetryCount(p.rnrRetryCount())
            .localCaGuid(localCaGuid)
            .initiatorDepth(p.initiatorDepth())
            .endToEndFlowControl(p.flowControl())
            .srq(p.srq())
            .localQpn(p.localQpn());
        return withPrivateData(rep, p.privateData());
    }

    DirectBuffer rtu(final long tid, final long localId, final long remoteId, final byte[] privateData)
    {
        rtu.encodeMad(mad, 0, header, tid).localCommId(localId).remoteCommId(remoteId);
        return withPrivateData(rtu, privateData);
    }

    DirectBuffer mra(final long tid, final long localId, final long remoteId, final int messageMraed,
        final int serviceTimeout, final byte[] privateData)
    {
        mra.encodeMad(mad, 0, header, tid)
            .messageMraed(messageMraed)
            .localCommId(localId)
            .remoteCommId(remoteId)
            .serviceTimeout(serviceTimeout);
        return withPrivateData(mra, privateData);
    }

    DirectBuffer rej(final long tid, final long localIdField, final long remoteId, final int messageRejected,
        final int reason, final byte[] ari, final byte[] privateData)
    {
        rej.encodeMad(mad, 0, header, tid)
            .remoteCommId(remoteId)
            .localCommId(localIdField)
            .messageRejected(messageRejected)
            .reason(reason);
        if (ari.length > 0)
        {
            source.wrap(ari);
            rej.ari(source, 0, ari.length);
        }
        return withPrivateData(rej, privateData);
    }

    /** cm.c {@code cm_issue_rej}: no ARI, no private data. */
    DirectBuffer issueRej(final long tid, final long localIdField, final long remoteId, final int reason,
        final int messageRejected)
    {
        rej.encodeMad(mad, 0, header, tid)
            .remoteCommId(remoteId)
            .localCommId(localIdField)
            .messageRejected(messageRejected)
            .reason(reason);
        return mad;
    }

    DirectBuffer dreq(final long tid, final long localId, final long remoteId, final int remoteQpn,
        final byte[] privateData)
    {
        dreq.encodeMad(mad, 0, header, tid).localCommId(localId).remoteCommId(remoteId).remoteQpnEecn(remoteQpn);
        return withPrivateData(dreq, privateData);
    }

    DirectBuffer drep(final long tid, final long localId, final long remoteId, final byte[] privateData)
    {
        drep.encodeMad(mad, 0, header, tid).localCommId(localId).remoteCommId(remoteId);
        return withPrivateData(drep, privateData);
    }

    /** cm.c {@code cm_issue_drep}: the answer to a DREQ that matches nothing, its IDs swapped. */
    DirectBuffer drepFor(final long tid, final long localIdField, final long remoteId)
    {
        drep.encodeMad(mad, 0, header, tid).localCommId(localIdField).remoteCommId(remoteId);
        return mad;
    }

    DirectBuffer sidrReq(final long tid, final long requestId, final int pkey, final long serviceId,
        final byte[] privateData)
    {
        sidrReq.encodeMad(mad, 0, header, tid).requestId(requestId).partitionKey(pkey).serviceId(serviceId);
        return withPrivateData(sidrReq, privateData);
    }

    DirectBuffer sidrRep(final long tid, final long requestId, final int status, final int qpn, final long serviceId,
        final long qKey, final byte[] info, final byte[] privateData)
    {
        sidrRep.encodeMad(mad, 0, header, tid)
            .requestId(requestId)
            .status(status)
            .qpn(qpn)
            .serviceId(serviceId)
            .qKey(qKey);
        if (info.length > 0)
        {
            source.wrap(info);
            sidrRep.additionalInfo(source, 0, info.length);
        }
        return withPrivateData(sidrRep, privateData);
    }

    private DirectBuffer withPrivateData(final CmMessage<?> message, final byte[] privateData)
    {
        if (privateData.length > 0)
        {
            source.wrap(privateData);
            message.privateData(source, 0, privateData.length);
        }
        return mad;
    }
}
