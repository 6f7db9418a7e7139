package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rdmacm.cm.testing.FabricHosts;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static dev.rdmacm.cli.CommandRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdmacm mckey}: mckey's options and usage errors, its {@code --json} error object, and a join on
 * ibsim + OpenSM up to MULTICAST_JOIN and the leave. ibsim carries no UD data (its ports have no verbs
 * device), so the data transfer is not tested here: the guests' wire does that against the real mckey.
 */
@Timeout(60)
class McKeyCommandTest
{
    private static final JsonVocabulary VOCABULARY = JsonVocabulary.ofThisCheckout();

    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    @TempDir
    Path dir;

    private String fabric(final String node)
    {
        final SimulatedFabric fabric = FABRIC.fabric();
        return "ibsim:" + fabric.host() + ":" + fabric.ctlPort() + ":" + node;
    }

    @Test
    void shouldExitOneAsMckeysUsageWithoutAGroup()
    {
        final CommandRun run = run("mckey", "-s");

        assertEquals(McKeyCommand.USAGE, run.exit(), run.out() + run.err());
        assertTrue(run.err().startsWith("rdmacm mckey: give one of -m ADDR and -M MGID"), run.err());
    }

    @Test
    void shouldRefuseAnUnmappedGroupWithoutABindAddressInMckeysWords()
    {
        final CommandRun run = run("mckey", "-M", "ff12:401b:ffff::1");

        assertEquals(McKeyCommand.USAGE, run.exit(), run.err());
        assertTrue(run.err().contains("unmapped multicast address requires binding to source address"), run.err());
    }

    @Test
    void shouldRefuseAPortSpaceThatIsNeitherUdpNorIpoib()
    {
        final CommandRun run = run("mckey", "-m", "239.1.2.3", "-p", "0x106");

        assertEquals(McKeyCommand.USAGE, run.exit(), run.err());
        assertTrue(run.err().contains("'0x106' is neither 0x111 (RDMA_PS_UDP) nor 0x2 (RDMA_PS_IPOIB)"), run.err());
    }

    @Test
    void shouldPrintMckeysLinesAndTheLookupsStatusForAGroupNameThatDoesNotResolve()
    {
        final CommandRun run = run("mckey", "-m", "no-such-group.invalid");

        // getaddrinfo's EAI_NONAME (-2) as mckey returns it, a byte
        assertEquals(256 - 2, run.exit(), run.err());
        assertEquals(List.of("mckey: starting server",
            "getaddrinfo failed (Name or service not known) - invalid hostname or IP address",
            "test complete", "return status -2"), run.out().lines().toList());
    }

    @Test
    void shouldPrintTheLookupFailureAsTheDocumentedErrorObject()
    {
        final CommandRun run = run("mckey", "-m", "no-such-group.invalid", "--json");

        assertEquals(256 - 2, run.exit(), run.err());
        final JsonNode error = VOCABULARY.check("error", run.out());
        assertEquals("EAI_NONAME", error.get("error").asText());
        assertEquals(-2, error.get("status").asInt());
    }

    @Test
    void shouldJoinOnTheSimulatedFabricAndPrintMckeysLines() throws Exception
    {
        final FabricPort port = FABRIC.fabric().port("Hca2");
        final Path hosts = FabricHosts.write(FABRIC.fabric(), dir);

        final CommandRun run = run("mckey", "-m", "239.1.2.9", "-b", FabricHosts.address(port).getHostAddress(),
            "--fabric", fabric("Hca2"), "--hosts", hosts.toString());

        assertEquals(0, run.exit(), run.out() + run.err());
        final List<String> lines = run.out().lines().toList();
        assertEquals(List.of("mckey: starting server", "mckey: joining"), lines.subList(0, 2));
        assertTrue(lines.get(2).matches("mckey: joined dgid: ff12:4001:ffff::f01:209 mlid 0x[c-f][0-9a-f]{3} sl \\d+"), lines.get(2));
        assertEquals(List.of("test complete", "return status 0"), lines.subList(3, 5));
    }

    @Test
    void shouldPrintEveryJoinOfTheSimulatedFabricAsTheDocumentedObject() throws Exception
    {
        final FabricPort port = FABRIC.fabric().port("Hca3");
        final Path hosts = FabricHosts.write(FABRIC.fabric(), dir);

        final CommandRun run = run("mckey", "-m", "239.1.2.10", "-c", "2", "-s", "-b", FabricHosts.address(port).getHostAddress(),
            "--fabric", fabric("Hca3"), "--hosts", hosts.toString(), "--json");

        assertEquals(0, run.exit(), run.out() + run.err());
        final JsonNode mckey = VOCABULARY.check(VOCABULARY.resultOf("mckey"), run.out());
        assertEquals(2, mckey.get("joins").size());
        assertEquals(mckey.get("joins").get(0).get("mlid"), mckey.get("joins").get(1).get("mlid"));
        assertEquals("0xffffff", mckey.get("joins").get(0).get("qpn").asText());
        assertEquals("0x1234567", mckey.get("joins").get(0).get("qkey").asText());
        assertEquals(0, mckey.get("messages").asInt());
    }
}
