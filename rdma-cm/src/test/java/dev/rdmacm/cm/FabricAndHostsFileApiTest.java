package dev.rdmacm.cm;

import dev.rdmacm.cm.testing.FabricHosts;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.resolver.spi.HostsNeighbours;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.path.SaqueryPathFields;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What {@code rdmacm --fabric F --hosts FILE} does, done by a library with the public calls the CLI makes
 * (issue 31): {@link SaClient#attach} with the option's text, {@link HostsNeighbours#read} on the port it
 * attached as; then the route resolves as {@code saquery} gives it, on OpenSM over ibsim.
 */
@Timeout(120)
class FabricAndHostsFileApiTest
{
    private static final int PORT = 7471;
    private static SimulatedFabric fabric;
    private static Path hostsFile;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception
    {
        fabric = SimulatedFabric.start();
        hostsFile = FabricHosts.write(fabric, dir);
    }

    @AfterAll
    static void stop()
    {
        if (fabric != null)
        {
            fabric.close();
        }
    }

    @Test
    void shouldResolveTheRouteOnTheFabricAndTheHostsFileTheCliOptionsName() throws Exception
    {
        final FabricPort source = fabric.port("Hca2");
        final FabricPort destination = fabric.port("Hca4");
        final String fabricOption = "ibsim:" + fabric.host() + ":" + fabric.ctlPort() + ":" + source.node();

        try (SaClient sa = SaClient.attach(fabricOption, Duration.ofSeconds(2), SaClientConfig.defaults());
             RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().sa(sa).hostsNeighbours(HostsNeighbours.read(hostsFile, sa)).build());
             RdmaCmId id = cm.createId(null))
        {
            id.resolveAddr(null, new InetSocketAddress(FabricHosts.address(destination), PORT), Duration.ofSeconds(1));
            id.resolveRoute(Duration.ofSeconds(2));

            assertEquals(source.gid(), id.resolution().sgid());
            assertEquals(destination.gid(), id.resolution().dgid());
            final List<Map<String, String>> saquery = fabric.saquery(source.node(), "-p",
                "--sgid", source.gid().toString(), "--dgid", destination.gid().toString(),
                "--pkey", "0xffff", "--service_id", String.format("0x%016x", PortSpace.TCP.serviceId(PORT)),
                "--qos_class", "0", "--reversible", "1", "--numb_path", "1").records();
            assertEquals(SaqueryPathFields.withoutReserved(saquery.get(0)), SaqueryPathFields.of(id.route().primary().record()));
        }
    }
}
