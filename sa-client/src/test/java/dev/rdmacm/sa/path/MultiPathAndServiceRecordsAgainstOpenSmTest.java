package dev.rdmacm.sa.path;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.protocol.sa.ServiceRecord;
import dev.rdmacm.sa.SaClient;
import dev.rdmacm.sa.SaClientConfig;
import dev.rdmacm.sa.SaCounter;
import dev.rdmacm.sa.SaError;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.service.ServiceRecordValue;
import dev.rdmacm.sa.service.ServiceRecords;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.sa.transport.ibsim.IbsimTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MultiPathRecord GetMulti (RMPP send) and a ServiceRecord round trip through OpenSM's SA. */
class MultiPathAndServiceRecordsAgainstOpenSmTest
{
    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();
    private static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static SaClient client;

    @BeforeAll
    static void start()
    {
        client = SaClient.start(IbsimTransport.attach(fabric().host(), fabric().ctlPort(), "Hca2", Duration.ofSeconds(2)),
            SaClientConfig.defaults());
    }

    @AfterAll
    static void stop()
    {
        if (client != null)
        {
            client.close();
        }
    }

    @Test
    void shouldGetMultiPathRecordsEachEqualToSaquerysPath() throws Exception
    {
        final FabricPort source = fabric().port("Hca2");
        final List<Gid> destinations = List.of(fabric().port("Hca3").gid(), fabric().port("Hca4").gid());
        final MultiPathQuery query = new MultiPathQuery(List.of(source.gid()), destinations, 2, true);
        final List<PathRecordValue> paths = PathRecords.decode(client.query(query.toRequest(), TIMEOUT).get(5, TimeUnit.SECONDS));
        assertTrue(!paths.isEmpty() && paths.size() <= 2, paths.toString());
        for (final PathRecordValue path : paths)
        {
            final Map<String, String> expected = fabric().saquery("Hca2", "-p",
                "--sgid", path.sgid().toString(), "--dgid", path.dgid().toString()).records().get(0);
            assertEquals(SaqueryPathFields.withoutReserved(expected), SaqueryPathFields.of(path), path.dgid().toString());
        }
        assertTrue(client.counters().get(SaCounter.QUERIES_SUCCEEDED) >= 1);
    }

    @Test
    void shouldFailAMultiPathQueryWithAnUnknownGidWithInvalidGid()
    {
        final MultiPathQuery query = new MultiPathQuery(List.of(fabric().port("Hca2").gid()),
            List.of(new Gid(Gid.LINK_LOCAL_PREFIX, 0x0099_0000_0001L)), 1, true);
        final ExecutionException ex = assertThrows(ExecutionException.class,
            () -> client.query(query.toRequest(), TIMEOUT).get(5, TimeUnit.SECONDS));
        assertEquals(SaError.INVALID_GID, assertInstanceOf(SaQueryException.class, ex.getCause()).error());
    }

    @Test
    void shouldRegisterFindByNameAndIdThenDeleteAServiceRecord() throws Exception
    {
        final long id = 0x1000_0000_0000_0000L | ThreadLocalRandom.current().nextLong(1, 1L << 40);
        final String name = "rdmacm-test-" + Long.toHexString(id);
        final ServiceRecordValue record = new ServiceRecordValue(
            id, fabric().port("Hca2").gid(), 0xffff, ServiceRecord.INFINITE_LEASE, name);

        assertEquals(record, ServiceRecords.register(client, record, TIMEOUT).get(5, TimeUnit.SECONDS));
        assertEquals(List.of(record), ServiceRecords.byName(client, name, TIMEOUT).get(5, TimeUnit.SECONDS));
        assertEquals(List.of(record), ServiceRecords.byId(client, id, TIMEOUT).get(5, TimeUnit.SECONDS));

        final List<Map<String, String>> seenBySaquery = fabric().saquery("Hca3", "-S").records();
        assertTrue(seenBySaquery.stream().anyMatch(r -> name.equals(r.get("ServiceName")) &&
            String.format("0x%016x", id).equals(r.get("ServiceID"))), seenBySaquery.toString());

        assertEquals(record, ServiceRecords.delete(client, record, TIMEOUT).get(5, TimeUnit.SECONDS));
        assertEquals(List.of(), ServiceRecords.byId(client, id, TIMEOUT).get(5, TimeUnit.SECONDS));
    }

    private static SimulatedFabric fabric()
    {
        return FABRIC.fabric();
    }
}
