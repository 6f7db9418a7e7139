package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.cm.testing.FabricHosts;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.testing.Tshark;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.rdmacm.cli.CommandRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmacm resolve-route} on ibsim + OpenSM with a hosts file, checked against saquery. */
class ResolveRouteCommandTest
{
    private static SimulatedFabric fabric;
    private static Path hosts;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception
    {
        fabric = SimulatedFabric.start();
        hosts = FabricHosts.write(fabric, dir);
    }

    @AfterAll
    static void stop()
    {
        if (fabric != null)
        {
            fabric.close();
        }
    }

    private static String fabricOption(final String node)
    {
        return "ibsim:" + fabric.host() + ":" + fabric.ctlPort() + ":" + node;
    }

    @Test
    @Timeout(60)
    void shouldFailAHostNameGetaddrinfoCannotResolveAsAResolutionFailure()
    {
        // .invalid never resolves (RFC 6761): glibc's EAI_NONAME, as rping -a would meet it, not a usage error
        final CommandRun run = run("resolve-route", "no-such-host.invalid", "--fabric", fabricOption("Hca2"), "--hosts", hosts.toString());

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.err());
        assertEquals("rdmacm resolve-route: getaddrinfo EAI_NONAME (-2): DST no-such-host.invalid: Name or service not known\n", run.err());
    }

    @Test
    void shouldPrintThePathSaqueryGivesWithTheTrace()
    {
        final FabricPort source = fabric.port("Hca2");
        final FabricPort destination = fabric.port("Hca4");

        final CommandRun run = run("resolve-route", "10.0.0." + destination.lid(), "--port", "7471",
            "--fabric", fabricOption("Hca2"), "--hosts", hosts.toString(), "--trace");

        assertEquals(0, run.exit(), run.err());
        final Map<String, String> saquery = fabric.saquery("Hca2", "-p", "--sgid", source.gid().toString(),
            "--dgid", destination.gid().toString(), "--pkey", "0xffff", "--service_id", "0x0000000001061d2f",
            "--qos_class", "0", "--reversible", "1", "--numb_path", "1").records().get(0);
        assertTrue(run.out().contains("  dlid                       " + saquery.get("dlid") + "\n"), run.out());
        assertTrue(run.out().contains("  slid                       " + saquery.get("slid") + "\n"), run.out());
        assertTrue(run.out().contains("path 0 flags 0x2b (GMP|PRIMARY|OUTBOUND|INBOUND_REVERSE)"), run.out());
        assertTrue(run.out().contains(" sa path query "), run.out());
        assertTrue(run.out().contains("ROUTE_QUERY -> ROUTE_RESOLVED"), run.out());
    }

    @Test
    void shouldWriteTheRouteAsIbvPathDataJson() throws Exception
    {
        final FabricPort destination = fabric.port("Hca3");

        final CommandRun run = run("resolve-route", "10.0.0." + destination.lid(), "--fabric", fabricOption("Hca2"),
            "--hosts", hosts.toString(), "--json", "--tos", "0");

        assertEquals(0, run.exit(), run.err());
        final JsonNode root = new ObjectMapper().readTree(run.out());
        final JsonNode path = root.get("route").get(0);
        assertEquals(0x2b, path.get("flags").asInt());
        assertEquals(destination.lid(), path.get("dlid").asInt());
        assertEquals(destination.gid().toString(), path.get("dgid").asText());
        assertEquals("0xffff", path.get("pkey").asText());
        assertTrue(path.get("reversible").asBoolean(), path.toString());
        assertEquals("SA_QUERY", root.get("route_kind").asText());
    }

    @Test
    void shouldPrintAnErrorObjectAndExitOneWhenTheAddressDoesNotResolve() throws Exception
    {
        final CommandRun run = run("resolve-route", "10.0.0.99", "--fabric", fabricOption("Hca2"), "--hosts", hosts.toString(),
            "--timeout-ms", "100", "--json");

        assertEquals(1, run.exit());
        final JsonNode root = new ObjectMapper().readTree(run.out());
        assertEquals("ETIMEDOUT", root.get("error").asText());
        assertEquals(110, root.get("code").asInt());
    }

    @Test
    void shouldNameTheRouteResolvedEventInJson() throws Exception
    {
        final CommandRun run = run("resolve-route", "10.0.0." + fabric.port("Hca3").lid(), "--fabric", fabricOption("Hca2"),
            "--hosts", hosts.toString(), "--json");

        assertEquals(0, run.exit(), run.err());
        assertEquals("ROUTE_RESOLVED", new ObjectMapper().readTree(run.out()).get("event").asText());
    }

    @Test
    void shouldNameTheAddrErrorEventAndItsStatusInJson() throws Exception
    {
        final CommandRun run = run("resolve-route", "10.0.0.99", "--fabric", fabricOption("Hca2"), "--hosts", hosts.toString(),
            "--timeout-ms", "100", "--json");

        assertEquals(1, run.exit());
        final JsonNode root = new ObjectMapper().readTree(run.out());
        assertEquals("ADDR_ERROR", root.get("event").asText(), root.toString());
        assertEquals(-110, root.get("status").asInt(), root.toString());
        assertFalse(root.has("call"), root.toString());
    }

    @Test
    void shouldRecordThePathQueryAndItsAnswerInAPcapTsharkReads() throws Exception
    {
        final FabricPort destination = fabric.port("Hca3");
        final Path pcap = dir.resolve("route.pcap");

        final CommandRun run = run("resolve-route", "10.0.0." + destination.lid(), "--port", "7471",
            "--fabric", fabricOption("Hca2"), "--hosts", hosts.toString(), "--pcap", pcap.toString());

        assertEquals(0, run.exit(), run.err());
        final List<Map<String, List<String>>> paths = Tshark.decode(pcap, "infiniband.mad.method",
            "infiniband.mad.attributeid", "infiniband.sa.componentmask", "infiniband.pathrecord.dlid").stream()
            .filter(packet -> List.of("0x0035").equals(packet.get("infiniband.mad.attributeid"))).toList();
        assertEquals(2, paths.size(), "one PathRecord Get and its answer (ClassPortInfo aside): " + paths);
        assertEquals(List.of("0x01"), paths.get(0).get("infiniband.mad.method"), paths.toString());
        assertEquals(List.of("0x000000000000780f"), paths.get(0).get("infiniband.sa.componentmask"), paths.toString());
        assertEquals(List.of("0x81"), paths.get(1).get("infiniband.mad.method"), paths.toString());
        assertEquals(List.of(String.format("0x%04x", destination.lid())), paths.get(1).get("infiniband.pathrecord.dlid"),
            paths.toString());
    }

    @Test
    void shouldExitTwoOnAHostsFileWithoutAFabric()
    {
        final CommandRun run = run("resolve-route", "10.0.0.5", "--hosts", hosts.toString());

        assertEquals(2, run.exit());
        assertTrue(run.err().contains("--hosts needs --fabric"), run.err());
    }

    @Test
    void shouldExitTwoOnATosThatIsNotAByte()
    {
        assertEquals(2, run("resolve-route", "10.0.0.5", "--tos", "256").exit());
    }

    @Test
    void shouldPrintTheAddressUnderTheNamesAndValuesResolveAddrPrints() throws Exception
    {
        final String destination = "10.0.0." + fabric.port("Hca3").lid();
        final JsonNode address = new ObjectMapper().readTree(run("resolve-addr", destination, "--fabric", fabricOption("Hca2"),
            "--hosts", hosts.toString(), "--json").out());
        final JsonNode route = new ObjectMapper().readTree(run("resolve-route", destination, "--fabric", fabricOption("Hca2"),
            "--hosts", hosts.toString(), "--json").out());

        assertEquals("ADDR_RESOLVED", address.get("event").asText(), address.toString());
        final List<String> names = new ArrayList<>();
        address.fieldNames().forEachRemaining(names::add);
        names.remove("event");
        assertEquals(18, names.size(), names.toString());
        for (final String name : names)
        {
            // two ids, two random source ports (cma_alloc_any_port): only the rule is the same
            if (!name.equals("src_port"))
            {
                assertEquals(address.get(name), route.get(name), name + " in " + route);
            }
        }
    }

    @Test
    void shouldNameEveryPathFieldAsThePathCommandDoes() throws Exception
    {
        final FabricPort destination = fabric.port("Hca3");
        final JsonNode route = new ObjectMapper().readTree(run("resolve-route", "10.0.0." + destination.lid(),
            "--fabric", fabricOption("Hca2"), "--hosts", hosts.toString(), "--json").out()).get("route").get(0);
        final JsonNode path = new ObjectMapper().readTree(run("path", "--fabric", fabricOption("Hca2"),
            "--dgid", destination.gid().toString(), "--reversible", "--json").out()).get("paths").get(0);

        final List<String> routeNames = new ArrayList<>();
        route.fieldNames().forEachRemaining(routeNames::add);
        // ibv_path_data's own field, around the path record, and its names
        routeNames.remove("flags");
        routeNames.remove("flags_names");
        final List<String> pathNames = new ArrayList<>();
        path.fieldNames().forEachRemaining(pathNames::add);
        assertEquals(pathNames, routeNames);
        for (final String name : List.of("dgid", "sgid", "dlid", "slid", "pkey", "reversible", "mtu", "rate", "sl"))
        {
            assertEquals(path.get(name), route.get(name), name);
        }
    }

    @Test
    void shouldPrintAnAddrErrorAsTheOneTextErrorLine()
    {
        final CommandRun run = run("resolve-route", "10.0.0.99", "--fabric", fabricOption("Hca2"), "--hosts", hosts.toString(),
            "--timeout-ms", "100");

        assertEquals(1, run.exit());
        assertTrue(run.err().startsWith("rdmacm resolve-route: ADDR_ERROR ETIMEDOUT (-110): "),
            run.err());
    }

    @Test
    void shouldPrintTheAddressAsResolveAddrDoesAndThenTheRoute()
    {
        final String destination = "10.0.0." + fabric.port("Hca3").lid();
        final String address = run("resolve-addr", destination, "--fabric", fabricOption("Hca2"), "--hosts", hosts.toString()).out();
        final CommandRun route = run("resolve-route", destination, "--fabric", fabricOption("Hca2"), "--hosts", hosts.toString());

        assertEquals(0, route.exit(), route.err());
        // two ids, two random source ports: the src_port lines are left out of the comparison
        final String withoutPort = "(?m)^src_port .*\n";
        assertTrue(route.out().replaceAll(withoutPort, "").startsWith(address.replaceAll(withoutPort, "") +
            "route_kind   SA_QUERY: an SA PathRecord (cma_query_ib_route)\npath 0 "), route.out());
    }
}
