package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.protocol.cm.ConnectRequest.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectRequestTest extends CmMessageContract<ConnectRequest>
{
    private static final CmMessageSpec<ConnectRequest> SPEC = new CmMessageSpec<>(ConnectRequest::new,
        "IB_REQ_PDATA_SIZE_VER2", fields(), blocks());

    private static List<CmField<ConnectRequest>> fields()
    {
        final List<CmField<ConnectRequest>> fields = new ArrayList<>(List.of(
            CmField.bytes("CM_REQ_LOCAL_COMM_ID", LOCAL_COMM_ID_OFFSET, 32, ConnectRequest::localCommId,
                ConnectRequest::localCommId),
            CmField.bytes("CM_REQ_VENDOR_ID", VENDOR_ID_OFFSET, 24, ConnectRequest::vendorId, (m, v) -> m.vendorId((int)v)),
            CmField.bytes("CM_REQ_SERVICE_ID", SERVICE_ID_OFFSET, 64, ConnectRequest::serviceId, ConnectRequest::serviceId),
            CmField.bytes("CM_REQ_LOCAL_CA_GUID", LOCAL_CA_GUID_OFFSET, 64, ConnectRequest::localCaGuid,
                ConnectRequest::localCaGuid),
            CmField.bytes("CM_REQ_LOCAL_Q_KEY", LOCAL_Q_KEY_OFFSET, 32, ConnectRequest::localQKey, ConnectRequest::localQKey),
            CmField.bytes("CM_REQ_LOCAL_QPN", LOCAL_QPN_OFFSET, 24, ConnectRequest::localQpn, (m, v) -> m.localQpn((int)v)),
            CmField.bytes("CM_REQ_RESPONDER_RESOURCES", RESPONDER_RESOURCES_OFFSET, 8, ConnectRequest::responderResources,
                (m, v) -> m.responderResources((int)v)),
            CmField.bytes("CM_REQ_LOCAL_EECN", LOCAL_EECN_OFFSET, 24, ConnectRequest::localEecn,
                (m, v) -> m.localEecn((int)v)),
            CmField.bytes("CM_REQ_INITIATOR_DEPTH", INITIATOR_DEPTH_OFFSET, 8, ConnectRequest::initiatorDepth,
                (m, v) -> m.initiatorDepth((int)v)),
            CmField.bytes("CM_REQ_REMOTE_EECN", REMOTE_EECN_OFFSET, 24, ConnectRequest::remoteEecn,
                (m, v) -> m.remoteEecn((int)v)),
            CmField.bitField("CM_REQ_REMOTE_CM_RESPONSE_TIMEOUT", REMOTE_CM_RESPONSE_TIMEOUT_OFFSET,
                REMOTE_CM_RESPONSE_TIMEOUT_MASK, REMOTE_CM_RESPONSE_TIMEOUT_SHIFT, ConnectRequest::remoteCmResponseTimeout,
                (m, v) -> m.remoteCmResponseTimeout((int)v)),
            CmField.bitField("CM_REQ_TRANSPORT_SERVICE_TYPE", TRANSPORT_SERVICE_TYPE_OFFSET, TRANSPORT_SERVICE_TYPE_MASK,
                TRANSPORT_SERVICE_TYPE_SHIFT, ConnectRequest::transportServiceType,
                (m, v) -> m.transportServiceType((int)v)),
            CmField.flag("CM_REQ_END_TO_END_FLOW_CONTROL", END_TO_END_FLOW_CONTROL_OFFSET, END_TO_END_FLOW_CONTROL_MASK,
                END_TO_END_FLOW_CONTROL_SHIFT, ConnectRequest::endToEndFlowControl, ConnectRequest::endToEndFlowControl),
            CmField.bytes("CM_REQ_STARTING_PSN", STARTING_PSN_OFFSET, 24, ConnectRequest::startingPsn,
                (m, v) -> m.startingPsn((int)v)),
            CmField.bitField("CM_REQ_LOCAL_CM_RESPONSE_TIMEOUT", LOCAL_CM_RESPONSE_TIMEOUT_OFFSET,
                LOCAL_CM_RESPONSE_TIMEOUT_MASK, LOCAL_CM_RESPONSE_TIMEOUT_SHIFT, ConnectRequest::localCmResponseTimeout,
                (m, v) -> m.localCmResponseTimeout((int)v)),
            CmField.bitField("CM_REQ_RETRY_COUNT", RETRY_COUNT_OFFSET, RETRY_COUNT_MASK, RETRY_COUNT_SHIFT,
                ConnectRequest::retryCount, (m, v) -> m.retryCount((int)v)),
            CmField.bytes("CM_REQ_PARTITION_KEY", PARTITION_KEY_OFFSET, 16, ConnectRequest::partitionKey,
                (m, v) -> m.partitionKey((int)v)),
            CmField.bitField("CM_REQ_PATH_PACKET_PAYLOAD_MTU", PATH_MTU_OFFSET, PATH_MTU_MASK, PATH_MTU_SHIFT,
                ConnectRequest::pathMtu, (m, v) -> m.pathMtu((int)v)),
            CmField.flag("CM_REQ_RDC_EXISTS", RDC_EXISTS_OFFSET, RDC_EXISTS_MASK, RDC_EXISTS_SHIFT,
                ConnectRequest::rdcExists, ConnectRequest::rdcExists),
            CmField.bitField("CM_REQ_RNR_RETRY_COUNT", RNR_RETRY_COUNT_OFFSET, RNR_RETRY_COUNT_MASK, RNR_RETRY_COUNT_SHIFT,
                ConnectRequest::rnrRetryCount, (m, v) -> m.rnrRetryCount((int)v)),
            CmField.bitField("CM_REQ_MAX_CM_RETRIES", MAX_CM_RETRIES_OFFSET, MAX_CM_RETRIES_MASK, MAX_CM_RETRIES_SHIFT,
                ConnectRequest::maxCmRetries, (m, v) -> m.maxCmRetries((int)v)),
            CmField.flag("CM_REQ_SRQ", SRQ_OFFSET, SRQ_MASK, SRQ_SHIFT, ConnectRequest::srq, ConnectRequest::srq),
            CmField.bitField("CM_REQ_EXTENDED_TRANSPORT_TYPE", EXTENDED_TRANSPORT_TYPE_OFFSET,
                EXTENDED_TRANSPORT_TYPE_MASK, EXTENDED_TRANSPORT_TYPE_SHIFT, ConnectRequest::extendedTransportType,
                (m, v) -> m.extendedTransportType((int)v)),
            CmField.flag("CM_REQ_SAP_SUPPORTED", SAP_SUPPORTED_OFFSET, SAP_SUPPORTED_MASK, SAP_SUPPORTED_SHIFT,
                ConnectRequest::sapSupported, ConnectRequest::sapSupported)));
        fields.addAll(pathFields("PRIMARY", PRIMARY_PATH_OFFSET, true));
        fields.addAll(pathFields("ALTERNATE", ALTERNATE_PATH_OFFSET, false));
        return fields;
    }

    private static List<CmField<ConnectRequest>> pathFields(final String which, final int base, final boolean primary)
    {
        final String p = "CM_REQ_" + which + "_";
        return List.of(
            CmField.bytes(p + "LOCAL_PORT_LID", base + ConnectRequestPath.LOCAL_PORT_LID_OFFSET, 16,
                m -> path(m, primary).localPortLid(), (m, v) -> path(m, primary).localPortLid((int)v)),
            CmField.bytes(p + "REMOTE_PORT_LID", base + ConnectRequestPath.REMOTE_PORT_LID_OFFSET, 16,
                m -> path(m, primary).remotePortLid(), (m, v) -> path(m, primary).remotePortLid((int)v)),
            CmField.bitField(p + "FLOW_LABEL", base + ConnectRequestPath.FLOW_LABEL_OFFSET,
                ConnectRequestPath.FLOW_LABEL_MASK, ConnectRequestPath.FLOW_LABEL_SHIFT,
                m -> path(m, primary).flowLabel(), (m, v) -> path(m, primary).flowLabel((int)v)),
            CmField.bitField(p + "PACKET_RATE", base + ConnectRequestPath.PACKET_RATE_OFFSET,
                ConnectRequestPath.PACKET_RATE_MASK, ConnectRequestPath.PACKET_RATE_SHIFT,
                m -> path(m, primary).packetRate(), (m, v) -> path(m, primary).packetRate((int)v)),
            CmField.bytes(p + "TRAFFIC_CLASS", base + ConnectRequestPath.TRAFFIC_CLASS_OFFSET, 8,
                m -> path(m, primary).trafficClass(), (m, v) -> path(m, primary).trafficClass((int)v)),
            CmField.bytes(p + "HOP_LIMIT", base + ConnectRequestPath.HOP_LIMIT_OFFSET, 8,
                m -> path(m, primary).hopLimit(), (m, v) -> path(m, primary).hopLimit((int)v)),
            CmField.bitField(p + "SL", base + ConnectRequestPath.SL_OFFSET, ConnectRequestPath.SL_MASK,
                ConnectRequestPath.SL_SHIFT, m -> path(m, primary).sl(), (m, v) -> path(m, primary).sl((int)v)),
            CmField.flag(p + "SUBNET_LOCAL", base + ConnectRequestPath.SUBNET_LOCAL_OFFSET,
                ConnectRequestPath.SUBNET_LOCAL_MASK, ConnectRequestPath.SUBNET_LOCAL_SHIFT,
                m -> path(m, primary).subnetLocal(), (m, v) -> path(m, primary).subnetLocal(v)),
            CmField.bitField(p + "LOCAL_ACK_TIMEOUT", base + ConnectRequestPath.LOCAL_ACK_TIMEOUT_OFFSET,
                ConnectRequestPath.LOCAL_ACK_TIMEOUT_MASK, ConnectRequestPath.LOCAL_ACK_TIMEOUT_SHIFT,
                m -> path(m, primary).localAckTimeout(), (m, v) -> path(m, primary).localAckTimeout((int)v)));
    }

    private static List<CmBlock<ConnectRequest>> blocks()
    {
        return List.of(
            gid("CM_REQ_PRIMARY_LOCAL_PORT_GID", PRIMARY_PATH_OFFSET + ConnectRequestPath.LOCAL_PORT_GID_OFFSET, true, true),
            gid("CM_REQ_PRIMARY_REMOTE_PORT_GID", PRIMARY_PATH_OFFSET + ConnectRequestPath.REMOTE_PORT_GID_OFFSET, true,
                false),
            gid("CM_REQ_ALTERNATE_LOCAL_PORT_GID", ALTERNATE_PATH_OFFSET + ConnectRequestPath.LOCAL_PORT_GID_OFFSET, false,
                true),
            gid("CM_REQ_ALTERNATE_REMOTE_PORT_GID", ALTERNATE_PATH_OFFSET + ConnectRequestPath.REMOTE_PORT_GID_OFFSET,
                false, false),
            CmBlock.privateData("CM_REQ_PRIVATE_DATA", PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH));
    }

    private static CmBlock<ConnectRequest> gid(final String name, final int offset, final boolean primary,
        final boolean local)
    {
        return new CmBlock<>(name, offset, Gid.LENGTH,
            m -> (local ? path(m, primary).localPortGid() : path(m, primary).remotePortGid()).toBytes(),
            (m, b) ->
            {
                if (local)
                {
                    path(m, primary).localPortGid(Gid.fromBytes(b, 0));
                }
                else
                {
                    path(m, primary).remotePortGid(Gid.fromBytes(b, 0));
                }
            });
    }

    private static ConnectRequestPath path(final ConnectRequest request, final boolean primary)
    {
        return primary ? request.primaryPath() : request.alternatePath();
    }

    @Override
    CmMessageSpec<ConnectRequest> spec()
    {
        return SPEC;
    }

    @Test
    void shouldReadGidHalvesWithoutAllocatingAGid()
    {
        final ConnectRequest request = new ConnectRequest().wrap(new UnsafeBuffer(new byte[CmMessage.LENGTH]), 0);
        request.primaryPath().localPortGid(Gid.parse("fe80::2:c903:a:1234"));

        assertEquals(0xfe80_0000_0000_0000L, request.primaryPath().localPortGidSubnetPrefix());
        assertEquals(0x0002_c903_000a_1234L, request.primaryPath().localPortGidInterfaceId());
    }

    @Test
    void shouldKeepSapSupportedWhenTheAlternateAckTimeoutChanges()
    {
        final ConnectRequest request = new ConnectRequest().wrap(new UnsafeBuffer(new byte[CmMessage.LENGTH]), 0)
            .sapSupported(true);
        request.alternatePath().localAckTimeout(31).localAckTimeout(0);

        assertTrue(request.sapSupported());
        request.sapSupported(false);
        assertFalse(request.sapSupported());
        assertEquals(0, request.alternatePath().localAckTimeout());
    }

    @Test
    void shouldRefusePrivateDataLongerThan92Bytes()
    {
        final ConnectRequest request = new ConnectRequest().wrap(new UnsafeBuffer(new byte[CmMessage.LENGTH]), 0);

        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> request.privateData(new UnsafeBuffer(new byte[93]), 0, 93));
        assertEquals("REQ private data: 93 bytes given, the message holds 0 to 92", ex.getMessage());
    }

    @Test
    void shouldPrintFieldsWithTsharkNames()
    {
        final UnsafeBuffer mad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
        final ConnectRequest request = new ConnectRequest().encodeMad(mad, 0, new MadHeader(), 7)
            .localCommId(0x1234_5678L).serviceId(0x0000_0000_0106_4a5bL).localCaGuid(0x0002_c903_000a_1234L)
            .localQKey(0).localQpn(0x48).responderResources(4).initiatorDepth(4)
            .remoteCmResponseTimeout(20).transportServiceType(TRANSPORT_SERVICE_TYPE_RC).startingPsn(0xabcdef)
            .localCmResponseTimeout(20).retryCount(7).partitionKey(0xffff).pathMtu(5).rnrRetryCount(7)
            .maxCmRetries(15);
        request.primaryPath().localPortLid(1).remotePortLid(2)
            .localPortGid(Gid.parse("fe80::1")).remotePortGid(Gid.parse("fe80::2"))
            .flowLabel(0x12345).packetRate(3).hopLimit(255).sl(0).subnetLocal(true).localAckTimeout(18);
        request.privateData(new UnsafeBuffer(new byte[] {0, 0x40, 0x12, 0x34}), 0, 4);

        assertEquals("REQ{localcommid=0x12345678, vendorid=0x0, serviceid=0x0000000001064a5b, " +
            "localcaguid=0x0002c903000a1234, localqkey=0x0, localqpn=0x48, responderres=4, localeecn=0x0, " +
            "initdepth=4, remoteeecn=0x0, remoteresptout=20, transpsvctype=0, e2eflowctrl=0, startpsn=0xabcdef, " +
            "localresptout=20, retrcount=7, pkey=0xffff, pppmtu=5, rdcexist=0, rnrretrcount=7, maxcmretr=15, " +
            "srq=0, ext_transport=0, prim_locallid=1, prim_remotelid=2, prim_localgid=fe80::1, " +
            "prim_remotegid=fe80::2, prim_flowlabel=0x12345, prim_pktrate=3, prim_tfcclass=0, prim_hoplim=255, " +
            "prim_sl=0, prim_subnetlocal=1, prim_localacktout=18, alt_locallid=0, alt_remotelid=0, alt_localgid=::, " +
            "alt_remotegid=::, alt_flowlabel=0x0, alt_pktrate=0, alt_tfcclass=0, alt_hoplim=0, alt_sl=0, " +
            "alt_subnetlocal=0, alt_localacktout=0, sapsupported=0, private=00401234}", request.toString());
    }
}
