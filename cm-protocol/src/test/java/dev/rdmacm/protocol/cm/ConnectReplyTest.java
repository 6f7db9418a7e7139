package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.protocol.cm.ConnectReply.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

class ConnectReplyTest extends CmMessageContract<ConnectReply>
{
    private static final CmMessageSpec<ConnectReply> SPEC = new CmMessageSpec<>(ConnectReply::new,
        "IB_REP_PDATA_SIZE_VER2", fields(),
        List.of(CmBlock.privateData("CM_REP_PRIVATE_DATA", PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH)));

    private static List<CmField<ConnectReply>> fields()
    {
        final List<CmField<ConnectReply>> fields = new ArrayList<>(CmField.commIds("CM_REP"));
        fields.addAll(List.of(
            CmField.bytes("CM_REP_LOCAL_Q_KEY", LOCAL_Q_KEY_OFFSET, 32, ConnectReply::localQKey, ConnectReply::localQKey),
            CmField.bytes("CM_REP_LOCAL_QPN", LOCAL_QPN_OFFSET, 24, ConnectReply::localQpn, (m, v) -> m.localQpn((int)v)),
            CmField.part("CM_REP_VENDOR_ID_H", VENDOR_ID_HIGH_OFFSET, 8, m -> m.vendorId() >>> 16,
                (m, v) -> m.vendorId((m.vendorId() & 0x00ffff) | (int)v << 16)),
            CmField.bytes("CM_REP_LOCAL_EE_CONTEXT_NUMBER", LOCAL_EECN_OFFSET, 24, ConnectReply::localEecn,
                (m, v) -> m.localEecn((int)v)),
            CmField.part("CM_REP_VENDOR_ID_M", VENDOR_ID_MIDDLE_OFFSET, 8, m -> (m.vendorId() >>> 8) & 0xff,
                (m, v) -> m.vendorId((m.vendorId() & 0xff00ff) | (int)v << 8)),
            CmField.bytes("CM_REP_STARTING_PSN", STARTING_PSN_OFFSET, 24, ConnectReply::startingPsn,
                (m, v) -> m.startingPsn((int)v)),
            CmField.part("CM_REP_VENDOR_ID_L", VENDOR_ID_LOW_OFFSET, 8, m -> m.vendorId() & 0xff,
                (m, v) -> m.vendorId((m.vendorId() & 0xffff00) | (int)v)),
            CmField.bytes("CM_REP_RESPONDER_RESOURCES", RESPONDER_RESOURCES_OFFSET, 8, ConnectReply::responderResources,
                (m, v) -> m.responderResources((int)v)),
            CmField.bytes("CM_REP_INITIATOR_DEPTH", INITIATOR_DEPTH_OFFSET, 8, ConnectReply::initiatorDepth,
                (m, v) -> m.initiatorDepth((int)v)),
            CmField.bitField("CM_REP_TARGET_ACK_DELAY", TARGET_ACK_DELAY_OFFSET, TARGET_ACK_DELAY_MASK,
                TARGET_ACK_DELAY_SHIFT, ConnectReply::targetAckDelay, (m, v) -> m.targetAckDelay((int)v)),
            CmField.bitField("CM_REP_FAILOVER_ACCEPTED", FAILOVER_ACCEPTED_OFFSET, FAILOVER_ACCEPTED_MASK,
                FAILOVER_ACCEPTED_SHIFT, ConnectReply::failoverAccepted, (m, v) -> m.failoverAccepted((int)v)),
            CmField.flag("CM_REP_END_TO_END_FLOW_CONTROL", END_TO_END_FLOW_CONTROL_OFFSET, END_TO_END_FLOW_CONTROL_MASK,
                END_TO_END_FLOW_CONTROL_SHIFT, ConnectReply::endToEndFlowControl, ConnectReply::endToEndFlowControl),
            CmField.bitField("CM_REP_RNR_RETRY_COUNT", RNR_RETRY_COUNT_OFFSET, RNR_RETRY_COUNT_MASK,
                RNR_RETRY_COUNT_SHIFT, ConnectReply::rnrRetryCount, (m, v) -> m.rnrRetryCount((int)v)),
            CmField.flag("CM_REP_SRQ", SRQ_OFFSET, SRQ_MASK, SRQ_SHIFT, ConnectReply::srq, ConnectReply::srq),
            CmField.bytes("CM_REP_LOCAL_CA_GUID", LOCAL_CA_GUID_OFFSET, 64, ConnectReply::localCaGuid,
                ConnectReply::localCaGuid)));
        return fields;
    }

    @Override
    CmMessageSpec<ConnectReply> spec()
    {
        return SPEC;
    }

    @Test
    void shouldSpreadTheVendorIdOverItsThreeBytes()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CmMessage.LENGTH]);
        new ConnectReply().wrap(buffer, 0).vendorId(0x02c9ab);

        assertEquals(0x02, buffer.getByte(VENDOR_ID_HIGH_OFFSET));
        assertEquals((byte)0xc9, buffer.getByte(VENDOR_ID_MIDDLE_OFFSET));
        assertEquals((byte)0xab, buffer.getByte(VENDOR_ID_LOW_OFFSET));
    }

    @Test
    void shouldPrintFieldsWithTsharkNames()
    {
        final ConnectReply reply = new ConnectReply()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .localCommId(7).remoteCommId(8).localQKey(0).localQpn(0x49).startingPsn(0x123456)
            .responderResources(4).initiatorDepth(4).targetAckDelay(15).failoverAccepted(FAILOVER_NOT_SUPPORTED)
            .endToEndFlowControl(true).rnrRetryCount(7).localCaGuid(0x0002_c903_000a_5678L);

        assertEquals("REP{localcommid=0x7, remotecommid=0x8, localqkey=0x0, localqpn=0x49, vendorid=0x0, " +
            "localeecn=0x0, startpsn=0x123456, respres=4, initdepth=4, tgtackdelay=15, failoveracc=1, " +
            "e2eflowctrl=1, rnrretrcount=7, srq=0, localcaguid=0x0002c903000a5678, private=}", reply.toString());
    }
}
