package dev.rdmacm.cm;

import dev.rdmacm.cm.testing.FabricHosts;
import dev.rdmacm.files.ibacm.HostsFile;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.resolver.spi.HostsNeighbours;
import dev.rdmacm.resolver.ResolvedRoute;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.path.PathRecordValue;
import dev.rdmacm.sa.path.SaqueryPathFields;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IPoIB without an IP layer: resolve_addr through an ibacm hosts file, resolve_route through OpenSM's
 * SA on ibsim; every ordered host pair gives the path saquery gives for the same query.
 */
class ResolveRouteOnSimulatedFabricTest
{
    private static final int PORT = 7471;
    private static SimulatedFabric fabric;
    private static HostsFile hosts;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception
    {
        fabric = SimulatedFabric.start();
        hosts = HostsFile.read(FabricHosts.write(fabric, dir));
    }

    @AfterAll
    static void stop()
    {
        if (fabric != null)
        {
            fabric.close();
        }
    }

    private static InetAddress address(final FabricPort port)
    {
        return FabricHosts.address(port);
    }

    private static SaClient attach(final FabricPort port)
    {
        return SaClient.start(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), port.node(), Duration.ofSeconds(2)),
            SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
    }

    private static RdmaCm open(final FabricPort port, final SaClient sa) throws RdmaCmException
    {
        return RdmaCm.open(RdmaCm.Options.builder()
            .hostsNeighbours(new HostsNeighbours(hosts, HostsNeighbours.infinibandPort(port.node(), 1, port.gid())))
            .sa(sa).build());
    }

    @Test
    void shouldResolveTheRouteSaqueryGivesForEveryHostPair() throws Exception
    {
        for (final FabricPort source : fabric.hcaPorts())
        {
            try (SaClient sa = attach(source); RdmaCm cm = open(source, sa))
            {
                for (final FabricPort destination : fabric.hcaPorts())
                {
                    final String pair = source.node() + " -> " + destination.node();
                    try (RdmaCmId id = cm.createId(null))
                    {
                        id.resolveAddr(null, new InetSocketAddress(address(destination), PORT), Duration.ofMillis(1000));
                        assertEquals(source.gid(), id.resolution().sgid(), pair);
                        assertEquals(destination.gid(), id.resolution().dgid(), pair);
                        id.resolveRoute(Duration.ofMillis(2000));

                        assertEquals(CmIdState.ROUTE_RESOLVED, id.state(), pair);
                        final ResolvedRoute route = id.route();
                        assertEquals(1, route.paths().size(), pair);
                        assertEquals(0x2bL, route.primary().flags(), pair);
                        final List<Map<String, String>> saquery = fabric.saquery(source.node(), "-p",
                            "--sgid", source.gid().toString(), "--dgid", destination.gid().toString(),
                            "--pkey", "0xffff", "--service_id", String.format("0x%016x", PortSpace.TCP.serviceId(PORT)),
                            "--qos_class", "0", "--reversible", "1", "--numb_path", "1").records();
                        assertEquals(1, saquery.size(), pair);
                        assertEquals(SaqueryPathFields.withoutReserved(saquery.get(0)),
                            SaqueryPathFields.of(route.primary().record()), pair);
                    }
                }
            }
        }
    }

    @Test
    void shouldLeaveTheSaClientItWasGivenOpenWhenClosed() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(0);
        final FabricPort destination = fabric.hcaPorts().get(1);
        try (SaClient sa = attach(source))
        {
            for (int round = 1; round <= 2; round++)
            {
                try (RdmaCm cm = open(source, sa); RdmaCmId id = cm.createId(null))
                {
                    id.resolveAddr(null, new InetSocketAddress(address(destination), PORT), Duration.ofMillis(1000));
                    id.resolveRoute(Duration.ofMillis(2000));
                    assertEquals(destination.lid(), id.route().primary().record().dlid().value(),
                        "round " + round + ": the SA client still answers after the first RdmaCm closed");
                }
            }
            assertEquals(null, sa.engineFailure(), "the caller's client is still running");
        }
    }

    @Test
    void shouldAskWithTheKernelsMaskAndTheServiceIdOfThePort() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(1);
        final FabricPort destination = fabric.hcaPorts().get(2);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa); EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel, PortSpace.TCP);
            id.setServiceType(0);
            id.resolveAddr(null, new InetSocketAddress(address(destination), PORT), Duration.ofMillis(1000));
            final CmEvent addr = channel.getEvent(Duration.ofSeconds(5));
            assertEquals(CmEventType.ADDR_RESOLVED, addr.type());
            addr.ack();

            id.resolveRoute(Duration.ofMillis(2000));
            final CmEvent event = channel.getEvent(Duration.ofSeconds(5));
            event.ack();

            assertEquals(CmEventType.ROUTE_RESOLVED, event.type());
            assertEquals(0, event.status());
            final CmEvent.RouteResolved routed = assertInstanceOf(CmEvent.RouteResolved.class, event);
            final PathRecordValue path = routed.route().primary().record();
            assertEquals(destination.lid(), path.dlid().value());
            assertEquals(source.lid(), path.slid().value());
            final String query = routed.trace().find("sa path query").detail();
            assertTrue(query.startsWith("PathRecord Get comp_mask 0x780f"), query);
            assertTrue(query.contains("pkey=0xffff service_id=0x0000000001061d2f qos_class=0 numb_path=1 reversible=true"),
                query);
            id.destroy();
        }
    }

    @Test
    void shouldAskWithTheIpv6MaskAndTheTrafficClassOfTheSourceFlowinfo() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(1);
        final FabricPort destination = fabric.hcaPorts().get(2);
        final Path file = dir.resolve("ipv6.data");
        Files.write(file, List.of(address(source).getHostAddress() + " " + source.gid(),
            "fd00::" + source.lid() + " " + source.gid(), "fd00::" + destination.lid() + " " + destination.gid()));
        try (SaClient sa = attach(source);
             RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().sa(sa).hostsNeighbours(
                 new HostsNeighbours(HostsFile.read(file), HostsNeighbours.infinibandPort(source.node(), 1, source.gid()))).build());
             RdmaCmId id = cm.createId(null))
        {
            id.setSourceFlowinfo(0x02012345);
            id.resolveAddr(null, new InetSocketAddress(InetAddress.getByName("fd00::" + destination.lid()), PORT), Duration.ofMillis(1000));
            assertEquals(InetAddress.getByName("fd00::" + source.lid()), id.resolution().source(),
                "the wildcard becomes the local GID's address of the destination's family");
            id.resolveRoute(Duration.ofMillis(2000));

            final List<Map<String, String>> saquery = fabric.saquery(source.node(), "-p",
                "--sgid", source.gid().toString(), "--dgid", destination.gid().toString(),
                "--pkey", "0xffff", "--service_id", String.format("0x%016x", PortSpace.TCP.serviceId(PORT)),
                "--tclass", "0x20", "--reversible", "1", "--numb_path", "1").records();
            assertEquals(SaqueryPathFields.withoutReserved(saquery.get(0)), SaqueryPathFields.of(id.route().primary().record()));
        }
    }

    @Test
    void shouldReportAnUnknownDestinationGidAsRouteErrorEinval() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(1);
        final Path file = dir.resolve("unknown-gid.data");
        Files.write(file, List.of(address(source).getHostAddress() + " " + source.gid(), "10.9.9.9 fe80::dead:beef"));
        try (SaClient sa = attach(source);
             RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().sa(sa).hostsNeighbours(
                 new HostsNeighbours(HostsFile.read(file), HostsNeighbours.infinibandPort(source.node(), 1, source.gid()))).build());
             EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel);
            id.resolveAddr(null, InetAddress.getByName("10.9.9.9"), Duration.ofMillis(1000));
            channel.getEvent(Duration.ofSeconds(5)).ack();

            id.resolveRoute(Duration.ofMillis(2000));
            final CmEvent event = channel.getEvent(Duration.ofSeconds(5));
            event.ack();

            assertEquals(CmEventType.ROUTE_ERROR, event.type());
            assertEquals(-Errno.EINVAL, event.status());
            assertEquals(CmIdState.ADDR_RESOLVED, id.state(), "an error event returns the id to ADDR_RESOLVED");
            id.destroy();
        }
    }

    @Test
    void shouldReportNoAnswerFromTheSaAsRouteErrorEtimedout() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(1);
        final FabricPort destination = fabric.hcaPorts().get(3);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa))
        {
            final RdmaCmId id = cm.createId(null);
            id.resolveAddr(null, address(destination), Duration.ofMillis(1000));
            fabric.stopSubnetManager();
            try
            {
                final RdmaCmException error = assertThrows(RdmaCmException.class, () -> id.resolveRoute(Duration.ofMillis(300)));

                assertEquals(Errno.ETIMEDOUT, error.errno());
                assertFalse(error.returnedByCall(), "reported by a ROUTE_ERROR event");
                assertEquals(CmIdState.ADDR_RESOLVED, id.state());
            }
            finally
            {
                fabric.startSubnetManager();
            }
            id.resolveRoute(Duration.ofMillis(2000));
            assertEquals(CmIdState.ROUTE_RESOLVED, id.state(), "a route can be resolved again after ROUTE_ERROR");
            id.destroy();
        }
    }

    @Test
    void shouldRejectResolveRouteBeforeTheAddressIsResolved() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(1);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa); RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class, () -> id.resolveRoute(Duration.ofMillis(1000)));

            assertEquals(Errno.EINVAL, error.errno());
            assertTrue(error.returnedByCall());
            assertEquals(CmIdState.IDLE, id.state());
        }
    }

    @Test
    void shouldRejectAZeroTimeoutAsCurrentKernelsDo() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(1);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa); RdmaCmId id = cm.createId(null))
        {
            id.resolveAddr(null, address(fabric.hcaPorts().get(2)), Duration.ofMillis(1000));

            final RdmaCmException error = assertThrows(RdmaCmException.class, () -> id.resolveRoute(Duration.ofMillis(0)));

            assertEquals(Errno.EINVAL, error.errno());
            assertEquals(CmIdState.ADDR_RESOLVED, id.state());
        }
    }

    @Test
    void shouldTimeOutResolvingADestinationMissingFromTheHostsFile() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(1);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa); RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class,
                () -> id.resolveAddr(null, InetAddress.getByName("10.7.7.7"), Duration.ofMillis(200)));

            assertEquals(Errno.ETIMEDOUT, error.errno());
            assertFalse(error.returnedByCall());
            assertNotNull(error.trace().find("neighbour"));
        }
    }

    @Test
    void shouldRefuseASourceListedWithAnotherPortsGid() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(1);
        final FabricPort other = fabric.hcaPorts().get(2);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa); RdmaCmId id = cm.createId(null))
        {
            final RdmaCmException error = assertThrows(RdmaCmException.class,
                () -> id.resolveAddr(address(other), address(source), Duration.ofMillis(200)));

            assertEquals(Errno.ENODEV, error.errno());
            assertTrue(error.returnedByCall());
        }
    }

    @Test
    void shouldResolveALoopbackDestinationToTheLocalGid() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(1);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa); RdmaCmId id = cm.createId(null))
        {
            id.resolveAddr(null, InetAddress.getByName("127.0.0.1"), Duration.ofMillis(200));
            id.resolveRoute(Duration.ofMillis(2000));

            final PathRecordValue path = id.route().primary().record();
            assertEquals(source.gid(), path.sgid());
            assertEquals(source.gid(), path.dgid());
            assertEquals(source.lid(), path.dlid().value());
        }
    }

}
