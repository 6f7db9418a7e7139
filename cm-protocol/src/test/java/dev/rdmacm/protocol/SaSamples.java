package dev.rdmacm.protocol;

import dev.rdmacm.protocol.SampleMessages.Sample;
import dev.rdmacm.protocol.capture.CaptureDirection;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.mad.RmppHeader;
import dev.rdmacm.protocol.mad.RmppType;
import dev.rdmacm.protocol.sa.ClassPortInfo;
import dev.rdmacm.protocol.sa.McMemberRecord;
import dev.rdmacm.protocol.sa.McMemberRecordComponentMask;
import dev.rdmacm.protocol.sa.MultiPathRecord;
import dev.rdmacm.protocol.sa.NodeRecord;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.protocol.sa.PathRecordComponentMask;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.protocol.sa.SaMad;
import dev.rdmacm.protocol.sa.Selector;
import dev.rdmacm.protocol.sa.ServiceRecord;
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

/** The SA samples: every SA attribute and method we encode that tshark decodes. */
final class SaSamples
{
    private SaSamples()
    {
    }

    static List<Sample> all()
    {
        return List.of(pathRecordGet(), pathRecordGetResp(), pathRecordGetTable(), pathRecordGetTableResp(),
            multiPathRecordGetMulti(), serviceRecordGetResp(), nodeRecordGetResp(), classPortInfoGetResp(),
            mcMemberRecordSet(), mcMemberRecordDelete());
    }

    private static ExpectedFields saFields(final String method, final String transactionId, final String attributeId,
        final String componentMask)
    {
        return new ExpectedFields()
            .put("infiniband.mad.baseversion", "0x01")
            .put("infiniband.mad.mgmtclass", "0x03")
            .put("infiniband.mad.classversion", "0x02")
            .put("infiniband.mad.method", method)
            .put("infiniband.mad.status", "0x0000")
            .put("infiniband.mad.transactionid", transactionId)
            .put("infiniband.mad.attributeid", attributeId)
            .put("infiniband.mad.attributemodifier", "0x00000000")
            .put("infiniband.sa.smkey", "0x0000000000000000")
            .put("infiniband.sa.componentmask", componentMask);
    }

    /** A path between the two GIDs of the samples, every property set to a value that is not a default. */
    private static void writePath(final PathRecord path)
    {
        path.serviceId(0x1122_3344_5566_7788L)
            .dgid(GID_PREFIX, DGID_INTERFACE).sgid(GID_PREFIX, SGID_INTERFACE).dlid(0x0002).slid(0x0001)
            .rawTraffic(false).flowLabel(0x12345).hopLimit(0x40).tClass(0x20).reversible(true).numbPath(1)
            .pKey(0xffff).qosClass(0x123).sl(3).mtuSelector(Selector.EXACTLY).mtu(4).rateSelector(Selector.EXACTLY)
            .rate(7).packetLifeTimeSelector(Selector.EXACTLY).packetLifeTime(18).preference(1);
    }

    private static ExpectedFields pathFields(final ExpectedFields fields)
    {
        return fields
            .put("infiniband.pathrecord.dgid", DGID_TEXT)
            .put("infiniband.pathrecord.sgid", SGID_TEXT)
            .put("infiniband.pathrecord.dlid", "0x0002")
            .put("infiniband.pathrecord.slid", "0x0001")
            .put("infiniband.pathrecord.rawtraffic", "0x00")
            .put("infiniband.pathrecord.flowlabel", "0x012345")
            .put("infiniband.pathrecord.hoplimit", "0x40")
            .put("infiniband.pathrecord.tclass", "0x20")
            .put("infiniband.pathrecord.reversible", "0x01")
            .put("infiniband.pathrecord.numbpath", "0x01")
            .put("infiniband.pathrecord.p_key", "0xffff")
            .put("infiniband.pathrecord.sl", "0x0003")
            .put("infiniband.pathrecord.mtuselector", "0x02")
            .put("infiniband.pathrecord.mtu", "0x04")
            .put("infiniband.pathrecord.rateselector", "0x02")
            .put("infiniband.pathrecord.rate", "0x07")
            .put("infiniband.pathrecord.packetlifetimeselector", "0x02")
            .put("infiniband.pathrecord.packetlifetime", "0x12")
            .put("infiniband.pathrecord.preference", "0x01");
    }

