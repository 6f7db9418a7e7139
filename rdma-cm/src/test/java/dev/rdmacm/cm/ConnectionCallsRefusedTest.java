package dev.rdmacm.cm;

import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connection calls refuse what librdmacm's refuse before any MAD is sent: EINVAL from the call,
 * naming the id's state or the limit broken. The connections themselves are compared with the kernel's
 * CM in the conformance guests.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectionCallsRefusedTest
{
    private static NamespaceTopology topology;
    private static RdmaCm cm;

    @BeforeAll
    static void start() throws Exception
    {
        topology = NamespaceTopology.create();
        cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath()).gids(RecordedGids.softRoce()).build());
    }

    @AfterAll
    static void stop()
    {
        if (cm != null)
        {
            cm.close();
        }
        if (topology != null)
        {
            topology.close();
        }
    }

    @Test
    void shouldRefuseToConnectBeforeTheRouteIsResolved()
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException refused = assertThrows(RdmaCmException.class, () -> id.connect(ConnectionParameters.of(1, 1)));
            assertEquals(Errno.EINVAL, refused.errno());
            assertTrue(refused.returnedByCall());
            assertTrue(refused.getMessage().contains("is IDLE: rdma_connect needs ROUTE_RESOLVED"), refused.getMessage());
        }
    }

    @Test
    void shouldRefuseToAcceptOrRejectOnAnIdNoRequestMade()
    {
        try (RdmaCmId id = cm.createId(null))
        {
            assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, () -> id.accept(ConnectionParameters.of(1, 1))).errno());
            assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, () -> id.reject(new byte[0])).errno());
            assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, id::disconnect).errno());
        }
    }

    @Test
    void shouldRefuseAQpBeforeTheIdHasADevice()
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException refused = assertThrows(RdmaCmException.class, () -> id.attachQp((dev.rdmacm.verbs.RcQueuePair)null));
            assertEquals(Errno.EINVAL, refused.errno());
        }
    }

    @Test
    void shouldRefusePrivateDataBeyondWhatAReplyHolds()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ConnectionParameters.of(1, 1).privateData(new byte[ConnectionParameters.REP_PRIVATE_DATA_LIMIT + 1]));
        assertEquals("connection parameters: 197 bytes of private data, at most 196 fit a REP and 56 a REQ", refused.getMessage());
    }

    @Test
    void shouldRefuseResponderResourcesBeyondAByte()
    {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ConnectionParameters.of(256, 1));
        assertEquals("connection parameters: responder resources 256 must be 0-255", refused.getMessage());
    }

    @Test
    void shouldResolveAnAddressSoThatTheIdHasADeviceForItsQp() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            id.resolveAddr(null, InetAddress.getByName("192.0.2.2"), Duration.ofSeconds(2));
            assertEquals(NamespaceTopology.RDMA_NETDEV, id.binding().netdev());
        }
    }

    @Test
    void shouldRefuseACmResponseTimeoutBeyondTheRequestsFiveBitField()
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> id.setCmResponseTimeout(32, 15));
            assertEquals("CM response timeout 32 out of range 0..31 (a 5-bit IBA time)", refused.getMessage());
        }
    }

    @Test
    void shouldRefuseMaxCmRetriesBeyondTheRequestsFourBitField()
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> id.setCmResponseTimeout(20, 16));
            assertEquals("Max CM Retries 16 out of range 0..15 (the REQ's 4-bit field)", refused.getMessage());
        }
    }
}
