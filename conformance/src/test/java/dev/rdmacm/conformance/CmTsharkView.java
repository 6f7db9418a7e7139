package dev.rdmacm.conformance;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.cm.CmAttribute;
import dev.rdmacm.protocol.cm.ConnectReject;
import dev.rdmacm.protocol.cm.ConnectReply;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.ConnectRequestPath;
import dev.rdmacm.protocol.cm.DisconnectReply;
import dev.rdmacm.protocol.cm.DisconnectRequest;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.cm.ReadyToUse;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A CM MAD as this project's decoders read it, spelt as tshark 4.0 prints each field
 * ({@code -T ek}), so that the two decoders can be compared field by field on the same bytes. The
 * fields tshark gets wrong (the REQ's flow label and packet rate, dissector bugs 1 and 2 in
 * {@code tshark-infiniband.md}) are left out. An IPv4-mapped path GID, as RoCE v2 over IPv4 carries,
 * is {@code prim_localgid_ipv4} in dotted form: tshark 4.0's dissector switches fields for it.
 */
final class CmTsharkView
{
    private static final String CM = "infiniband.cm.";

    private CmTsharkView()
    {
    }

    /** The fields of {@code mad}; an attribute tshark does not decode gives the MAD header only. */
    static Map<String, String> of(final byte[] mad)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(mad);
        final MadHeader header = new MadHeader().wrap(buffer, 0, mad.length);
        final Map<String, String> fields = new LinkedHashMap<>();
        fields.put("infiniband.mad.mgmtclass", hex(header.mgmtClass(), 2));
        fields.put("infiniband.mad.classversion", hex(header.classVersion(), 2));
        fields.put("infiniband.mad.method", hex(header.method(), 2));
        fields.put("infiniband.mad.status", hex(header.status(), 4));
        fields.put("infiniband.mad.transactionid", hex(header.transactionId(), 16));
        fields.put("infiniband.mad.attributeid", hex(header.attributeId(), 4));
        switch (CmAttribute.fromId(header.attributeId()))
        {
            case REQ -> request(new ConnectRequest().wrapMad(buffer, 0, mad.length), fields);
            case REP -> reply(new ConnectReply().wrapMad(buffer, 0, mad.length), fields);
            case RTU ->
            {
                final ReadyToUse rtu = new ReadyToUse().wrapMad(buffer, 0, mad.length);
                fields.put(CM + "rtu.localcommid", hex(rtu.localCommId(), 8));
                fields.put(CM + "rtu.remotecommid", hex(rtu.remoteCommId(), 8));
            }
            case REJ ->
            {
                final ConnectReject rej = new ConnectReject().wrapMad(buffer, 0, mad.length);
                fields.put(CM + "rej.localcommid", hex(rej.localCommId(), 8));
                fields.put(CM + "rej.remotecommid", hex(rej.remoteCommId(), 8));
                fields.put(CM + "rej.msgrej", hex(rej.messageRejected(), 2));
                fields.put(CM + "rej.rejinfolen", hex(rej.rejectedInfoLength(), 2));
                fields.put(CM + "rej.reason", hex(rej.reason(), 4));
            }
            case DREQ ->
            {
                final DisconnectRequest dreq = new DisconnectRequest().wrapMad(buffer, 0, mad.length);
                fields.put(CM + "dreq.localcommid", hex(dreq.localCommId(), 8));
                fields.put(CM + "dreq.remotecommid", hex(dreq.remoteCommId(), 8));
                fields.put(CM + "req.remoteqpneecn", hex(dreq.remoteQpnEecn(), 6));
            }
            case DREP ->
            {
                final DisconnectReply drep = new DisconnectReply().wrapMad(buffer, 0, mad.length);
                fields.put(CM + "drsp.localcommid", hex(drep.localCommId(), 8));
                fields.put(CM + "drsp.remotecommid", hex(drep.remoteCommId(), 8));
            }
            default ->
            {
                // MRA, LAP, APR and SIDR: tshark 4.0 decodes their header only
            }
        }
        return fields;
    }

    private static void request(final ConnectRequest req, final Map<String, String> fields)
    {
        final String r = CM + "req.";
        fields.put(CM + "req", hex(req.localCommId(), 8));
        fields.put(r + "serviceid", hex(req.serviceId(), 16));
        fields.put(r + "localcaguid", hex(req.localCaGuid(), 16));
        fields.put(r + "localqkey", hex(req.localQKey(), 8));
        fields.put(r + "localqpn", hex(req.localQpn(), 6));
        fields.put(r + "responderres", hex(req.responderResources(), 2));
        fields.put(r + "localeecn", hex(req.localEecn(), 6));
        fields.put(r + "initdepth", hex(req.initiatorDepth(), 2));
        fields.put(r + "remoteeecn", hex(req.remoteEecn(), 6));
        fields.put(r + "remoteresptout", hex(req.remoteCmResponseTimeout(), 2));
        fields.put(r + "transpsvctype", hex(req.transportServiceType(), 2));
        fields.put(r + "e2eflowctrl", hex(req.endToEndFlowControl() ? 1 : 0, 2));
        fields.put(r + "startpsn", hex(req.startingPsn(), 6));
        fields.put(r + "localresptout", hex(req.localCmResponseTimeout(), 2));
        fields.put(r + "retrcount", hex(req.retryCount(), 2));
        fields.put(r + "pkey", hex(req.partitionKey(), 4));
        fields.put(r + "pppmtu", hex(req.pathMtu(), 2));
        fields.put(r + "rdcexist", hex(req.rdcExists() ? 1 : 0, 2));
        fields.put(r + "rnrretrcount", hex(req.rnrRetryCount(), 2));
        fields.put(r + "maxcmretr", hex(req.maxCmRetries(), 2));
        fields.put(r + "srq", hex(req.srq() ? 1 : 0, 2));
        fields.put(r + "ext_transport", hex(req.extendedTransportType(), 2));
        final ConnectRequestPath path = req.primaryPath();
        fields.put(r + "prim_locallid", Integer.toString(path.localPortLid()));
        fields.put(r + "prim_remotelid", Integer.toString(path.remotePortLid()));
        gid(r + "prim_localgid", path.localPortGid(), fields);
        gid(r + "prim_remotegid", path.remotePortGid(), fields);
        fields.put(r + "prim_tfcclass", hex(path.trafficClass(), 2));
        fields.put(r + "prim_hoplim", hex(path.hopLimit(), 2));
        fields.put(r + "prim_sl", hex(path.sl(), 2));
        fields.put(r + "prim_subnetlocal", hex(path.subnetLocal() ? 1 : 0, 2));
        fields.put(r + "prim_localacktout", hex(path.localAckTimeout(), 2));
        if ((req.serviceId() & 0xffff_ffff_ff00_0000L) == 0x0000_0000_0100_0000L)
        {
            final IpCmPrivateDataHeader ip = new IpCmPrivateDataHeader().wrap(req);
            fields.put(r + "ip_cm.majv", hex(ip.majorVersion(), 2));
            fields.put(r + "ip_cm.minv", hex(ip.minorVersion(), 2));
            fields.put(r + "ip_cm.ipv", hex(ip.ipVersion(), 2));
            fields.put(r + "ip_cm.sport", hex(ip.sourcePort(), 4));
            fields.put(r + (ip.ipVersion() == IpCmPrivateDataHeader.IP_VERSION_4 ? "ip_cm.sip4" : "ip_cm.sip6"),
                ip.sourceAddress().getHostAddress());
            fields.put(r + (ip.ipVersion() == IpCmPrivateDataHeader.IP_VERSION_4 ? "ip_cm.dip4" : "ip_cm.dip6"),
                ip.destinationAddress().getHostAddress());
        }
    }

    private static void reply(final ConnectReply rep, final Map<String, String> fields)
    {
        final String r = CM + "rep.";
        fields.put(CM + "rep", hex(rep.localCommId(), 8));
        fields.put(r + "remotecommid", hex(rep.remoteCommId(), 8));
        fields.put(r + "localqkey", hex(rep.localQKey(), 8));
        fields.put(r + "localqpn", hex(rep.localQpn(), 6));
        fields.put(r + "localeecn", hex(rep.localEecn(), 6));
        fields.put(r + "startpsn", hex(rep.startingPsn(), 6));
        fields.put(r + "respres", hex(rep.responderResources(), 2));
        fields.put(r + "initdepth", hex(rep.initiatorDepth(), 2));
        fields.put(r + "tgtackdelay", hex(rep.targetAckDelay(), 2));
        fields.put(r + "failoveracc", hex(rep.failoverAccepted(), 2));
        fields.put(r + "e2eflowctrl", hex(rep.endToEndFlowControl() ? 1 : 0, 2));
        fields.put(r + "rnrretrcount", hex(rep.rnrRetryCount(), 2));
        fields.put(r + "srq", hex(rep.srq() ? 1 : 0, 2));
        fields.put(r + "localcaguid", hex(rep.localCaGuid(), 16));
    }

    /** tshark shows an IPv4-mapped GID (RoCE v2 over IPv4) as the IPv4 address, in a field of its own. */
    private static void gid(final String field, final Gid gid, final Map<String, String> fields)
    {
        if (gid.isIpv4Mapped())
        {
            final int address = gid.ipv4Address();
            fields.put(field + "_ipv4", (address >>> 24) + "." + (address >>> 16 & 0xff) + "." + (address >>> 8 & 0xff) + "."
                + (address & 0xff));
        }
        else
        {
            fields.put(field, gid.toString());
        }
    }

    private static String hex(final long value, final int digits)
    {
        return String.format(Locale.ROOT, "0x%0" + digits + "x", value);
    }
}
