package dev.rdmacm.protocol.cm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.mad.MadHeader;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.rdmacm.protocol.cm.LoadAlternatePath.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

class LoadAlternatePathTest extends CmMessageContract<LoadAlternatePath>
{
    private static final CmMessageSpec<LoadAlternatePath> SPEC = new CmMessageSpec<>(LoadAlternatePath::new,
        "IB_LAP_PDATA_SIZE_VER2", fields(),
        List.of(
            new CmBlock<>("CM_LAP_ALTERNATE_LOCAL_PORT_GID", ALTERNATE_LOCAL_PORT_GID_OFFSET, Gid.LENGTH,
                m -> m.alternateLocalPortGid().toBytes(), (m, b) -> m.alternateLocalPortGid(Gid.fromBytes(b, 0))),
            new CmBlock<>("CM_LAP_ALTERNATE_REMOTE_PORT_GID", ALTERNATE_REMOTE_PORT_GID_OFFSET, Gid.LENGTH,
                m -> m.alternateRemotePortGid().toBytes(), (m, b) -> m.alternateRemotePortGid(Gid.fromBytes(b, 0))),
            CmBlock.privateData("CM_LAP_PRIVATE_DATA", PRIVATE_DATA_OFFSET, PRIVATE_DATA_LENGTH)));

    private static List<CmField<LoadAlternatePath>> fields()
    {
        final List<CmField<LoadAlternatePath>> fields = new ArrayList<>(CmField.commIds("CM_LAP"));
        fields.addAll(List.of(
            CmField.bytes("CM_LAP_REMOTE_QPN_EECN", REMOTE_QPN_EECN_OFFSET, 24, LoadAlternatePath::remoteQpnEecn,
                (m, v) -> m.remoteQpnEecn((int)v)),
            CmField.bitField("CM_LAP_REMOTE_CM_RESPONSE_TIMEOUT", REMOTE_CM_RESPONSE_TIMEOUT_OFFSET,
                REMOTE_CM_RESPONSE_TIMEOUT_MASK, REMOTE_CM_RESPONSE_TIMEOUT_SHIFT,
                LoadAlternatePath::remoteCmResponseTimeout, (m, v) -> m.remoteCmResponseTimeout((int)v)),
            CmField.bytes("CM_LAP_ALTERNATE_LOCAL_PORT_LID", ALTERNATE_LOCAL_PORT_LID_OFFSET, 16,
                LoadAlternatePath::alternateLocalPortLid, (m, v) -> m.alternateLocalPortLid((int)v)),
            CmField.bytes("CM_LAP_ALTERNATE_REMOTE_PORT_LID", ALTERNATE_REMOTE_PORT_LID_OFFSET, 16,
                LoadAlternatePath::alternateRemotePortLid, (m, v) -> m.alternateRemotePortLid((int)v)),
            CmField.bitField("CM_LAP_ALTERNATE_FLOW_LABEL", ALTERNATE_FLOW_LABEL_OFFSET, ALTERNATE_FLOW_LABEL_MASK,
                ALTERNATE_FLOW_LABEL_SHIFT, LoadAlternatePath::alternateFlowLabel,
                (m, v) -> m.alternateFlowLabel((int)v)),
            CmField.bytes("CM_LAP_ALTERNATE_TRAFFIC_CLASS", ALTERNATE_TRAFFIC_CLASS_OFFSET, 8,
                LoadAlternatePath::alternateTrafficClass, (m, v) -> m.alternateTrafficClass((int)v)),
            CmField.bytes("CM_LAP_ALTERNATE_HOP_LIMIT", ALTERNATE_HOP_LIMIT_OFFSET, 8,
                LoadAlternatePath::alternateHopLimit, (m, v) -> m.alternateHopLimit((int)v)),
            CmField.bitField("CM_LAP_ALTERNATE_PACKET_RATE", ALTERNATE_PACKET_RATE_OFFSET, ALTERNATE_PACKET_RATE_MASK,
                ALTERNATE_PACKET_RATE_SHIFT, LoadAlternatePath::alternatePacketRate,
                (m, v) -> m.alternatePacketRate((int)v)),
            CmField.bitField("CM_LAP_ALTERNATE_SL", ALTERNATE_SL_OFFSET, ALTERNATE_SL_MASK, ALTERNATE_SL_SHIFT,
                LoadAlternatePath::alternateSl, (m, v) -> m.alternateSl((int)v)),
            CmField.flag("CM_LAP_ALTERNATE_SUBNET_LOCAL", ALTERNATE_SUBNET_LOCAL_OFFSET, ALTERNATE_SUBNET_LOCAL_MASK,
                ALTERNATE_SUBNET_LOCAL_SHIFT, LoadAlternatePath::alternateSubnetLocal,
                LoadAlternatePath::alternateSubnetLocal),
            CmField.bitField("CM_LAP_ALTERNATE_LOCAL_ACK_TIMEOUT", ALTERNATE_LOCAL_ACK_TIMEOUT_OFFSET,
                ALTERNATE_LOCAL_ACK_TIMEOUT_MASK, ALTERNATE_LOCAL_ACK_TIMEOUT_SHIFT,
                LoadAlternatePath::alternateLocalAckTimeout, (m, v) -> m.alternateLocalAckTimeout((int)v))));
        return fields;
    }

    @Override
    CmMessageSpec<LoadAlternatePath> spec()
    {
        return SPEC;
    }

    @Test
    void shouldPrintFieldsWithTsharksAlternatePathNames()
    {
        final LoadAlternatePath lap = new LoadAlternatePath()
            .encodeMad(new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]), 0, new MadHeader(), 1)
            .localCommId(1).remoteCommId(2).remoteQpnEecn(0x48).remoteCmResponseTimeout(20)
            .alternateLocalPortLid(3).alternateRemotePortLid(4)
            .alternateLocalPortGid(Gid.parse("fe80::3")).alternateRemotePortGid(Gid.parse("fe80::4"))
            .alternateFlowLabel(0xfffff).alternateTrafficClass(0xa0).alternateHopLimit(64).alternatePacketRate(7)
            .alternateSl(15).alternateSubnetLocal(true).alternateLocalAckTimeout(18);

        assertEquals("LAP{localcommid=0x1, remotecommid=0x2, remoteqpneecn=0x48, remoteresptout=20, " +
            "alt_locallid=3, alt_remotelid=4, alt_localgid=fe80::3, alt_remotegid=fe80::4, alt_flowlabel=0xfffff, " +
            "alt_tfcclass=160, alt_hoplim=64, alt_pktrate=7, alt_sl=15, alt_subnetlocal=1, alt_localacktout=18, " +
            "private=}", lap.toString());
    }
}
