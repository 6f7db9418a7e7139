package dev.rdmacm.cm;

import dev.rdmacm.resolver.testing.RecordedGids;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.protocol.sa.Selector;
import dev.rdmacm.resolver.spi.KernelProfile;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.sa.path.PathRecordValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RoCE {@code rdma_resolve_route} in network namespaces: the path is built from what the kernel
 * reads (the route's hop limit or the namespace's default, the bound netdev's MTU, the id's ToS,
 * ACK timeout and ports), field by field as {@code cma_resolve_iboe_route} does. The soft-RoCE GID
 * table is the recorded one the namespace fixture mirrors on {@value NamespaceTopology#RDMA_NETDEV}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RoceRouteNamespaceTest
{
    private static final String RDMA = NamespaceTopology.RDMA_NETDEV;
    private static final int SOURCE_PORT = 40000;
    private static final int DESTINATION_PORT = 7471;
    private static NamespaceTopology topology;
    private static RdmaCm cm;

    @BeforeAll
    static void start() throws Exception
    {
        topology = NamespaceTopology.create();
        cm = RdmaCm.open(RdmaCm.Options.builder().networkNamespace(topology.hostPath()).gids(RecordedGids.softRoce()).build());
        topology.ip(topology.host, "neigh", "replace", "192.0.2.2", "lladdr", mac(topology.gateway, "b0"), "dev", RDMA,
            "nud", "permanent");
        topology.ip(topology.host, "neigh", "replace", "2001:db8::2", "lladdr", mac(topology.gateway, "b0"), "dev", RDMA,
            "nud", "permanent");
        topology.sysctl(topology.host, "net.ipv4.ip_default_ttl", "77");
        topology.sysctl(topology.host, "net.ipv6.conf." + RDMA + ".hop_limit", "33");
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

    private static void awaitUninterruptibly(final CountDownLatch latch)
    {
        try
        {
            latch.await();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static String mac(final String ns, final String dev)
    {
        return (String)topology.ipJson(ns, "link", "show", "dev", dev).getFirst().get("address");
    }

    private static RdmaCmId resolved(final String wildcard, final String destination) throws Exception
    {
        final RdmaCmId id = cm.createId(null);
        id.resolveAddr(new InetSocketAddress(InetAddress.getByName(wildcard), SOURCE_PORT),
            new InetSocketAddress(InetAddress.getByName(destination), DESTINATION_PORT), Duration.ofMillis(1000));
        return id;
    }

    @Test
    void shouldBuildTheIpv4PathFieldByFieldAsTheKernel() throws Exception
    {
        try (RdmaCmId id = resolved("0.0.0.0", "192.0.2.2"))
        {
            id.resolveRoute(Duration.ofMillis(1000));

            assertEquals(CmIdState.ROUTE_RESOLVED, id.state());
            final ResolvedRoute route = id.route();
            assertEquals(ResolvedRoute.Kind.ROCE_SYNTHESIZED, route.kind());
            assertEquals(0x2bL, route.primary().flags());
            final PathRecordValue path = route.primary().record();
            assertEquals(Gid.parse("::ffff:192.0.2.1"), path.sgid(), "rdma_ip2gid(src)");
            assertEquals(Gid.parse("::ffff:192.0.2.2"), path.dgid(), "rdma_ip2gid(dst)");
            assertEquals(77, path.hopLimit(), "ip4_dst_hoplimit: no metric, so the namespace's ip_default_ttl");
            assertTrue(path.reversible());
            assertEquals(0xffff, path.pKey().value());
            assertEquals(Selector.EXACTLY.code(), path.mtuSelector());
            assertEquals(MtuCode.MTU_1024.code(), path.mtu(), "iboe_get_mtu(1500)");
            assertEquals(Selector.EXACTLY.code(), path.rateSelector());
            assertEquals(0, path.rate(), "IB_RATE_PORT_CURRENT (include/rdma/ib_verbs.h)");
            assertEquals(Selector.EXACTLY.code(), path.packetLifeTimeSelector());
            assertEquals(KernelProfile.LINUX_6_1.iboePacketLifetime(), path.packetLifeTime());
            assertEquals(0, path.tClass(), "default_roce_tos");
            assertEquals(0, path.sl(), "a veth has no traffic classes");
            assertEquals((SOURCE_PORT * 31 + DESTINATION_PORT) & 0xfffff, path.flowLabel(), "RoCE v2 flow label");
            final String[] mac = ((String)topology.ipJson(topology.gateway, "link", "show", "dev", "b0").getFirst()
                .get("address")).split(":");
            assertEquals(0x0100 | Integer.parseInt(mac[0], 16), path.dlid().value(), "route_resolved and dmac[0]: " + mac[0]);
            assertEquals(Integer.parseInt(mac[1] + mac[2], 16), path.slid().value(), "dmac[1] and dmac[2]");
            assertEquals((Integer.parseInt(mac[3], 16) & 1) != 0, path.rawTraffic(), "dmac[3] & 1");
        }
    }

    @Test
    void shouldResolveTheRouteFromAThenComposeOnResolveAddrAsyncWithoutWaitingOnTheLoop() throws Exception
    {
        try (EventChannel channel = cm.createEventChannel(); RdmaCmId id = cm.createId(channel))
        {
            // thenCompose runs resolveRouteAsync on the event loop, which completed the address: a
            // resolveRouteAsync that waited for the loop to build the RoCE path would wait on itself.
            // The loop is held until the chain is attached, so the address cannot resolve before it is.
            final CountDownLatch attached = new CountDownLatch(1);
            cm.submit(agent -> awaitUninterruptibly(attached));
            final Thread[] routeAskedOn = new Thread[1];
            final CompletableFuture<ResolvedRoute> chain = id.resolveAddrAsync(null, InetAddress.getByName("192.0.2.2"), Duration.ofSeconds(1))
                .thenCompose(resolution ->
                {
                    routeAskedOn[0] = Thread.currentThread();
                    return id.resolveRouteAsync(Duration.ofSeconds(1));
                });
            attached.countDown();
            final ResolvedRoute route = chain.get(30, TimeUnit.SECONDS);

            assertEquals("rdmacm-conductor", routeAskedOn[0].getName(), "the chain ran on the event loop");
            assertEquals(CmIdState.ROUTE_RESOLVED, id.state());
            assertEquals(ResolvedRoute.Kind.ROCE_SYNTHESIZED, route.kind());
            final PathRecordValue path = route.primary().record();
            assertEquals(Gid.parse("::ffff:192.0.2.2"), path.dgid(), "rdma_ip2gid(dst)");
            assertEquals(77, path.hopLimit(), "ip4_dst_hoplimit: no metric, so the namespace's ip_default_ttl");
            assertEquals(MtuCode.MTU_1024.code(), path.mtu(), "iboe_get_mtu(1500)");
            final CmEvent addressEvent = channel.getEvent(Duration.ofSeconds(10));
            addressEvent.ack();
            assertEquals(CmEventType.ADDR_RESOLVED, addressEvent.type());
            final CmEvent routeEvent = channel.getEvent(Duration.ofSeconds(10));
            routeEvent.ack();
            assertEquals(CmEventType.ROUTE_RESOLVED, routeEvent.type());
        }
    }

    @Test
    void shouldFailResolveRouteAsyncWithTheCallsErrorWhenTheIdIsNotResolved() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            final ExecutionException failure = assertThrows(ExecutionException.class,
                () -> id.resolveRouteAsync(Duration.ofSeconds(1)).get(10, TimeUnit.SECONDS));
            final RdmaCmException error = assertInstanceOf(RdmaCmException.class, failure.getCause());
            assertEquals(Errno.EINVAL, error.errno());
            assertTrue(error.returnedByCall());
            assertEquals(CmIdState.IDLE, id.state());
        }
    }

    @Test
    void shouldTakeTheTrafficClassFromTheTosAndTheLifetimeFromTheAckTimeout() throws Exception
    {
        try (RdmaCmId id = resolved("0.0.0.0", "192.0.2.2"))
        {
            id.setServiceType(0x10);
            id.setAckTimeout(14);
            id.resolveRoute(Duration.ofMillis(1000));

            final PathRecordValue path = id.route().primary().record();
            assertEquals(0x10, path.tClass());
            assertEquals(13, path.packetLifeTime());
        }
    }

    @Test
    void shouldTakeTheHopLimitOfARouteThatSetsOne() throws Exception
    {
        // The fixture routes 10.3.0.0/24 via 192.0.2.2 with hoplimit 7: a routed, RoCE v2 destination.
        try (RdmaCmId id = resolved("0.0.0.0", "10.3.0.2"))
        {
            id.resolveRoute(Duration.ofMillis(1000));

            final PathRecordValue path = id.route().primary().record();
            assertEquals(7, path.hopLimit());
            assertEquals(Gid.parse("::ffff:10.3.0.2"), path.dgid());
        }
    }

    @Test
    void shouldFollowTheNetdevMtu() throws Exception
    {
        topology.ip(topology.host, "link", "set", RDMA, "mtu", "9000");
        try (RdmaCmId id = resolved("0.0.0.0", "192.0.2.2"))
        {
            id.resolveRoute(Duration.ofMillis(1000));

            assertEquals(MtuCode.MTU_4096.code(), id.route().primary().record().mtu());
        }
        finally
        {
            topology.ip(topology.host, "link", "set", RDMA, "mtu", "1500");
        }
    }

    /** Last: an MTU below 1280 takes IPv6 off the link for good. */
    @Test
    @Order(Integer.MAX_VALUE)
    void shouldReturnEinvalWhenTheNetdevMtuLeavesNoIbMtu() throws Exception
    {
        try (RdmaCmId id = resolved("0.0.0.0", "192.0.2.2"))
        {
            topology.ip(topology.host, "link", "set", RDMA, "mtu", "351");
            final RdmaCmException error = assertThrows(RdmaCmException.class, () -> id.resolveRoute(Duration.ofMillis(1000)));

            assertEquals(Errno.EINVAL, error.errno());
            assertTrue(error.returnedByCall(), "cma_resolve_iboe_route fails the call itself");
            assertEquals(CmIdState.ADDR_RESOLVED, id.state());
        }
        finally
        {
            topology.ip(topology.host, "link", "set", RDMA, "mtu", "1500");
        }
    }

    @Test
    void shouldUseTheIpv6SourceFlowLabelAndTheNetdevsHopLimit() throws Exception
    {
        try (RdmaCmId id = cm.createId(null))
        {
            id.setSourceFlowinfo(0x0ab12345);
            id.resolveAddr(new InetSocketAddress(InetAddress.getByName("::"), SOURCE_PORT),
                new InetSocketAddress(InetAddress.getByName("2001:db8::2"), DESTINATION_PORT), Duration.ofMillis(1000));
            id.resolveRoute(Duration.ofMillis(1000));

            final PathRecordValue path = id.route().primary().record();
            assertEquals(Gid.parse("2001:db8::1"), path.sgid());
            assertEquals(Gid.parse("2001:db8::2"), path.dgid());
            assertEquals(0x12345, path.flowLabel(), "the source's own flow label");
            assertEquals(33, path.hopLimit(), "ip6_dst_hoplimit: the netdev's hop_limit");
        }
    }

    @Test
    void shouldReturnEnodevForALoopbackResolutionWithoutANetdev() throws Exception
    {
        try (RdmaCmId id = resolved("0.0.0.0", "127.0.0.1"))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class, () -> id.resolveRoute(Duration.ofMillis(1000)));

            assertEquals(Errno.ENODEV, error.errno());
            assertTrue(error.returnedByCall());
        }
    }
}
