package dev.rdmacm.protocol;

import dev.rdmacm.protocol.SampleMessages.Sample;
import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.protocol.cm.AlternatePathResponse;
import dev.rdmacm.protocol.cm.AlternatePathStatus;
import dev.rdmacm.protocol.cm.ConnectReject;
import dev.rdmacm.protocol.cm.ConnectReply;
import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.DisconnectReply;
import dev.rdmacm.protocol.cm.DisconnectRequest;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.cm.LoadAlternatePath;
import dev.rdmacm.protocol.cm.MessageReceiptAck;
import dev.rdmacm.protocol.cm.ReadyToUse;
import dev.rdmacm.protocol.cm.RejectReason;
import dev.rdmacm.protocol.cm.SidrReply;
import dev.rdmacm.protocol.cm.SidrRequest;
import dev.rdmacm.protocol.cm.SidrStatus;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.rdmacm.protocol.SampleMessages.DGID_INTERFACE;
import static dev.rdmacm.protocol.SampleMessages.DGID_TEXT;
import static dev.rdmacm.protocol.SampleMessages.GID_PREFIX;
import static dev.rdmacm.protocol.SampleMessages.SGID_INTERFACE;
import static dev.rdmacm.protocol.SampleMessages.SGID_TEXT;
import static dev.rdmacm.protocol.SampleMessages.newMad;

/**
 * The CM samples: one connection's REQ (with the RDMA IP CM header), REP, RTU, DREQ and DREP, a REJ,
 * and the messages tshark 4.0 does not decode (MRA, LAP, APR, SIDR_REQ, SIDR_REP), whose bytes are
 * compared instead. CM message offsets are MAD offsets minus 24 ({@code CmMad.MESSAGE_OFFSET}).
 */
final class CmSamples
{
    /** The active side's and the passive side's communication IDs. */
    private static final long ACTIVE_COMM_ID = 0x1122_3344L;
    private static final long PASSIVE_COMM_ID = 0x5566_7788L;
    /** RDMA_PS_TCP (0x0106) port 20000: an RDMA IP CM Service ID, so tshark decodes the IP CM header. */
    private static final long SERVICE_ID = 0x0000_0000_0106_4e20L;
    private static final int MESSAGE = 24;

    private CmSamples()
    {
    }

    static List<Sample> all()
    {
        return List.of(connectRequest(), connectReply(), readyToUse(), connectReject(), disconnectRequest(),
            disconnectReply(), messageReceiptAck(), loadAlternatePath(), alternatePathResponse(), sidrRequest(),
            sidrReply());
    }

    private static ExpectedFields cmFields(final String attributeId, final String transactionId)
    {
        return new ExpectedFields()
            .put("infiniband.mad.baseversion", "0x01")
            .put("infiniband.mad.mgmtclass", "0x07")
            .put("infiniband.mad.classversion", "0x02")
            .put("infiniband.mad.method", "0x03")
            .put("infiniband.mad.status", "0x0000")
            .put("infiniband.mad.transactionid", transactionId)
            .put("infiniband.mad.attributeid", attributeId)
            .put("infiniband.mad.attributemodifier", "0x00000000");
    }

    static Sample connectRequest()
    {
        final UnsafeBuffer mad = newMad();
        final ConnectRequest req = new ConnectRequest().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0001L)
            .localCommId(ACTIVE_COMM_ID).serviceId(SERVICE_ID).localCaGuid(0x0002_c903_0000_1001L).localQKey(0)
            .localQpn(0x000123).responderResources(4).localEecn(0).initiatorDepth(4).remoteEecn(0)
            .remoteCmResponseTimeout(20).transportServiceType(0).endToEndFlowControl(true).startingPsn(0xabcdef)
            .localCmResponseTimeout(20).retryCount(7).partitionKey(0xffff).pathMtu(4).rdcExists(false)
            .rnrRetryCount(7).maxCmRetries(15).srq(false).extendedTransportType(0);
        req.primaryPath().localPortLid(SampleMessages.CLIENT_LID).remotePortLid(SampleMessages.SERVER_LID)
            .localPortGid(GID_PREFIX, SGID_INTERFACE).remotePortGid(GID_PREFIX, DGID_INTERFACE).flowLabel(0x12345)
            .packetRate(7).trafficClass(0x20).hopLimit(0x40).sl(3).subnetLocal(true).localAckTimeout(18);
        new IpCmPrivateDataHeader().wrap(req).version(IpCmPrivateDataHeader.CMA_VERSION)
            .ipVersion(IpCmPrivateDataHeader.IP_VERSION_4).sourcePort(50_000)
            .sourceIpv4(0xc0a8_0105).destinationIpv4(0xc0a8_0106);