    /** tshark shows the PathRecord ServiceID as reserved bytes and QoSClass not at all (bug 6). */
    private static Map<Integer, String> pathRawBytes(final int recordInMad)
    {
        final Map<Integer, String> raw = new LinkedHashMap<>();
        raw.put(recordInMad, "1122334455667788");
        raw.put(recordInMad + 52, "1233"); // QoSClass 0x123 in the high 12 bits, SL 3 in the low 4
        return raw;
    }

    private static final long PATH_QUERY_MASK = PathRecordComponentMask.DGID | PathRecordComponentMask.SGID |
        PathRecordComponentMask.NUMB_PATH | PathRecordComponentMask.P_KEY;

    static Sample pathRecordGet()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.GET, 0x0000_0001_0000_0001L,
            SaAttribute.PATH_RECORD).componentMask(PATH_QUERY_MASK);
        writePath(new PathRecord().wrap(mad, sa.dataOffset()));
        return new Sample("SA Get(PathRecord)", CaptureDirection.SENT, mad,
            pathFields(saFields("0x01", "0x0000000100000001", "0x0035", "0x000000000000300c")).map(),
            pathRawBytes(SaMad.DATA_OFFSET));
    }

    static Sample pathRecordGetResp()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.GET_RESP, 0x0000_0001_0000_0001L,
            SaAttribute.PATH_RECORD).componentMask(PATH_QUERY_MASK);
        writePath(new PathRecord().wrap(mad, sa.dataOffset()));
        return new Sample("SA GetResp(PathRecord)", CaptureDirection.RECEIVED, mad,
            pathFields(saFields("0x81", "0x0000000100000001", "0x0035", "0x000000000000300c")).map(),
            pathRawBytes(SaMad.DATA_OFFSET));
    }

    static Sample pathRecordGetTable()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.GET_TABLE, 0x0000_0001_0000_0002L,
            SaAttribute.PATH_RECORD).componentMask(PathRecordComponentMask.SGID | PathRecordComponentMask.NUMB_PATH);
        new PathRecord().wrap(mad, sa.dataOffset()).sgid(GID_PREFIX, SGID_INTERFACE).numbPath(127);
        return new Sample("SA GetTable(PathRecord)", CaptureDirection.SENT, mad,
            saFields("0x12", "0x0000000100000002", "0x0035", "0x0000000000001008")
                .put("infiniband.pathrecord.sgid", SGID_TEXT)
                .put("infiniband.pathrecord.numbpath", "0x7f")
                .put("infiniband.rmpp.rmppversion", "0x00")
                .put("infiniband.rmpp.rmpptype", "0x00").map(),
            Map.of());
    }

    /** Two PathRecords in one RMPP segment; tshark decodes only the first (bug 5). */
    static Sample pathRecordGetTableResp()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.GET_TABLE_RESP, 0x0000_0001_0000_0002L,
            SaAttribute.PATH_RECORD).componentMask(PathRecordComponentMask.SGID | PathRecordComponentMask.NUMB_PATH)
            .attributeOffset(PathRecord.LENGTH / SaMad.ATTRIBUTE_OFFSET_UNIT);
        // RRespTime even: tshark halves it and mixes its low bit into the flags (bug 3)
        sa.rmpp().version(RmppHeader.VERSION).type(RmppType.DATA).respTime(0x10)
            .flags(RmppHeader.FLAG_ACTIVE | RmppHeader.FLAG_FIRST | RmppHeader.FLAG_LAST).status(0)
            .segmentNumber(1).payloadLength(20 + 2 * PathRecord.LENGTH);
        final PathRecord path = new PathRecord();
        writePath(path.wrap(mad, sa.dataOffset()));
        writePath(path.wrap(mad, sa.dataOffset() + PathRecord.LENGTH));
        path.dlid(0x0003);

        final Map<Integer, String> raw = new LinkedHashMap<>(pathRawBytes(SaMad.DATA_OFFSET));
        raw.put(RmppHeader.RESP_TIME_FLAGS_OFFSET, "87"); // RRespTime 0x10 << 3 | Active, First, Last
        raw.put(SaMad.DATA_OFFSET + PathRecord.LENGTH + 40, "00030001"); // second record: DLID 3, SLID 1
        return new Sample("SA GetTableResp(PathRecord), 2 records", CaptureDirection.RECEIVED, mad,
            pathFields(saFields("0x92", "0x0000000100000002", "0x0035", "0x0000000000001008"))
                .put("infiniband.sa.attributeoffset", "0x0008")
                .put("infiniband.rmpp.rmppversion", "0x01")
                .put("infiniband.rmpp.rmpptype", "0x01")
                .put("infiniband.rmpp.rmppflags", "0x07")
                .put("infiniband.rmpp.rmppstatus", "0x00")
                .put("infiniband.rmpp.segmentnumber", "0x00000001")
                .put("infiniband.rmpp.payloadlength", "0x00000094").map(),
            raw);
    }

    static Sample multiPathRecordGetMulti()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.GET_MULTI, 0x0000_0001_0000_0003L,
            SaAttribute.MULTI_PATH_RECORD).componentMask(0x0000_0000_0000_ffffL);
        sa.rmpp().version(RmppHeader.VERSION).type(RmppType.DATA).respTime(0)
            .flags(RmppHeader.FLAG_ACTIVE | RmppHeader.FLAG_FIRST | RmppHeader.FLAG_LAST)
            .segmentNumber(1).payloadLength(20 + MultiPathRecord.length(2));
        new MultiPathRecord().wrap(mad, sa.dataOffset()).clear(2)
            .rawTraffic(false).flowLabel(0x54321).hopLimit(0x02).tClass(0x10).reversible(true).numbPath(2)
            .pKey(0x8001).sl(5).mtuSelector(Selector.LARGEST_AVAILABLE).mtu(5).rateSelector(Selector.GREATER_THAN)
            .rate(3).packetLifeTimeSelector(Selector.LESS_THAN).packetLifeTime(20).independenceSelector(1)
            .sgidCount(1).dgidCount(1).serviceId(0x0000_0000_0106_4e20L)
            .gid(0, GID_PREFIX, SGID_INTERFACE).gid(1, GID_PREFIX, DGID_INTERFACE);

        final Map<Integer, String> raw = new LinkedHashMap<>();
        // ServiceID is not decoded (bug 6): its 8 high bits at record byte 13, its 56 low bits at 17-23
        raw.put(SaMad.DATA_OFFSET + 13, "00");
        raw.put(SaMad.DATA_OFFSET + 17, "00000001064e20");
        return new Sample("SA GetMulti(MultiPathRecord), RMPP", CaptureDirection.SENT, mad,
            saFields("0x14", "0x0000000100000003", "0x003a", "0x000000000000ffff")
                .put("infiniband.rmpp.rmppversion", "0x01")
                .put("infiniband.rmpp.rmpptype", "0x01")
                .put("infiniband.rmpp.rmppflags", "0x07")
                .put("infiniband.rmpp.segmentnumber", "0x00000001")
                .put("infiniband.rmpp.payloadlength", "0x0000004c")
                .put("infiniband.multipathrecord.rawtraffic", "0x00")
                .put("infiniband.multipathrecord.flowlabel", "0x054321")
                .put("infiniband.multipathrecord.hoplimit", "0x02")
                .put("infiniband.multipathrecord.tclass", "0x10")
                .put("infiniband.multipathrecord.reversible", "0x01")
                .put("infiniband.multipathrecord.numbpath", "0x02")
                .put("infiniband.multipathrecord.p_key", "0x8001")
                .put("infiniband.multipathrecord.sl", "0x05")
                .put("infiniband.multipathrecord.mtuselector", "0x03")
                .put("infiniband.multipathrecord.mtu", "0x05")
                .put("infiniband.multipathrecord.rateselector", "0x00")
                .put("infiniband.multipathrecord.rate", "0x03")
                .put("infiniband.multipathrecord.packetlifetimeselector", "0x01")
                .put("infiniband.multipathrecord.packetlifetime", "0x14")
                .put("infiniband.multipathrecord.independenceselector", "0x01")
                .put("infiniband.multipathrecord.sgidcount", "0x01")
                .put("infiniband.multipathrecord.dgidcount", "0x01")
                .put("infiniband.multipathrecord.sdgid", SGID_TEXT, DGID_TEXT).map(),
            raw);
    }

    static Sample serviceRecordGetResp()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.GET_RESP, 0x0000_0001_0000_0004L,
            SaAttribute.SERVICE_RECORD).componentMask(0x1L);
        new ServiceRecord().wrap(mad, sa.dataOffset()).clear()
            .serviceId(0x1000_0000_0000_1234L).serviceGid(GID_PREFIX, DGID_INTERFACE).servicePKey(0xffff)
            .serviceLease(ServiceRecord.INFINITE_LEASE).serviceKey(0x0102_0304_0506_0708L, 0x090a_0b0c_0d0e_0f10L)
            .serviceName("rdmacm-java").serviceData8(0, 0x11).serviceData16(0, 0x2233)
            .serviceData32(0, 0x4455_6677L).serviceData64(0, 0x8899_aabb_ccdd_eeffL);

        // bytes fields: tshark -T ek prints them as plain hex; ServiceData comes as its four arrays
        final String name = "72646d61636d2d6a617661" + "00".repeat(64 - 11);
        return new Sample("SA GetResp(ServiceRecord)", CaptureDirection.RECEIVED, mad,
            saFields("0x81", "0x0000000100000004", "0x0031", "0x0000000000000001")
                .put("infiniband.linkrecord.serviceid", "0x1000000000001234")
                .put("infiniband.linkrecord.servicegid", DGID_TEXT)
                .put("infiniband.linkrecord.servicep_key", "0xffff")
                .put("infiniband.linkrecord.servicelease", "0xffffffff")
                .put("infiniband.linkrecord.servicekey", "0102030405060708090a0b0c0d0e0f10")
                .put("infiniband.linkrecord.servicename", name)
                .put("infiniband.linkrecord.servicedata", "11" + "00".repeat(15), "2233" + "00".repeat(14),
                    "44556677" + "00".repeat(12), "8899aabbccddeeff" + "00".repeat(8)).map(),
            Map.of());
    }

    static Sample nodeRecordGetResp()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.GET_RESP, 0x0000_0001_0000_0005L,
            SaAttribute.NODE_RECORD).componentMask(0x1L);
        new NodeRecord().wrap(mad, sa.dataOffset()).clear()
            .lid(0x0004).baseVersion(1).classVersion(1).nodeType(NodeRecord.NODE_TYPE_CA).numPorts(2)
            .systemImageGuid(0x0002_c903_0000_1000L).nodeGuid(0x0002_c903_0000_1001L).portGuid(0x0002_c903_0000_1002L)
            .partitionCap(128).deviceId(0x1003).revision(0xa0).localPortNum(1).vendorId(0x0002c9)
            .nodeDescription("rdmacm-java HCA-1");
        return new Sample("SA GetResp(NodeRecord)", CaptureDirection.RECEIVED, mad,
            saFields("0x81", "0x0000000100000005", "0x0011", "0x0000000000000001")
                .put("infiniband.sa.lid", "0x0004")
                .put("infiniband.nodeinfo.baseversion", "0x01")
                .put("infiniband.nodeinfo.classversion", "0x01")
                .put("infiniband.nodeinfo.nodetype", "0x01")
                .put("infiniband.nodeinfo.numports", "0x02")
                .put("infiniband.nodeinfo.systemimageguid", "0x0002c90300001000")
                .put("infiniband.nodeinfo.nodeguid", "0x0002c90300001001")
                .put("infiniband.nodeinfo.portguid", "0x0002c90300001002")
                .put("infiniband.nodeinfo.partitioncap", "0x0080")
                .put("infiniband.nodeinfo.deviceid", "0x1003")
                .put("infiniband.nodeinfo.revision", "0x000000a0")
                .put("infiniband.nodeinfo.localportnum", "0x01")
                .put("infiniband.nodeinfo.vendorid", "0x0002c9")
                .put("infiniband.nodedescription.nodestring", "rdmacm-java HCA-1").map(),
            Map.of());
    }

    static Sample classPortInfoGetResp()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.GET_RESP, 0x0000_0001_0000_0006L,
            SaAttribute.CLASS_PORT_INFO);
        new ClassPortInfo().wrap(mad, sa.dataOffset()).clear()
            .baseVersion(1).classVersion(2)
            .capabilityMask(ClassPortInfo.CAP_GET_SET | ClassPortInfo.SA_CAP_MULTI_PATH)
            .capabilityMask2(ClassPortInfo.SA_CAP2_QOS).respTimeValue(18)
            .redirectGid(GID_PREFIX, DGID_INTERFACE).redirectTc(0x20).redirectSl(3).redirectFl(0x12345)
            .redirectLid(0x0007).redirectPKey(0xffff).redirectQp(0x000abc).redirectQKey(0x8001_0000L)
            .trapGid(GID_PREFIX, SGID_INTERFACE).trapTc(0x10).trapSl(5).trapFl(0x54321).trapLid(0x0009)
            .trapPKey(0x7fff).trapHopLimit(0x40).trapQp(0x000def).trapQKey(0x8001_0001L);
        return new Sample("SA GetResp(ClassPortInfo)", CaptureDirection.RECEIVED, mad,
            saFields("0x81", "0x0000000100000006", "0x0001", "0x0000000000000000")
                .put("infiniband.classportinfo.baseversion", "0x01")
                .put("infiniband.classportinfo.classversion", "0x02")
                .put("infiniband.classportinfo.capabilitymask", "0x0402")
                .put("infiniband.classportinfo.capabilitymask2", "0x00000002")
                .put("infiniband.classportinfo.resptimevalue", "0x12")
                .put("infiniband.classportinfo.redirectgid", DGID_TEXT)
                .put("infiniband.classportinfo.redirecttc", "0x20")
                .put("infiniband.classportinfo.redirectsl", "0x03")
                .put("infiniband.classportinfo.redirectfl", "0x012345")
                .put("infiniband.classportinfo.redirectlid", "0x0007")
                .put("infiniband.classportinfo.redirectpkey", "0xffff")
                .put("infiniband.classportinfo.redirectqp", "0x000abc")
                .put("infiniband.classportinfo.redirectqkey", "0x80010000")
                .put("infiniband.classportinfo.trapgid", SGID_TEXT)
                .put("infiniband.classportinfo.traptc", "0x10")
                .put("infiniband.classportinfo.trapsl", "0x05")
                .put("infiniband.classportinfo.trapfl", "0x054321")
                .put("infiniband.classportinfo.traplid", "0x0009")
                .put("infiniband.classportinfo.trappkey", "0x7fff")
                .put("infiniband.classportinfo.trapqp", "0x000def")
                .put("infiniband.classportinfo.trapqkey", "0x80010001").map(),
            Map.of(SaMad.DATA_OFFSET + 64, "40000def")); // TrapHL is not shown by tshark
    }

    /** A join as cma_join_ib_multicast sends it, every field set to a value that is not a default. */
    static Sample mcMemberRecordSet()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.SET, 0x0000_0001_0000_0007L,
            SaAttribute.MC_MEMBER_RECORD).componentMask(McMemberRecordComponentMask.KERNEL_JOIN_IPOIB);
        new McMemberRecord().wrap(mad, sa.dataOffset()).clear()
            .mgid(Gid.parse("ff12:4001:ffff::f01:203")).portGid(new Gid(GID_PREFIX, SGID_INTERFACE)).qkey(0x0123_4567L)
            .mlid(0xc001).mtuSelector(Selector.EXACTLY).mtu(4).tClass(0x20).pKey(0xffff)
            .rateSelector(Selector.LESS_THAN).rate(3).packetLifeTimeSelector(Selector.LARGEST_AVAILABLE).packetLifeTime(18)
            .sl(5).flowLabel(0x12345).hopLimit(0x40).scope(2).joinState(McMemberRecord.JoinState.SEND_ONLY_FULL_MEMBER);
        return new Sample("SA Set(MCMemberRecord)", CaptureDirection.SENT, mad,
            saFields("0x02", "0x0000000100000007", "0x0038", "0x00000000000173f7")
                .put("infiniband.mcmemberrecord.mgid", "ff12:4001:ffff::f01:203")
                .put("infiniband.mcmemberrecord.portgid", SGID_TEXT)
                .put("infiniband.mcmemberrecord.q_key", "0x01234567")
                .put("infiniband.mcmemberrecord.mlid", "0xc001")
                .put("infiniband.mcmemberrecord.mtuselector", "0x02")
                .put("infiniband.mcmemberrecord.mtu", "0x04")
                .put("infiniband.mcmemberrecord.tclass", "0x20")
                .put("infiniband.mcmemberrecord.p_key", "0xffff")
                .put("infiniband.mcmemberrecord.rateselector", "0x01")
                .put("infiniband.mcmemberrecord.rate", "0x03")
                .put("infiniband.mcmemberrecord.packetlifetimeselector", "0x03")
                .put("infiniband.mcmemberrecord.packetlifetime", "0x12")
                .put("infiniband.mcmemberrecord.sl", "0x05")
                .put("infiniband.mcmemberrecord.flowlabel", "0x012345")
                .put("infiniband.mcmemberrecord.hoplimit", "0x40")
                .put("infiniband.mcmemberrecord.scope", "0x02")
                .put("infiniband.mcmemberrecord.joinstate", "0x08")
                .put("infiniband.mcmemberrecord.proxyjoin", "0x00").map(),
            Map.of());
    }

    /** A leave as multicast.c's send_leave sends it, by proxy: ProxyJoin is the first bit after JoinState. */
    static Sample mcMemberRecordDelete()
    {
        final UnsafeBuffer mad = newMad();
        final SaMad sa = new SaMad().wrap(mad, 0).initRequest(MadMethod.DELETE, 0x0000_0001_0000_0008L,
            SaAttribute.MC_MEMBER_RECORD).componentMask(McMemberRecordComponentMask.KERNEL_LEAVE);
        new McMemberRecord().wrap(mad, sa.dataOffset()).clear()
            .mgid(Gid.parse("ff12:401b:ffff::ffff:ffff")).portGid(new Gid(GID_PREFIX, DGID_INTERFACE))
            .joinState(McMemberRecord.JoinState.FULL_MEMBER | McMemberRecord.JoinState.NON_MEMBER).proxyJoin(true);
        return new Sample("SA Delete(MCMemberRecord)", CaptureDirection.SENT, mad,
            saFields("0x15", "0x0000000100000008", "0x0038", "0x0000000000010003")
                .put("infiniband.mcmemberrecord.mgid", "ff12:401b:ffff::ffff:ffff")
                .put("infiniband.mcmemberrecord.portgid", DGID_TEXT)
                .put("infiniband.mcmemberrecord.scope", "0x00")
                .put("infiniband.mcmemberrecord.joinstate", "0x03")
                .put("infiniband.mcmemberrecord.proxyjoin", "0x01").map(),
            Map.of(SaMad.DATA_OFFSET + McMemberRecord.SCOPE_JOIN_STATE_OFFSET, "03800000"));
    }
}
