package dev.rdmacm.cm;

import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.ibcm.IbCmEvent.SidrReplyReceived;
import dev.rdmacm.ibcm.SidrRequestParameters;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.Lid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.cm.IpCmPrivateDataHeader;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.verbs.AddressVector;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A UD id's (RDMA_PS_UDP) half of rdma_cm where no peer is needed: the SIDR_REQ that
 * {@code cma_resolve_ib_udp} asks for, the event {@code cma_sidr_rep_handler} makes of each kind of
 * SIDR_REP, and the calls a UD id refuses. The SIDR exchange itself is checked against the kernel's CM
 * and librdmacm's udaddy in conformance's UdaddyAcrossTheWire, and the engine's SIDR timers in
 * connection's SidrTest. Nothing here waits on a peer or a timer; each test is bounded anyway.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UdIdTest
{
    private static final Gid SOURCE_GID = Gid.parse("::ffff:172.31.60.2");
    private static final Gid DESTINATION_GID = Gid.parse("::ffff:172.31.60.1");
    /** udaddy's port. */
    private static final int PORT = 7174;

    private RdmaCm cm;
    private RdmaCmId id;

    @BeforeEach
    void open() throws Exception
    {
        cm = RdmaCm.open(RdmaCm.Options.builder().gids(RecordedGids.softRoce()).build());
        id = cm.createId(cm.createEventChannel(), PortSpace.UDP);
    }

    @AfterEach
    void close()
    {
        id.destroy();
        cm.close();
    }

    /** A RoCE path as the route gives it: hop limit 64, traffic class 0, flow label 0, SL 0, rate 3. */
    private static PathRecordValue rocePath()
    {
        return new PathRecordValue(0, DESTINATION_GID, SOURCE_GID, Lid.of(0x1234), Lid.of(0x5678), true, 0x12345, 64, 0x20, true,
            1, PKey.of(0xffff), 0, 3, 2, 3, 2, 3, 2, 18, 0);
    }

    private static RdmaPortBinding roceBinding()
    {
        return RecordedGids.softRoce().ports().getFirst();
    }

    @Test
    void shouldAskForTheUdpPortSpacesServiceIdWithRdmaCmsWaitRetriesAndIpCmHeader() throws Exception
    {
        final InetAddress source = InetAddress.getByName("172.31.60.2");
        final InetAddress destination = InetAddress.getByName("172.31.60.1");
        final SidrRequestParameters request = IdConnection.sidrRequest(PortSpace.UDP.serviceId(PORT), rocePath(), source,
            destination, 40000, new byte[] {7, 8}, IdConnection.CMA_CM_RESPONSE_TIMEOUT, IdConnection.CMA_MAX_CM_RETRIES);
        assertEquals(0x0000_0000_0111_1c06L, request.serviceId(), "(RDMA_PS_UDP << 16) + 7174");
        assertEquals(DESTINATION_GID, request.peer().gid());
        assertEquals(0xffff, request.pkey());
        // 4.096 us * 2^20 is 4.29 s; cm_convert_to_ms's power of two below it: 1 << (20 - 8)
        assertEquals(4096, request.timeoutMs());
        assertEquals(15, request.maxCmRetries());
        final byte[] data = request.privateData();
        assertEquals(IpCmPrivateDataHeader.LENGTH + 2, data.length);
        final IpCmPrivateDataHeader header = new IpCmPrivateDataHeader().wrap(new UnsafeBuffer(data), 0, data.length);
        assertEquals(IpCmPrivateDataHeader.CMA_VERSION, header.version());
        assertEquals(IpCmPrivateDataHeader.IP_VERSION_4, header.ipVersion());
        assertEquals(40000, header.sourcePort());
        assertEquals(source, header.sourceAddress());
        assertEquals(destination, header.destinationAddress());
        assertArrayEquals(new byte[] {7, 8}, Arrays.copyOfRange(data, IpCmPrivateDataHeader.LENGTH, data.length));
    }

    @Test
    void shouldReportAnAcceptingSidrReplyAsEstablishedWithTheRemoteQpItsQkeyAndTheRoutesAddress()
    {
        final byte[] data = new byte[136];
        data[0] = 42;
        final CmEvent event = IdConnection.sidrReplyEvent(id, new SidrReplyReceived(0, 0x11, IdConnection.RDMA_UDP_QKEY, new byte[0],
            data), roceBinding(), rocePath(), IdConnection.RDMA_UDP_QKEY);
        final CmEvent.Established established = assertInstanceOf(CmEvent.Established.class, event);
        final UdParameters ud = established.ud().orElseThrow();
        assertEquals(0x11, ud.qpNumber());
        assertEquals(0x01234567L, ud.qkey());
        assertArrayEquals(data, ud.privateData());
        final AddressVector ah = ud.ahAttr();
        assertEquals(roceBinding().port(), ah.port());
        assertEquals(0, ah.dlid(), "a RoCE AH has no DLID");
        assertEquals(3, ah.serviceLevel());
        assertEquals(3, ah.staticRate());
        final AddressVector.GlobalRoute grh = ah.grh().orElseThrow();
        assertEquals(DESTINATION_GID, grh.dgid());
        assertEquals(roceBinding().gidIndex(), grh.sgidIndex());
        assertEquals(64, grh.hopLimit());
        assertEquals(0x20, grh.trafficClass());
        assertEquals(0x12345, grh.flowLabel());
    }

    @Test
    void shouldReportARefusingSidrReplyAsUnreachableWithItsOwnStatus()
    {
        for (final int status : new int[] {1, 2, 3})
        {
            final CmEvent event = IdConnection.sidrReplyEvent(id, new SidrReplyReceived(status, 0, 0, new byte[0], new byte[136]),
                roceBinding(), rocePath(), IdConnection.RDMA_UDP_QKEY);
            assertEquals(CmEventType.UNREACHABLE, event.type());
            assertEquals(status, event.status(), "cma_sidr_rep_handler hands the SIDR status on as it is");
        }
    }

    @Test
    void shouldRefuseASidrReplyWhoseQkeyIsNotTheIdsAsAnAddressError()
    {
        final CmEvent event = IdConnection.sidrReplyEvent(id, new SidrReplyReceived(0, 0x11, 0x1111L, new byte[0], new byte[136]),
            roceBinding(), rocePath(), IdConnection.RDMA_UDP_QKEY);
        assertEquals(CmEventType.ADDR_ERROR, event.type());
        assertEquals(-Errno.EINVAL, event.status());
    }

    @Test
    void shouldTakeTheRepliesQkeyWhenTheIdHasNoQpYet()
    {
        final CmEvent event = IdConnection.sidrReplyEvent(id, new SidrReplyReceived(0, 0x11, 0x1111L, new byte[0], new byte[136]),
            roceBinding(), rocePath(), 0);
        assertEquals(0x1111L, assertInstanceOf(CmEvent.Established.class, event).ud().orElseThrow().qkey());
    }

    @Test
    void shouldRefuseToConnectAUdIdBeforeItsRouteIsResolved()
    {
        final RdmaCmException refused = assertThrows(RdmaCmException.class, () -> id.connect(ConnectionParameters.of(0, 0)));
        assertEquals(Errno.EINVAL, refused.errno());
        assertTrue(refused.getMessage().contains("is IDLE: rdma_connect needs ROUTE_RESOLVED"), refused.getMessage());
    }

    @Test
    void shouldRefuseToAcceptRejectOrDisconnectAUdIdNoRequestMade()
    {
        assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, () -> id.accept(ConnectionParameters.of(0, 0))).errno());
        assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, () -> id.reject(new byte[0])).errno());
        final RdmaCmException disconnect = assertThrows(RdmaCmException.class, id::disconnect);
        assertTrue(disconnect.getMessage().contains("UD id"), disconnect.getMessage());
    }

    @Test
    void shouldKeepAnRcConnectionsEstablishedFreeOfUdParameters()
    {
        assertTrue(new CmEvent.Established(id, new byte[0]).ud().isEmpty());
    }

    @Test
    void shouldRefuseAnUnreachableWithoutAStatus()
    {
        assertThrows(IllegalArgumentException.class, () -> new CmEvent.Unreachable(id, 0));
    }
}
