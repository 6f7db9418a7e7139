package dev.rdmacm.cli;

import dev.rdmacm.resolver.testing.Json;
import dev.rdmacm.resolver.testing.NamespaceTopology;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.rdmacm.cli.CommandRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmacm resolve-addr}, run in-process inside test namespaces. */
class ResolveAddrCommandTest
{
    private static NamespaceTopology topology;

    @BeforeAll
    static void createNamespaces()
    {
        topology = NamespaceTopology.create();
    }

    @AfterAll
    static void deleteNamespaces()
    {
        if (topology != null)
        {
            topology.close();
        }
    }


    @Test
    void shouldRefuseAHostNameWithUsageStatus()
    {
        final CommandRun run = run("resolve-addr", "peer.example");
        assertEquals(Main.EXIT_USAGE, run.exit());
        assertEquals("rdmacm: DST 'peer.example': expected a numeric IPv4 (10.1.0.2) or IPv6 (fd01::2, fe80::2%eth0) address",
            run.err().strip());
    }

    @Test
    void shouldRefuseANegativeTimeoutWithUsageStatus()
    {
        final CommandRun run = run("resolve-addr", "10.1.0.2", "--timeout-ms", "-1", "--netns", topology.host);
        assertEquals(Main.EXIT_USAGE, run.exit());
        assertTrue(run.err().contains("--timeout-ms -1: must be 0 or more"), run.err());
    }

    @Test
    void shouldReportARouteErrorWithFailureStatus()
    {
        final CommandRun run = run("resolve-addr", "192.0.2.1", "--netns", topology.host);
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit());
        assertTrue(run.err().startsWith("rdmacm: resolve-addr 192.0.2.1: rdma_resolve_addr failed: EHOSTUNREACH"),
            run.err());
    }

    @Test
    void shouldPrintStepsAndTransitionsAsJson()
    {
        // No RDMA device is visible to the CLI inside the namespace yet, so the GID match fails with ENODEV
        // after the route, the link and the neighbour have been resolved.
        final CommandRun run = run("resolve-addr", "10.1.0.2", "--json", "--trace", "--netns", topology.host);
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.err());
        @SuppressWarnings("unchecked") final Map<String, Object> json = (Map<String, Object>)Json.parse(run.out().strip());
        assertEquals("10.1.0.2", json.get("destination"));
        assertEquals("ENODEV", json.get("error"));
        @SuppressWarnings("unchecked") final List<Map<String, Object>> steps = (List<Map<String, Object>>)json.get("steps");
        assertEquals(List.of("route", "link", "neighbour"), steps.stream().map(s -> s.get("step")).limit(3).toList());
        assertEquals("gid match", steps.getLast().get("step"));
        @SuppressWarnings("unchecked") final List<String> transitions = (List<String>)json.get("transitions");
        assertTrue(transitions.getLast().endsWith("ADDR_QUERY -> ADDR_BOUND (ADDR_ERROR ENODEV)"), transitions.toString());
    }

    @Test
    void shouldResolveAScopeGivenAsAnInterfaceNameInTheNamespace()
    {
        final CommandRun run = run("resolve-addr", "fe80::2%a0", "--json", "--netns", topology.host);
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.err());
        @SuppressWarnings("unchecked") final Map<String, Object> json = (Map<String, Object>)Json.parse(run.out().strip());
        assertEquals("ENODEV", json.get("error"), "routed through a0 and stopped only at the RDMA device");
    }
}
