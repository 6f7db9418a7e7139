package dev.rdmacm.sa.path;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.SaCounter;
import dev.rdmacm.sa.SaError;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.SaResponse;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PathRecords from OpenSM's SA on ibsim, every field compared with saquery's for the same query. */
class PathRecordsAgainstOpenSmTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();
    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final Map<String, SaClient> clients = new HashMap<>();

    @BeforeAll
    static void start()
    {
        for (final FabricPort port : fabric().hcaPorts())
        {
            clients.put(port.node(), SaClient.start(
                IbsimTransport.attach(fabric().host(), fabric().ctlPort(), port.node(), Duration.ofSeconds(2)),
                SaClientConfig.defaults().withCacheTtl(Duration.ZERO)));
        }
    }

    @AfterAll
    static void stop()
    {
        clients.values().forEach(SaClient::close);
        clients.clear();
    }

    @Test
    void shouldReturnTheSamePathAsSaqueryForEveryOrderedPairByGid() throws Exception
    {
        for (final FabricPort source : fabric().hcaPorts())
        {
            for (final FabricPort destination : fabric().hcaPorts())
            {
                final List<PathRecordValue> paths = PathRecords.query(
                    clients.get(source.node()), PathQuery.byGids(source.gid(), destination.gid()), TIMEOUT).get(5, TimeUnit.SECONDS);
                final List<Map<String, String>> expected = fabric().saquery(source.node(), "-p",
                    "--sgid", source.gid().toString(), "--dgid", destination.gid().toString()).records();
                assertEquals(1, expected.size(), source.node() + " -> " + destination.node());
                assertEquals(1, paths.size(), source.node() + " -> " + destination.node());
                assertEquals(SaqueryPathFields.withoutReserved(expected.get(0)), SaqueryPathFields.of(paths.get(0)),
                    source.node() + " -> " + destination.node());
            }
        }
    }

    @Test
    void shouldReturnTheSamePathAsSaqueryForEveryOrderedPairByLid() throws Exception
    {
        for (final FabricPort source : fabric().hcaPorts())
        {
            for (final FabricPort destination : fabric().hcaPorts())
            {
                final List<PathRecordValue> paths = PathRecords.query(
                    clients.get(source.node()), PathQuery.byLids(source.lid(), destination.lid()), TIMEOUT).get(5, TimeUnit.SECONDS);
                final List<Map<String, String>> expected = fabric().saquery(source.node(), "-p",
                    "--slid", Integer.toString(source.lid()), "--dlid", Integer.toString(destination.lid())).records();
                assertEquals(1, paths.size(), source.node() + " -> " + destination.node());
                assertEquals(SaqueryPathFields.withoutReserved(expected.get(0)), SaqueryPathFields.of(paths.get(0)),
                    source.node() + " -> " + destination.node());
            }
        }
    }

    @Test
    void shouldFailWithNoRecordsForAnUnknownDgid()
    {
        final FabricPort source = fabric().port("Hca2");
        final Gid unknown = new Gid(Gid.LINK_LOCAL_PREFIX, 0x0099_0000_0004L);
        final ExecutionException ex = assertThrows(ExecutionException.class, () -> PathRecords.query(
            clients.get("Hca2"), PathQuery.byGids(source.gid(), unknown), TIMEOUT).get(5, TimeUnit.SECONDS));
        final SaQueryException failure = assertInstanceOf(SaQueryException.class, ex.getCause());
        assertEquals(SaError.NO_RECORDS, failure.error());
        assertEquals(0x0300, failure.madStatus());
    }

    @Test
    void shouldReturnAGetTableOfThreeRecordsEachEqualToSaquerysPathForThatPair() throws Exception
    {
        // From Hca2 to every LID: six endpoints, cut at three PathRecords in the one MAD umad2sim forwards.
        final FabricPort source = fabric().port("Hca2");
        final PathQuery query = PathQuery.builder().sgid(source.gid()).slid(source.lid()).table(true).build();
        final SaClient client = clients.get("Hca2");
        final SaResponse response = client.query(query.toRequest(), TIMEOUT).get(5, TimeUnit.SECONDS);
        final List<PathRecordValue> paths = PathRecords.decode(response);
        assertEquals(3, paths.size());
        assertTrue(response.truncated());
        assertTrue(client.counters().get(SaCounter.TRUNCATED_TABLES) >= 1);
        for (final PathRecordValue path : paths)
        {
            final List<Map<String, String>> expected = fabric().saquery("Hca2", "-p",
                "--slid", Integer.toString(source.lid()), "--dlid", Integer.toString(path.dlid().value())).records();
            assertEquals(SaqueryPathFields.withoutReserved(expected.get(0)), SaqueryPathFields.of(path), "to LID " + path.dlid());
        }
    }

    private static SimulatedFabric fabric()
    {
        return FABRIC.fabric();
    }
}
