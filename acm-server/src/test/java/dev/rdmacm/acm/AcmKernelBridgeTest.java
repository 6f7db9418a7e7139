package dev.rdmacm.acm;

import dev.rdmacm.netlink.rdma.LsResolveRequest;
import dev.rdmacm.netlink.rdma.LsResolveResponse;
import dev.rdmacm.netlink.rdma.LsSetTimeout;
import dev.rdmacm.netlink.rdma.RdmaNlLs;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Kernel offload without a kernel (this one has no NETLINK_RDMA): LS RESOLVE requests encoded as the
 * kernel encodes them (checked against C in RdmaNlLsTest) are answered from the server's route table
 * as ibacm answers them.
 */
class AcmKernelBridgeTest
{
    private static final Gid SGID = Gid.parse("fe80::2:c903:0:1");
    private static final Gid DGID = Gid.parse("fe80::2:c903:0:2");

    private static AcmServerFixture fixture;
    private static final BlockingQueue<byte[]> toKernel = new LinkedBlockingQueue<>();
    private static AcmKernelBridge bridge;

    @BeforeAll
    static void startServer() throws IOException
    {
        fixture = AcmServerFixture.start("", AcmPathQuerier.NONE);
        bridge = new AcmKernelBridge(fixture.server, 4242, toKernel::add);
    }

    @AfterAll
    static void stopServer()
    {
        fixture.close();
    }

    private static byte[] kernelRequest(final long seq, final Gid dgid, final int pathUse)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
        final int length = new LsResolveRequest(seq, "mlx5_0", 1, pathUse, 0x0000000001061d2fL, dgid, SGID, 0, 0xffff,
            null).encode(buffer, 0);
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    private static byte[] answer() throws InterruptedException
    {
        final byte[] answer = toKernel.poll(5, TimeUnit.SECONDS);
        assertNotNull(answer, "an answer for the kernel");
        return answer;
    }

    @Test
    void shouldAnswerKernelPathQueryFromTheRouteTable() throws Exception
    {
        bridge.onMessage(kernelRequest(17, DGID, RdmaNlLs.PATH_USE_GMP));
        final byte[] answer = answer();
        final UnsafeBuffer buffer = new UnsafeBuffer(answer);
        final NetlinkMessageHeader header = new NetlinkMessageHeader().wrap(buffer, 0, answer.length);
        assertEquals(17, header.sequence());
        assertEquals(4242, header.portId());
        assertEquals(0, header.flags());
        assertEquals(RdmaNlLs.type(RdmaNlLs.CLIENT_LS, RdmaNlLs.OP_RESOLVE), header.type());
        final IbvPathData data = new IbvPathData().wrap(buffer, NetlinkMessageHeader.LENGTH + 4, IbvPathData.LENGTH);
        assertEquals(IbvPathData.FLAG_PRIMARY | IbvPathData.FLAG_GMP | IbvPathData.FLAG_BIDIRECTIONAL, data.flags());
        final IbvPathRecord path = new IbvPathRecord().wrap(
            new UnsafeBuffer(LsResolveResponse.decodePath(buffer, 0, answer.length)), 0, IbvPathRecord.LENGTH);
        assertEquals(DGID, path.dgid());
        assertEquals(SGID, path.sgid());
        assertEquals(5, path.dlid());
        assertEquals(1, path.slid());
    }

    @Test
    void shouldMarkUnidirectionalAnswerPrimaryOutbound() throws Exception
    {
        bridge.onMessage(kernelRequest(18, DGID, RdmaNlLs.PATH_USE_UNIDIRECTIONAL));
        final byte[] answer = answer();
        final IbvPathData data = new IbvPathData().wrap(new UnsafeBuffer(answer), NetlinkMessageHeader.LENGTH + 4,
            IbvPathData.LENGTH);
        assertEquals(IbvPathData.FLAG_PRIMARY | IbvPathData.FLAG_OUTBOUND, data.flags());
    }

    @Test
    void shouldAnswerUnknownDestinationWithErrFlag() throws Exception
    {
        bridge.onMessage(kernelRequest(19, Gid.parse("fe80::77"), RdmaNlLs.PATH_USE_GMP));
        final byte[] answer = answer();
        final NetlinkMessageHeader header = new NetlinkMessageHeader().wrap(new UnsafeBuffer(answer), 0, answer.length);
        assertEquals(RdmaNlLs.F_ERR, header.flags());
        assertEquals(19, header.sequence());
        assertEquals(NetlinkMessageHeader.LENGTH, answer.length);
    }

    @Test
    void shouldAnswerOtherOperationsWithErrFlag() throws Exception
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final int length = LsSetTimeout.encode(buffer, 0, 20, 0, 1000);
        final byte[] message = new byte[length];
        buffer.getBytes(0, message);
        bridge.onMessage(message);
        final byte[] answer = answer();
        assertEquals(RdmaNlLs.F_ERR,
            new NetlinkMessageHeader().wrap(new UnsafeBuffer(answer), 0, answer.length).flags());
    }

    @Test
    void shouldIgnoreOtherNetlinkClients() throws Exception
    {
        final byte[] message = kernelRequest(21, DGID, RdmaNlLs.PATH_USE_GMP);
        new NetlinkMessageHeader().wrap(new UnsafeBuffer(message), 0).type(RdmaNlLs.type(RdmaNlLs.CLIENT_NLDEV, 0));
        bridge.onMessage(message);
        assertNull(toKernel.poll(200, TimeUnit.MILLISECONDS));
    }
}
