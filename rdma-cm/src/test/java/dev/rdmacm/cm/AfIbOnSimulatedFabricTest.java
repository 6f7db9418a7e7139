package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.resolver.spi.FixedGidDirectory;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.sa.PcapMadRecorder;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.path.SaqueryPathFields;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import dev.rdmacm.testing.Tshark;
import dev.rdmacm.verbs.GidType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * AF_IB ({@code struct sockaddr_ib}) resolution on an InfiniBand fabric: OpenSM's SA on ibsim. The
 * address needs no neighbour (the kernel's {@code cma_resolve_ib_addr}), and the route is the SA's
 * answer to the query {@code cma_query_ib_route} sends for AF_IB — the destination's {@code sib_sid} as
 * the Service ID and the traffic class of the source's {@code sib_flowinfo}, component mask 0x3c0f —
 * field for field what {@code saquery -p} answers to the same query.
 */
class AfIbOnSimulatedFabricTest
{
    private static final long SID = 0x0000_0000_013f_1d2fL;
    private static SimulatedFabric fabric;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception
    {
        fabric = SimulatedFabric.start();
    }

    @AfterAll
    static void stop()
    {
        if (fabric != null)
        {
            fabric.close();
        }
    }

    private static SaClient attach(final FabricPort port)
    {
        return SaClient.start(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), port.node(), Duration.ofSeconds(2)),
            SaClientConfig.defaults().withCacheTtl(Duration.ZERO));
    }

    /** The source port as the only RDMA port of this machine, no ACM service asked. */
    private static RdmaCm open(final FabricPort port, final SaClient sa) throws RdmaCmException
    {
        return RdmaCm.open(RdmaCm.Options.builder().sa(sa).acmFirstRoute(AcmFirstRoute.OFF)
            .gids(new FixedGidDirectory(List.of(new RdmaPortBinding(port.node(), 1, 0, port.gid(), GidType.IB, null,
                PKey.of(PKey.DEFAULT))))).build());
    }

    private static IbSockaddr ib(final Gid gid, final long sid, final long flowinfo)
    {
        return new IbSockaddr(PKey.of(PKey.DEFAULT), flowinfo, gid, sid, -1L, 0);
    }

    private static List<Map<String, String>> saquery(final FabricPort source, final FabricPort destination,
        final String tclass)
    {
        return fabric.saquery(source.node(), "-p", "--sgid", source.gid().toString(), "--dgid",
            destination.gid().toString(), "--pkey", "0xffff", "--service_id", String.format("0x%016x", SID),
            "--tclass", tclass, "--reversible", "1", "--numb_path", "1").records();
    }

    @Test
    void shouldResolveEveryAfIbPairToThePathSaqueryGives() throws Exception
    {
        for (final FabricPort source : fabric.hcaPorts())
        {
            try (SaClient sa = attach(source); RdmaCm cm = open(source, sa))
            {
                for (final FabricPort destination : fabric.hcaPorts())
                {
                    final String pair = source.node() + " -> " + destination.node();
                    try (RdmaCmId id = cm.createId(null, PortSpace.IB))
                    {
                        id.resolveAddr(null, ib(destination.gid(), SID, 0), Duration.ofMillis(1000));

                        assertEquals(CmIdState.ADDR_RESOLVED, id.state(), pair);
                        assertEquals(source.gid(), id.resolution().sgid(), pair);
                        assertEquals(destination.gid(), id.resolution().dgid(), pair);
                        assertEquals(source.gid(), id.ibSource().gid(), "cma_resolve_ib_dev writes the SGID: " + pair);
                        id.resolveRoute(Duration.ofMillis(2000));

                        final List<Map<String, String>> expected = saquery(source, destination, "0");
                        assertEquals(1, expected.size(), pair);
                        assertEquals(SaqueryPathFields.withoutReserved(expected.get(0)),
                            SaqueryPathFields.of(id.route().primary().record()), pair);
                    }
                }
            }
        }
    }

    @Test
    void shouldAskWithTheAfIbMaskTheDestinationSidAndTheSourceTrafficClass() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(0);
        final FabricPort destination = fabric.hcaPorts().get(2);
        final Path pcap = dir.resolve("af-ib.pcap");
        try (PcapMadRecorder recorder = PcapMadRecorder.create(pcap))
        {
            try (SaClient sa = SaClient.start(IbsimTransport.attach(fabric.host(), fabric.ctlPort(), source.node(),
                    Duration.ofSeconds(2)), SaClientConfig.defaults().withCacheTtl(Duration.ZERO).withRecorder(recorder)))
            {
                askWithAfIb(sa, source, destination);
            }
        }
        // tshark's dissector: the request's component mask and TClass (it shows no PathRecord ServiceID)
        final List<Map<String, List<String>>> requests = Tshark.decode(pcap, "infiniband.mad.method",
            "infiniband.mad.attributeid", "infiniband.sa.componentmask", "infiniband.pathrecord.tclass").stream()
            .filter(p -> List.of("0x0035").equals(p.get("infiniband.mad.attributeid")) &&
                List.of("0x01").equals(p.get("infiniband.mad.method"))).toList();
        assertEquals(1, requests.size(), requests.toString());
        assertEquals(List.of("0x0000000000003c0f"), requests.get(0).get("infiniband.sa.componentmask"), requests.toString());
        assertEquals(List.of("0x20"), requests.get(0).get("infiniband.pathrecord.tclass"), requests.toString());
    }

    private static void askWithAfIb(final SaClient sa, final FabricPort source, final FabricPort destination)
        throws Exception
    {
        try (RdmaCm cm = open(source, sa); EventChannel channel = cm.createEventChannel();
             RdmaCmId id = cm.createId(channel, PortSpace.IB))
        {
            // a zero Service ID mask takes any port space (cma_select_ib_ps)
            id.resolveAddr(new IbSockaddr(PKey.of(PKey.DEFAULT), 0x0201_2345L, source.gid(), 0, 0, 0),
                ib(destination.gid(), SID, 0), Duration.ofMillis(1000));
            final CmEvent addr = channel.getEvent(Duration.ofSeconds(5));
            addr.ack();
            assertEquals(CmEventType.ADDR_RESOLVED, addr.type());
            id.resolveRoute(Duration.ofMillis(2000));
            final CmEvent event = channel.getEvent(Duration.ofSeconds(5));
            event.ack();

            final CmEvent.RouteResolved routed = assertInstanceOf(CmEvent.RouteResolved.class, event);
            final String query = routed.trace().find("sa path query").detail();
            assertTrue(query.startsWith("PathRecord Get comp_mask 0x3c0f"), query);
            assertTrue(query.contains(String.format("service_id=0x%016x", SID)), query);
            assertTrue(query.contains("tclass=32"), query);
            assertEquals(SaqueryPathFields.withoutReserved(saquery(source, destination, "0x20").get(0)),
                SaqueryPathFields.of(routed.route().primary().record()));
        }
    }

    @Test
    void shouldBindTheSourceServiceIdAsCmaBindPort() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(0);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa);
             RdmaCmId ib = cm.createId(null, PortSpace.IB); RdmaCmId tcp = cm.createId(null, PortSpace.IB))
        {
            ib.bindAddr(new IbSockaddr(PKey.of(PKey.DEFAULT), 0, source.gid(), 0, 0, 0));
            tcp.bindAddr(new IbSockaddr(PKey.of(PKey.DEFAULT), 0, Gid.ZERO, ServiceId.PS_TCP | 7000, -1L, 0));

            assertEquals(PortSpace.IB, ServiceId.portSpace(ib.ibSource().serviceId()), "a zero mask takes RDMA_PS_IB first");
            assertEquals(ib.sourcePort(), ServiceId.port(ib.ibSource().serviceId()));
            assertEquals(-1L, ib.ibSource().serviceIdMask());
            assertEquals(ServiceId.PS_TCP | 7000, tcp.ibSource().serviceId(), "a TCP Service ID on an RDMA_PS_IB id");
            assertEquals(7000, tcp.sourcePort());
        }
    }

    @Test
    void shouldRefuseAServiceIdOfAnotherPortSpaceWithEprotonosupport() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(0);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa); RdmaCmId udp = cm.createId(null, PortSpace.UDP))
        {
            final RdmaCmException refused = assertThrows(RdmaCmException.class, () -> udp.bindAddr(
                new IbSockaddr(PKey.of(PKey.DEFAULT), 0, Gid.ZERO, ServiceId.PS_TCP, ServiceId.PS_MASK, 0)));

            assertEquals(Errno.EPROTONOSUPPORT, refused.errno());
            assertEquals(CmIdState.IDLE, udp.state());
        }
    }

    @Test
    void shouldFailWithEnodevWhenNoPortHoldsTheSourceGidOrTheDestinationPkey() throws Exception
    {
        final FabricPort source = fabric.hcaPorts().get(0);
        final FabricPort destination = fabric.hcaPorts().get(1);
        try (SaClient sa = attach(source); RdmaCm cm = open(source, sa);
             RdmaCmId unknownSource = cm.createId(null, PortSpace.IB); RdmaCmId otherPkey = cm.createId(null, PortSpace.IB))
        {
            final RdmaCmException noGid = assertThrows(RdmaCmException.class, () ->
                unknownSource.bindAddr(ib(destination.gid(), 0, 0)));
            final RdmaCmException noPkey = assertThrows(RdmaCmException.class, () -> otherPkey.resolveAddr(null,
                new IbSockaddr(PKey.of(0x8001), 0, destination.gid(), SID, -1L, 0), Duration.ofMillis(1000)));

            assertEquals(Errno.ENODEV, noGid.errno());
            assertEquals(CmIdState.IDLE, unknownSource.state());
            assertEquals(Errno.ENODEV, noPkey.errno());
            assertEquals(CmIdState.ADDR_BOUND, otherPkey.state(), "cma_resolve_ib_dev fails after the bind");
            assertNull(otherPkey.resolution());
        }
    }
}
