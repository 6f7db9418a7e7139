package dev.rdmacm.benchmarks;

import dev.rdmacm.protocol.cm.ConnectRequest;
import dev.rdmacm.protocol.cm.ConnectRequestPath;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.MadMethod;
import dev.rdmacm.protocol.sa.PathRecord;
import dev.rdmacm.protocol.sa.PathRecordComponentMask;
import dev.rdmacm.protocol.sa.SaAttribute;
import dev.rdmacm.protocol.sa.SaMad;
import dev.rdmacm.protocol.sa.Selector;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Encoding and decoding whole MADs, each against the floor of any codec measured in the same run:
 * copying the same 256 bytes. Encoding writes every field (and zeroes the MAD first, as a sender
 * must); decoding wraps, checks the length and reads every field. Both reuse their flyweights and
 * buffers, so the target is 0 B/op.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgs = {"--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class MadCodecBenchmark
{
    private static final long PREFIX = 0xfe80_0000_0000_0000L;
    private static final long PATH_MASK = PathRecordComponentMask.DGID | PathRecordComponentMask.SGID |
        PathRecordComponentMask.NUMB_PATH | PathRecordComponentMask.P_KEY;

    private final UnsafeBuffer pathRecordMad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    private final UnsafeBuffer connectRequestMad = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    private final UnsafeBuffer target = new UnsafeBuffer(new byte[MadHeader.MAD_SIZE]);
    private final SaMad sa = new SaMad();
    private final PathRecord path = new PathRecord();
    private final MadHeader madHeader = new MadHeader();
    private final ConnectRequest request = new ConnectRequest();
    private final IpCmPrivateDataHeader ipCm = new IpCmPrivateDataHeader();
    private long transactionId;

    @Setup
    public void setUp()
    {
        encodePathRecord(pathRecordMad, 0x1234_5678L);
        encodeConnectRequest(connectRequestMad, 0x1234_5678L);
    }

    /** The floor: a plain copy of the 256 bytes of a MAD. */
    @Benchmark
    public UnsafeBuffer copyMad()
    {
        target.putBytes(0, pathRecordMad, 0, MadHeader.MAD_SIZE);
        return target;
    }

    /** An SA GetResp(PathRecord): MAD header, SA header and every PathRecord field. */
    @Benchmark
    public UnsafeBuffer encodePathRecordMad()
    {
        encodePathRecord(target, ++transactionId);
        return target;
    }

    @Benchmark
    public long decodePathRecordMad()
    {
        final SaMad mad = sa.wrap(pathRecordMad, 0, MadHeader.MAD_SIZE);
        final MadHeader header = mad.header();
        final PathRecord record = path.wrap(pathRecordMad, mad.dataOffset(), SaMad.DATA_LENGTH);
        return header.baseVersion() + header.mgmtClass() + header.classVersion() + header.method() +
            header.status() + header.transactionId() + header.attributeId() + header.attributeModifier() +
            mad.rmpp().flags() + mad.smKey() + mad.attributeOffset() + mad.componentMask() +
            record.serviceId() + record.dgidPrefix() + record.dgidInterfaceId() + record.sgidPrefix() +
            record.sgidInterfaceId() + record.dlid() + record.slid() + (record.rawTraffic() ? 1 : 0) +
            record.flowLabel() + record.hopLimit() + record.tClass() + (record.reversible() ? 1 : 0) +
            record.numbPath() + record.pKey() + record.qosClass() + record.sl() + record.mtuSelector() +
            record.mtu() + record.rateSelector() + record.rate() + record.packetLifeTimeSelector() +
            record.packetLifeTime() + record.preference();
    }

    /** A CM REQ with the RDMA IP CM header: MAD header, every REQ field, the primary path, the IP CM header. */
    @Benchmark
    public UnsafeBuffer encodeConnectRequestMad()
    {
        encodeConnectRequest(target, ++transactionId);
        return target;
    }

    @Benchmark
    public long decodeConnectRequestMad()
    {
        final ConnectRequest req = request.wrapMad(connectRequestMad, 0, MadHeader.MAD_SIZE);
        final MadHeader header = madHeader.wrap(connectRequestMad, 0, MadHeader.MAD_SIZE);
        final ConnectRequestPath primary = req.primaryPath();
        final IpCmPrivateDataHeader ip = ipCm.wrap(req);
        return header.baseVersion() + header.mgmtClass() + header.classVersion() + header.method() +
            header.status() + header.transactionId() + header.attributeId() + header.attributeModifier() +
            req.localCommId() + req.vendorId() + req.serviceId() + req.localCaGuid() + req.localQKey() +
            req.localQpn() + req.responderResources() + req.localEecn() + req.initiatorDepth() + req.remoteEecn() +
            req.remoteCmResponseTimeout() + req.transportServiceType() + (req.endToEndFlowControl() ? 1 : 0) +
            req.startingPsn() + req.localCmResponseTimeout() + req.retryCount() + req.partitionKey() +
            req.pathMtu() + (req.rdcExists() ? 1 : 0) + req.rnrRetryCount() + req.maxCmRetries() +
            (req.srq() ? 1 : 0) + req.extendedTransportType() +
            primary.localPortLid() + primary.remotePortLid() + primary.localPortGidSubnetPrefix() +
            primary.localPortGidInterfaceId() + primary.remotePortGidSubnetPrefix() +
            primary.remotePortGidInterfaceId() + primary.flowLabel() + primary.packetRate() +
            primary.trafficClass() + primary.hopLimit() + primary.sl() + (primary.subnetLocal() ? 1 : 0) +
            primary.localAckTimeout() +
            ip.version() + ip.ipVersion() + ip.sourcePort() + ip.sourceIpv4() + ip.destinationIpv4();
    }

    private void encodeConnectRequest(final UnsafeBuffer buffer, final long tid)
    {
        final ConnectRequest req = request.encodeMad(buffer, 0, madHeader, tid)
            .localCommId(0x1122_3344L).serviceId(0x0000_0000_0106_4e20L).localCaGuid(0x0002_c903_0000_1001L)
            .localQKey(0).localQpn(0x000123).responderResources(4).localEecn(0).initiatorDepth(4).remoteEecn(0)
            .remoteCmResponseTimeout(20).transportServiceType(0).endToEndFlowControl(true).startingPsn(0xabcdef)
            .localCmResponseTimeout(20).retryCount(7).partitionKey(0xffff).pathMtu(4).rdcExists(false)
            .rnrRetryCount(7).maxCmRetries(15).srq(false).extendedTransportType(0);
        req.primaryPath().localPortLid(4).remotePortLid(1).localPortGid(PREFIX, 0x0002_c903_0000_0001L)
            .remotePortGid(PREFIX, 0x0002_c903_0000_0002L).flowLabel(0x12345).packetRate(7).trafficClass(0x20)
            .hopLimit(64).sl(3).subnetLocal(true).localAckTimeout(18);
        ipCm.wrap(req).version(IpCmPrivateDataHeader.CMA_VERSION).ipVersion(IpCmPrivateDataHeader.IP_VERSION_4)
            .sourcePort(50_000).sourceIpv4(0xc0a8_0105).destinationIpv4(0xc0a8_0106);
    }

    private void encodePathRecord(final UnsafeBuffer buffer, final long tid)
    {
        final SaMad mad = sa.wrap(buffer, 0).initRequest(MadMethod.GET_RESP, tid, SaAttribute.PATH_RECORD)
            .componentMask(PATH_MASK);
        path.wrap(buffer, mad.dataOffset())
            .serviceId(0x1122_3344_5566_7788L).dgid(PREFIX, 0x0002_c903_0000_0002L).sgid(PREFIX, 0x0002_c903_0000_0001L)
            .dlid(2).slid(1).rawTraffic(false).flowLabel(0x12345).hopLimit(64).tClass(0x20).reversible(true)
            .numbPath(1).pKey(0xffff).qosClass(0).sl(3).mtuSelector(Selector.EXACTLY).mtu(4)
            .rateSelector(Selector.EXACTLY).rate(7).packetLifeTimeSelector(Selector.EXACTLY).packetLifeTime(18)
            .preference(0);
    }
}
