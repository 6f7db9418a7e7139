package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/json.md's conventions, each against its peer: IPv6 addresses as {@code ip -j} prints the same
 * addresses in the namespace the fixture built (RFC 5952 text, the interface's name as a link-local
 * address's zone), booleans as true/false.
 */
@Timeout(60)
class JsonConventionsTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final SoftRoceNamespace NAMESPACE = new SoftRoceNamespace();

    private static JsonNode resolved(final CommandLine commandLine, final String... args) throws Exception
    {
        final List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--json", "--netns", NAMESPACE.topology().host));
        final CommandRun run = CommandRun.run(commandLine, all.toArray(String[]::new));
        assertEquals(Main.EXIT_OK, run.exit(), run.out() + run.err());
        return JSON.readTree(run.out());
    }

    private static Map<String, Object> ipRouteGet(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of("-6", "route", "get"));
        all.addAll(List.of(args));
        return NAMESPACE.topology().ipJson(NAMESPACE.topology().host, all.toArray(String[]::new)).getFirst();
    }

    private static CommandLine resolveAddr()
    {
        return new CommandLine(new ResolveAddrCommand(Map.of("SYSFS_PATH", NAMESPACE.sysfs().toString())).model());
    }

    @Test
    void shouldWriteIpv6AddressesAsIpDashJPrintsThem() throws Exception
    {
        // written the long way, as Java would print it back
        final JsonNode json = resolved(resolveAddr(), "2001:db8:0:0:0:0:0:2");

        final Map<String, Object> route = ipRouteGet("2001:db8::2");
        assertEquals(route.get("dst"), json.get("destination").asText());
        assertEquals(route.get("prefsrc"), json.get("source").asText());
    }

    @Test
    void shouldWriteALinkLocalDestinationsZoneAsTheInterfaceName() throws Exception
    {
        final JsonNode json = resolved(resolveAddr(), "fe80::2%" + NamespaceTopology.RDMA_NETDEV);

        final Map<String, Object> route = ipRouteGet("fe80::2", "oif", NamespaceTopology.RDMA_NETDEV);
        assertEquals(route.get("dst") + "%" + route.get("dev"), json.get("destination").asText());
    }

    @Test
    void shouldWriteALinkLocalDestinationGivenByIndexUnderItsInterfaceName() throws Exception
    {
        final Object index = NAMESPACE.topology().ipJson(NAMESPACE.topology().host, "link", "show", NamespaceTopology.RDMA_NETDEV)
            .getFirst().get("ifindex");

        final JsonNode json = resolved(resolveAddr(), "fe80::2%" + index);

        assertEquals("fe80::2%" + NamespaceTopology.RDMA_NETDEV, json.get("destination").asText());
    }

    @Test
    void shouldWriteOneBitPathFieldsAndLoopbackAsTrueOrFalse() throws Exception
    {
        final JsonNode json = resolved(new CommandLine(new ResolveRouteCommand(Map.of("SYSFS_PATH", NAMESPACE.sysfs().toString()))),
            "192.0.2.2");

        assertTrue(json.get("loopback").isBoolean(), json.toString());
        for (final String records : List.of("route", "path_rec"))
        {
            final JsonNode path = json.get(records).get(0);
            // a RoCE route is reversible (cma_resolve_iboe_route), and no route carries raw traffic
            assertEquals(Boolean.TRUE, path.get("reversible").isBoolean() ? path.get("reversible").asBoolean() : null, path.toString());
            assertEquals(Boolean.FALSE, path.get("raw_traffic").isBoolean() ? path.get("raw_traffic").asBoolean() : null, path.toString());
        }
    }
}
