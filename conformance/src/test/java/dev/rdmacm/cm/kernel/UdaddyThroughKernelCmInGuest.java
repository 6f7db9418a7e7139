package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.CmEventType;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.ConnectionParameters;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.UdParameters;
import dev.rdmacm.cm.kernel.KernelConnectionManagerInGuest.Resources;
import dev.rdmacm.conformance.UdaddyNode;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.testing.KernelCmId;
import dev.rdmacm.testing.RunningPeer;
import dev.rdmacm.testing.SoftRoceDevices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * UD ids over SIDR through the kernel's CM ({@link ConnectionManager#KERNEL}) against librdmacm 44's {@code udaddy},
 * both ways, with datagrams, in the kernel guest ({@code ib_cm} loaded, rxe0): our client resolves the real
 * {@code udaddy} server's QP (SIDR_REQ and SIDR_REP by the kernel's CM) and sends it {@value #MESSAGES} datagrams with
 * our QP number as immediate data, and receives its replies; the real {@code udaddy -s} client resolves our UD listener
 * (our {@code rdma_accept} answers its SIDR_REQ through the kernel's CM), and we reply to each of its datagrams as
 * udaddy's server does. udaddy's exit status and its {@code data transfers complete} line are its verdict; each of
 * ours is {@value #MESSAGES} successful completions carrying the GRH area, the message and immediate data.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class UdaddyThroughKernelCmInGuest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** udaddy's fixed port, in RDMA_PS_UDP. */
    private static final int UDADDY_PORT = 7174;
    /** Fewer than udaddy's default 10: the guest part's time is short. */
    private static final int MESSAGES = 4;
    private static final ConnectionParameters UD = new ConnectionParameters(new byte[0], 0, 0, false, 0, 0);

    private static RdmaCm open() throws Exception
    {
        return RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).build());
    }

    private static CmEvent next(final EventChannel channel, final CmEventType expected, final RunningPeer peer) throws InterruptedException
    {
        final CmEvent event = channel.getEvent(WAIT);
        assertNotNull(event, () -> "no " + expected + " within " + WAIT + "; udaddy printed:\n" + peer);
        assertEquals(expected, event.type(), () -> event + "; udaddy printed:\n" + peer);
        return event;
    }

    /** udaddy's node on the id, each departure from udaddy's run a failure that shows what {@code udaddy} printed. */
    private static UdaddyNode node(final RdmaCmId id, final RunningPeer udaddy) throws Exception
    {
        return new UdaddyNode(id, MESSAGES, WAIT, why -> fail(why + "; udaddy printed:\n" + udaddy));
    }

    @Test
    void shouldExchangeDatagramsWithTheRealUdaddyServerThroughTheKernelCm() throws Exception
    {
        final Resources before = Resources.settled();
        try (RunningPeer udaddy = RunningPeer.start("udaddy", "-C", Integer.toString(MESSAGES)))
        {
            SoftRoceDevices.awaitKernelListener(KernelCmId.PortSpace.UDP, InetAddress.getByName("0.0.0.0"), UDADDY_PORT);
            try (RdmaCm cm = open(); EventChannel channel = cm.createEventChannel())
            {
                final RdmaCmId id = cm.createId(channel, PortSpace.UDP);
                id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName(OWN_IPV4), UDADDY_PORT), Duration.ofSeconds(2));
                next(channel, CmEventType.ADDR_RESOLVED, udaddy).ack();
                id.resolveRoute(Duration.ofSeconds(2));
                next(channel, CmEventType.ROUTE_RESOLVED, udaddy).ack();
                try (UdaddyNode node = node(id, udaddy))
                {
                    node.postReceives();
                    id.connect(UD);
                    final CmEvent.Established established = (CmEvent.Established)next(channel, CmEventType.ESTABLISHED, udaddy);
                    final UdParameters ud = established.ud().orElseThrow();
                    established.ack();
                    node.reachVia(ud);
                    node.postSends(false);
                    node.complete(true);
                    id.destroy();
                }
            }
            assertEquals(0, udaddy.exitStatus(WAIT), udaddy.toString());
            assertTrue(udaddy.lines().contains("data transfers complete"), udaddy.toString());
        }
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    @Test
    void shouldServeTheRealUdaddyClientThroughTheKernelCm() throws Exception
    {
        final Resources before = Resources.settled();
        try (RdmaCm cm = open(); EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId listener = cm.createId(channel, PortSpace.UDP);
            listener.bindAddr(new InetSocketAddress(InetAddress.getByName(OWN_IPV4), UDADDY_PORT));
            listener.listen(0);
            try (RunningPeer udaddy = RunningPeer.start("udaddy", "-s", OWN_IPV4, "-C", Integer.toString(MESSAGES)))
            {
                final CmEvent.ConnectRequest request = (CmEvent.ConnectRequest)next(channel, CmEventType.CONNECT_REQUEST, udaddy);
                final RdmaCmId id = request.id();
                try (UdaddyNode node = node(id, udaddy))
                {
                    node.postReceives();
                    id.accept(UD);
                    request.ack();
                    node.complete(true);
                    // udaddy's server: the reply AH from the first datagram's GRH, the QPN from its immediate data
                    node.postSends(true);
                    node.complete(false);
                }
                id.destroy();
                assertEquals(0, udaddy.exitStatus(WAIT), udaddy.toString());
                assertTrue(udaddy.lines().contains("data transfers complete"), udaddy.toString());
            }
            listener.destroy();
        }
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }
}
