package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.netlink.testing.NamespaceTopology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdmacm resolve-addr}, run in-process inside test namespaces, with {@code SYSFS_PATH} at the
 * recorded soft-RoCE tree whose netdev the namespace fixture recreates.
 */
class ResolveAddrCommandTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final SoftRoceNamespace NAMESPACE = new SoftRoceNamespace();

    private record Run(int exit, String out, String err)
    {
    }

    /** Through {@link Main}, for usage errors. */
    private static Run runMain(final String... args)
    {
        final CommandLine commandLine = Main.commandLine();
        return run(commandLine, args);
    }

    /** The command alone, with SYSFS_PATH at the recorded tree, inside the host namespace. */
    private static Run resolve(final String... args)
    {
        final List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--netns", NAMESPACE.topology().host));
        return run(new CommandLine(new ResolveAddrCommand(Map.of("SYSFS_PATH", NAMESPACE.sysfs().toString())).model()),
            all.toArray(String[]::new));
    }

    private static Run run(final CommandLine commandLine, final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        final int exit = commandLine.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    @Timeout(60)
    void shouldFailAHostNameGetaddrinfoCannotResolveAsAResolutionFailure()
    {
        // .invalid never resolves (RFC 6761): glibc's EAI_NONAME, a failed resolution, not a usage error
        final Run run = runMain("resolve-addr", "no-such-host.invalid");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit());
        assertEquals("rdmacm resolve-addr: getaddrinfo EAI_NONAME (-2): DST no-such-host.invalid: Name or service not known\n", run.err());
    }

    @Test
    @Timeout(60)
    void shouldResolveAHostNameAsRpingResolvesDashA() throws Exception
    {
        // the peer: glibc's getaddrinfo through getent, whose first answer rping's get_addr takes
        final Process getent = new ProcessBuilder("getent", "ahosts", "localhost").start();
        final String first = new String(getent.getInputStream().readAllBytes()).lines().findFirst().orElseThrow().split("\\s+")[0];

        final Run run = resolve("localhost", "--json");

        assertTrue(run.exit() != Main.EXIT_USAGE, run.err());
        assertEquals(InetAddress.getByName(first), InetAddress.getByName(JSON.readTree(run.out()).get("destination").asText()), run.out());
    }

    @Test
    void shouldRefuseANegativeTimeoutWithUsageStatus()
    {
        final Run run = runMain("resolve-addr", "192.0.2.2", "--timeout-ms", "-1", "--netns", NAMESPACE.topology().host);
        assertEquals(Main.EXIT_USAGE, run.exit());
        assertTrue(run.err().contains("--timeout-ms -1: must be 0 or more"), run.err());
    }

    @Test
    void shouldExitTwoOnAHostsFileWithoutAFabric()
    {
        final Run run = runMain("resolve-addr", "10.0.0.5", "--hosts", "/nonexistent/hosts");
        assertEquals(Main.EXIT_USAGE, run.exit());
        assertTrue(run.err().contains("--hosts needs --fabric"), run.err());
    }

    @Test
    void shouldReportARouteErrorWithFailureStatus()
    {
        final Run run = resolve("198.18.1.1");
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit());
        assertTrue(run.err().startsWith("rdmacm resolve-addr: rdma_resolve_addr EHOSTUNREACH (113): "),
            run.err());
    }

    @Test
    void shouldPrintTheResolutionWithStepsAndTransitionsAsJson() throws Exception
    {
        final Run run = resolve("192.0.2.2", "--json", "--trace");
        assertEquals(Main.EXIT_OK, run.exit(), run.err());
        final JsonNode json = JSON.readTree(run.out());
        assertEquals("192.0.2.2", json.get("destination").asText());
        assertEquals("192.0.2.1", json.get("source").asText());
        assertEquals(NamespaceTopology.RDMA_NETDEV, json.get("netdev").asText());
        assertEquals("rxe0", json.get("device").asText());
        assertEquals(1, json.get("port").asInt());
        assertEquals(3, json.get("gid_index").asInt());
        assertEquals("::ffff:192.0.2.1", json.get("sgid").asText());
        assertEquals("::ffff:192.0.2.2", json.get("dgid").asText());
        final List<String> steps = new ArrayList<>();
        json.get("steps").forEach(step -> steps.add(step.get("step").asText()));
        assertEquals("route", steps.getFirst());
        assertEquals("gid match", steps.getLast());
        final JsonNode last = json.get("transitions").get(json.get("transitions").size() - 1);
        assertEquals("ADDR_QUERY", last.get("from").asText(), last.toString());
        assertEquals("ADDR_RESOLVED", last.get("to").asText(), last.toString());
        assertEquals("ADDR_RESOLVED 192.0.2.2", last.get("reason").asText(), last.toString());
    }

    @Test
    void shouldNameTheAddrResolvedEventInJson() throws Exception
    {
        final Run run = resolve("192.0.2.2", "--json");
        assertEquals(Main.EXIT_OK, run.exit(), run.err());
        assertEquals("ADDR_RESOLVED", JSON.readTree(run.out()).get("event").asText());
    }

    @Test
    void shouldBindASourcePortFromTheNamespacesLocalPortRange() throws Exception
    {
        NAMESPACE.topology().sysctl(NAMESPACE.topology().host, "net.ipv4.ip_local_port_range", "40100 40103");
        try
        {
            final JsonNode resolved = JSON.readTree(resolve("192.0.2.2", "--json").out());

            final int port = resolved.get("src_port").asInt();
            assertTrue(port >= 40100 && port <= 40103, "src_port " + port + " outside the namespace's 40100-40103");
            assertEquals(0, resolved.get("dst_port").asInt());
        }
        finally
        {
            NAMESPACE.topology().sysctl(NAMESPACE.topology().host, "net.ipv4.ip_local_port_range", "32768 60999");
        }
    }

    @Test
    void shouldRefuseAnUnknownKernelProfileNamingTheChoices()
    {
        final Run run = resolve("192.0.2.2", "--kernel-profile", "linux-5.4");

        assertEquals(Main.EXIT_USAGE, run.exit());
        assertTrue(run.err().contains("Invalid value for option '--kernel-profile': 'linux-5.4': expected linux-6.1 or mainline"), run.err());
    }

    @Test
    void shouldNameTheCallThatFailedSynchronouslyInJson() throws Exception
    {
        final Run run = resolve("198.18.1.1", "--json");
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.err());
        final JsonNode json = JSON.readTree(run.out());
        assertEquals("EHOSTUNREACH", json.get("error").asText());
        assertEquals(113, json.get("code").asInt());
        assertEquals("rdma_resolve_addr", json.get("call").asText());
        assertFalse(json.has("event"), json.toString());
        assertFalse(json.has("errno"), json.toString());
    }

    @Test
    void shouldNameTheAddrErrorEventAndItsStatusInJson() throws Exception
    {
        final Run run = resolve("192.0.2.250", "--json", "--timeout-ms", "200");
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.err());
        final JsonNode json = JSON.readTree(run.out());
        assertEquals("ADDR_ERROR", json.get("event").asText(), json.toString());
        assertEquals(-json.get("code").asInt(), json.get("status").asInt(), json.toString());
        assertFalse(json.has("call"), json.toString());
    }

    @Test
    void shouldFailWithEnodevOnANetdevWithoutRdmaDevice() throws Exception
    {
        final Run run = resolve("10.5.0.2", "--json");
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.err());
        assertEquals("ENODEV", JSON.readTree(run.out()).get("error").asText());
    }

    @Test
    void shouldResolveAScopeGivenAsAnInterfaceNameInTheNamespace() throws Exception
    {
        final Run run = resolve("fe80::2%" + NamespaceTopology.RDMA_NETDEV, "--json");
        assertEquals(Main.EXIT_OK, run.exit(), run.err());
        final JsonNode json = JSON.readTree(run.out());
        assertEquals("fe80::5054:ff:fe12:3456", json.get("sgid").asText());
        assertEquals(1, json.get("gid_index").asInt());
    }

    @Test
    void shouldPrintAnAddrErrorAsOneLineNamingTheEventTheErrnoAndTheStatus() throws Exception
    {
        final JsonNode json = JSON.readTree(resolve("192.0.2.250", "--json", "--timeout-ms", "200").out());
        final Run run = resolve("192.0.2.250", "--timeout-ms", "200");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.err());
        assertEquals("", run.out());
        assertEquals("rdmacm resolve-addr: ADDR_ERROR " + json.get("error").asText() + " (" + json.get("status").asInt() +
            "): " + json.get("message").asText(), run.err().strip());
    }

    @Test
    void shouldPrintTheTraceAsTheSectionsResolveRoutePrints()
    {
        final Run run = resolve("192.0.2.2", "--trace");

        assertEquals(Main.EXIT_OK, run.exit(), run.err());
        final String out = run.out();
        assertTrue(out.startsWith("destination  192.0.2.2\ndst_port     0\nsource       192.0.2.1\nsrc_port     "), out);
        assertTrue(out.contains("\nrdma_resolve_addr steps:\n"), out);
        assertTrue(out.indexOf("\ntransitions:\n") > out.indexOf("rdma_resolve_addr steps:"), out);
        assertTrue(out.strip().endsWith("ADDR_QUERY -> ADDR_RESOLVED (ADDR_RESOLVED 192.0.2.2)"), out);
    }

    @Test
    void shouldPrintTheTraceBeforeTheErrorLineOfAFailure()
    {
        final Run run = resolve("198.18.1.1", "--trace");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.err());
        assertTrue(run.out().startsWith("rdma_resolve_addr steps:\n  "), run.out());
        assertTrue(run.out().contains("\ntransitions:\n"), run.out());
        assertTrue(run.err().startsWith("rdmacm resolve-addr: rdma_resolve_addr EHOSTUNREACH (113): "), run.err());
    }

    @Test
    void shouldWriteAUsageErrorAsEinvalUnderJson() throws Exception
    {
        final Run run = runMain("resolve-addr", "10.1.0.300", "--json");

        assertEquals(Main.EXIT_USAGE, run.exit());
        final JsonNode json = JSON.readTree(run.out());
        assertEquals("EINVAL", json.get("error").asText());
        assertEquals(22, json.get("code").asInt());
        assertEquals("DST '10.1.0.300': IPv4 octets are 0-255", json.get("message").asText());
    }
}
