package dev.rdmacm.cm;

import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.ibcm.IbCmEvent.RequestReceived;
import dev.rdmacm.ibcm.IbCmPath;
import dev.rdmacm.ibcm.IbCmPeerAddress;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.spi.FixedGidDirectory;
import dev.rdmacm.resolver.spi.GidDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma_listen on a wildcard: on every RDMA port (cma_listen_on_all), all or nothing, and an IDLE id
 * bound to the IPv4 wildcard first, as the kernel's rdma_listen does. What a real peer's requests to
 * such a listener get is checked against librdmacm's ucmatose in conformance's ClientsAcrossTheWire;
 * this host has no umad device, so here a port's CM cannot open, which is the failure path.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WildcardListenTest
{
    private static RdmaCm open(final GidDirectory gids) throws RdmaCmException
    {
        return RdmaCm.open(RdmaCm.Options.builder().gids(gids).build());
    }

    @Test
    void shouldBindAnIdleIdToTheIpv4WildcardAndAFreePortWhenItListens() throws Exception
    {
        try (RdmaCm cm = open(new FixedGidDirectory(List.of())); RdmaCmId id = cm.createId(cm.createEventChannel()))
        {
            id.listen(0);
            assertEquals(CmIdState.LISTEN, id.state());
            assertEquals(InetAddress.getByName("0.0.0.0"), id.boundSource());
            assertNotEquals(0, id.sourcePort());
        }
    }

    @Test
    void shouldListenOnTheWildcardWithNoRdmaDeviceAsTheKernelDoes() throws Exception
    {
        try (RdmaCm cm = open(new FixedGidDirectory(List.of())); RdmaCmId id = cm.createId(cm.createEventChannel()))
        {
            id.bindAddr(new InetSocketAddress(InetAddress.getByName("::"), 7471));
            id.listen(0);
            assertEquals(CmIdState.LISTEN, id.state());
            assertEquals(7471, id.sourcePort());
            assertNull(id.binding(), "a wildcard listener is on no one device");
        }
    }

    @Test
    void shouldRefuseToListenTwice() throws Exception
    {
        try (RdmaCm cm = open(new FixedGidDirectory(List.of())); RdmaCmId id = cm.createId(cm.createEventChannel()))
        {
            id.listen(0);
            final RdmaCmException refused = assertThrows(RdmaCmException.class, () -> id.listen(0));
            assertEquals(Errno.EINVAL, refused.errno());
            assertTrue(refused.getMessage().contains("is LISTEN: rdma_listen needs an IDLE or ADDR_BOUND id"), refused.getMessage());
        }
    }

    @Test
    void shouldFailAWildcardListenNamingThePortWhoseCmCannotOpenAndStayBound() throws Exception
    {
        try (RdmaCm cm = open(RecordedGids.softRoce()); RdmaCmId id = cm.createId(cm.createEventChannel()))
        {
            id.bindAddr(new InetSocketAddress(7471));
            final RdmaCmException refused = assertThrows(RdmaCmException.class, () -> id.listen(0));
            assertTrue(refused.getMessage().contains("rdma_listen") && refused.getMessage().contains("the CM on rxe0/1: "),
                refused.getMessage());
            assertTrue(refused.returnedByCall());
            assertEquals(CmIdState.ADDR_BOUND, id.state());
            assertEquals(7471, id.sourcePort(), "the port stays bound, as the kernel's failed listen leaves it");
            assertEquals(List.of(), threadsBesideTheConductor(), "no thread but the conductor");
        }
    }

    @Test
    void shouldHandTheRequestsValuesToTheAcceptorAsRdmaCmsParamConnNamesThem()
    {
        final Gid gid = Gid.parse("::ffff:192.0.2.1");
        final byte[] data = {1, 2, 3};
        final RequestReceived request = new RequestReceived(0x0106_0000_0000_1d2fL, 0x1122L, 0x11, 0x22,
            new IbCmPath(gid, gid, 0xffff, 0xffff, 0, 3, 0, 64, 0, 3, 18, 0xffff), 3, 5, 20, 20, 6, 4, true, false,
            new IbCmPeerAddress(gid, 1, 0), new byte[92]);
        final ConnectionParameters parameters = IdConnection.requestParameters(request, data);
        // cm_format_req_event then cma_set_req_event_data: what the acceptor answers with is the REQ's other side
        assertEquals(5, parameters.responderResources());
        assertEquals(3, parameters.initiatorDepth());
        assertEquals(6, parameters.retryCount());
        assertEquals(4, parameters.rnrRetryCount());
        assertTrue(parameters.flowControl());
        assertArrayEquals(data, parameters.privateData());
    }

    private static List<String> threadsBesideTheConductor()
    {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
            .filter(name -> name.startsWith("rdmacm-") && !name.equals("rdmacm-conductor")).toList();
    }
}