        final Map<Integer, String> raw = new LinkedHashMap<>();
        // primary FlowLabel (20 bits) | reserved (6) | PacketRate (6): tshark shifts the label and
        // reads the rate from the wrong byte (bugs 1 and 2)
        raw.put(MESSAGE + ConnectRequest.PRIMARY_PATH_OFFSET + 36, "12345007");
        return new Sample("CM REQ with RDMA IP CM header", CaptureDirection.SENT, mad,
            cmFields("0x0010", "0x0000000200000001")
                .put("infiniband.cm.req", "0x11223344")
                .put("infiniband.cm.req.serviceid", "0x0000000001064e20")
                .put("infiniband.cm.req.serviceid.protocol", "0x06")
                .put("infiniband.cm.req.serviceid.dport", "0x4e20")
                .put("infiniband.cm.req.localcaguid", "0x0002c90300001001")
                .put("infiniband.cm.req.localqkey", "0x00000000")
                .put("infiniband.cm.req.localqpn", "0x000123")
                .put("infiniband.cm.req.responderres", "0x04")
                .put("infiniband.cm.req.localeecn", "0x000000")
                .put("infiniband.cm.req.initdepth", "0x04")
                .put("infiniband.cm.req.remoteeecn", "0x000000")
                .put("infiniband.cm.req.remoteresptout", "0x14")
                .put("infiniband.cm.req.transpsvctype", "0x00")
                .put("infiniband.cm.req.e2eflowctrl", "0x01")
                .put("infiniband.cm.req.startpsn", "0xabcdef")
                .put("infiniband.cm.req.localresptout", "0x14")
                .put("infiniband.cm.req.retrcount", "0x07")
                .put("infiniband.cm.req.pkey", "0xffff")
                .put("infiniband.cm.req.pppmtu", "0x04")
                .put("infiniband.cm.req.rdcexist", "0x00")
                .put("infiniband.cm.req.rnrretrcount", "0x07")
                .put("infiniband.cm.req.maxcmretr", "0x0f")
                .put("infiniband.cm.req.srq", "0x00")
                .put("infiniband.cm.req.ext_transport", "0x00")
                .put("infiniband.cm.req.prim_locallid", "4")
                .put("infiniband.cm.req.prim_remotelid", "1")
                .put("infiniband.cm.req.prim_localgid", SGID_TEXT)
                .put("infiniband.cm.req.prim_remotegid", DGID_TEXT)
                .put("infiniband.cm.req.prim_tfcclass", "0x20")
                .put("infiniband.cm.req.prim_hoplim", "0x40")
                .put("infiniband.cm.req.prim_sl", "0x03")
                .put("infiniband.cm.req.prim_subnetlocal", "0x01")
                .put("infiniband.cm.req.prim_localacktout", "0x12")
                .put("infiniband.cm.req.ip_cm.majv", "0x00")
                .put("infiniband.cm.req.ip_cm.minv", "0x00")
                .put("infiniband.cm.req.ip_cm.ipv", "0x04")
                .put("infiniband.cm.req.ip_cm.sport", "0xc350")
                .put("infiniband.cm.req.ip_cm.sip4", "192.168.1.5")
                .put("infiniband.cm.req.ip_cm.dip4", "192.168.1.6").map(),
            raw);
    }

    static Sample connectReply()
    {
        final UnsafeBuffer mad = newMad();
        new ConnectReply().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0001L)
            .localCommId(PASSIVE_COMM_ID).remoteCommId(ACTIVE_COMM_ID).localQKey(0).localQpn(0x000456).localEecn(0)
            .startingPsn(0x123456).responderResources(4).initiatorDepth(4).targetAckDelay(15)
            .failoverAccepted(ConnectReply.FAILOVER_ACCEPTED).endToEndFlowControl(true).rnrRetryCount(7).srq(false)
            .localCaGuid(0x0002_c903_0000_2001L);
        return new Sample("CM REP", CaptureDirection.RECEIVED, mad,
            cmFields("0x0013", "0x0000000200000001")
                .put("infiniband.cm.rep", "0x55667788")
                .put("infiniband.cm.rep.remotecommid", "0x11223344")
                .put("infiniband.cm.rep.localqkey", "0x00000000")
                .put("infiniband.cm.rep.localqpn", "0x000456")
                .put("infiniband.cm.rep.localeecn", "0x000000")
                .put("infiniband.cm.rep.startpsn", "0x123456")
                .put("infiniband.cm.rep.respres", "0x04")
                .put("infiniband.cm.rep.initdepth", "0x04")
                .put("infiniband.cm.rep.tgtackdelay", "0x0f")
                .put("infiniband.cm.rep.failoveracc", "0x00")
                .put("infiniband.cm.rep.e2eflowctrl", "0x01")
                .put("infiniband.cm.rep.rnrretrcount", "0x07")
                .put("infiniband.cm.rep.srq", "0x00")
                .put("infiniband.cm.rep.localcaguid", "0x0002c90300002001").map(),
            Map.of());
    }

    static Sample readyToUse()
    {
        final UnsafeBuffer mad = newMad();
        new ReadyToUse().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0001L)
            .localCommId(ACTIVE_COMM_ID).remoteCommId(PASSIVE_COMM_ID);
        return new Sample("CM RTU", CaptureDirection.SENT, mad,
            cmFields("0x0014", "0x0000000200000001")
                .put("infiniband.cm.rtu.localcommid", "0x11223344")
                .put("infiniband.cm.rtu.remotecommid", "0x55667788").map(),
            Map.of());
    }

    static Sample connectReject()
    {
        final UnsafeBuffer mad = newMad();
        new ConnectReject().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0002L)
            .localCommId(PASSIVE_COMM_ID).remoteCommId(ACTIVE_COMM_ID)
            .messageRejected(ConnectReject.MESSAGE_REJECTED_REQ).rejectedInfoLength(0)
            .reason(RejectReason.CONSUMER_DEFINED);
        return new Sample("CM REJ", CaptureDirection.RECEIVED, mad,
            cmFields("0x0012", "0x0000000200000002")
                .put("infiniband.cm.rej.localcommid", "0x55667788")
                .put("infiniband.cm.rej.remotecommid", "0x11223344")
                .put("infiniband.cm.rej.msgrej", "0x00")
                .put("infiniband.cm.rej.rejinfolen", "0x00")
                .put("infiniband.cm.rej.reason", "0x001c").map(),
            Map.of());
    }

    static Sample disconnectRequest()
    {
        final UnsafeBuffer mad = newMad();
        new DisconnectRequest().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0003L)
            .localCommId(ACTIVE_COMM_ID).remoteCommId(PASSIVE_COMM_ID).remoteQpnEecn(0x000456);
        return new Sample("CM DREQ", CaptureDirection.SENT, mad,
            cmFields("0x0015", "0x0000000200000003")
                .put("infiniband.cm.dreq.localcommid", "0x11223344")
                .put("infiniband.cm.dreq.remotecommid", "0x55667788")
                .put("infiniband.cm.req.remoteqpneecn", "0x000456").map(),
            Map.of());
    }

    static Sample disconnectReply()
    {
        final UnsafeBuffer mad = newMad();
        new DisconnectReply().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0003L)
            .localCommId(PASSIVE_COMM_ID).remoteCommId(ACTIVE_COMM_ID);
        return new Sample("CM DREP", CaptureDirection.RECEIVED, mad,
            cmFields("0x0016", "0x0000000200000003")
                .put("infiniband.cm.drsp.localcommid", "0x55667788")
                .put("infiniband.cm.drsp.remotecommid", "0x11223344").map(),
            Map.of());
    }

    // tshark 4.0 decodes only the MAD header of the messages below (bug 4): their bytes are compared

    static Sample messageReceiptAck()
    {
        final UnsafeBuffer mad = newMad();
        new MessageReceiptAck().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0001L)
            .localCommId(PASSIVE_COMM_ID).remoteCommId(ACTIVE_COMM_ID)
            .messageMraed(MessageReceiptAck.MESSAGE_MRAED_REQ).serviceTimeout(20);
        // comm IDs, then MsM 0 in the top 2 bits of byte 8, ServiceTimeout 20 in the top 5 bits of byte 9
        return new Sample("CM MRA", CaptureDirection.RECEIVED, mad,
            cmFields("0x0011", "0x0000000200000001").map(),
            Map.of(MESSAGE, "5566778811223344" + "00" + "a0"));
    }

    static Sample loadAlternatePath()
    {
        final UnsafeBuffer mad = newMad();
        new LoadAlternatePath().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0004L)
            .localCommId(ACTIVE_COMM_ID).remoteCommId(PASSIVE_COMM_ID).remoteQpnEecn(0x000456)
            .remoteCmResponseTimeout(20).alternateLocalPortLid(5).alternateRemotePortLid(2)
            .alternateLocalPortGid(GID_PREFIX, SGID_INTERFACE).alternateRemotePortGid(GID_PREFIX, DGID_INTERFACE)
            .alternateFlowLabel(0x12345).alternateTrafficClass(0x20).alternateHopLimit(0x40).alternatePacketRate(7)
            .alternateSl(3).alternateSubnetLocal(true).alternateLocalAckTimeout(18);
        final Map<Integer, String> raw = new LinkedHashMap<>();
        raw.put(MESSAGE, "1122334455667788" + "00000000" + "000456" + "a0");
        raw.put(MESSAGE + 20, "00050002" + "fe800000000000000002c90300000001" + "fe800000000000000002c90300000002");
        // FlowLabel | reserved | TClass, then HopLimit | rsvd 2 bits + PacketRate | SL S rsvd | AckTimeout
        raw.put(MESSAGE + 56, "12345020" + "40" + "07" + "38" + "90");
        return new Sample("CM LAP", CaptureDirection.SENT, mad,
            cmFields("0x0019", "0x0000000200000004").map(), raw);
    }

    static Sample alternatePathResponse()
    {
        final UnsafeBuffer mad = newMad();
        new AlternatePathResponse().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0004L)
            .localCommId(PASSIVE_COMM_ID).remoteCommId(ACTIVE_COMM_ID).additionalInfoLength(0)
            .apStatus(AlternatePathStatus.SUCCESS);
        return new Sample("CM APR", CaptureDirection.RECEIVED, mad,
            cmFields("0x001a", "0x0000000200000004").map(),
            Map.of(MESSAGE, "5566778811223344" + "00" + "00" + "0000"));
    }

    static Sample sidrRequest()
    {
        final UnsafeBuffer mad = newMad();
        final SidrRequest request = new SidrRequest().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0005L)
            .requestId(0x0a0b_0c0dL).partitionKey(0xffff).serviceId(0x0000_0000_0111_4e21L);
        new IpCmPrivateDataHeader().wrap(request).version(IpCmPrivateDataHeader.CMA_VERSION)
            .ipVersion(IpCmPrivateDataHeader.IP_VERSION_4).sourcePort(50_001)
            .sourceIpv4(0xc0a8_0105).destinationIpv4(0xc0a8_0106);
        final Map<Integer, String> raw = new LinkedHashMap<>();
        raw.put(MESSAGE, "0a0b0c0d" + "ffff0000" + "0000000001114e21");
        // the IP CM header leads the private data: version, IPV 4 in the upper nibble, source port,
        // then each IPv4 address as 12 zero bytes and its 4 bytes
        raw.put(MESSAGE + SidrRequest.PRIVATE_DATA_OFFSET, "00" + "40" + "c351" + "000000000000000000000000c0a80105" +
            "000000000000000000000000c0a80106");
        return new Sample("CM SIDR_REQ with RDMA IP CM header", CaptureDirection.SENT, mad,
            cmFields("0x0017", "0x0000000200000005").map(), raw);
    }

    static Sample sidrReply()
    {
        final UnsafeBuffer mad = newMad();
        new SidrReply().encodeMad(mad, 0, new MadHeader(), 0x0000_0002_0000_0005L)
            .requestId(0x0a0b_0c0dL).status(SidrStatus.SUCCESS).additionalInfoLength(0).vendorId(0)
            .qpn(0x000789).serviceId(0x0000_0000_0111_4e21L).qKey(0x0123_4567L);
        return new Sample("CM SIDR_REP", CaptureDirection.RECEIVED, mad,
            cmFields("0x0018", "0x0000000200000005").map(),
            Map.of(MESSAGE, "0a0b0c0d" + "00" + "00" + "0000" + "00078900" + "0000000001114e21" + "01234567"));
    }
}
