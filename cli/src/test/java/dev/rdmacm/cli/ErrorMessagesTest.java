package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.cm.testing.FabricHosts;
import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Each error names the input and the rule once (issue 31): the failing commands the issue lists, run for
 * real (a network namespace with no route, one that does not exist, a hosts file that does not exist, an
 * SA that stopped answering on an ibsim fabric), and every error line, text and JSON message alike,
 * checked for a phrase said twice: no ": "-separated part of the line is contained in another, and no
 * errno name appears twice.
 */
@Timeout(180)
class ErrorMessagesTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ERRNO_NAME = Pattern.compile("\\bE[A-Z0-9]{3,}\\b");
    /** A namespace with nothing in it, not even a route: the lookup of any route is ENETUNREACH. */
    private static final String BARE_NAMESPACE = "rdmacm-t31-" + ProcessHandle.current().pid();

    @TempDir
    static Path dir;

    private static SimulatedFabric fabric;
    private static Path hosts;

    @BeforeAll
    static void start() throws Exception
    {
        Peers.requireRoot("a network namespace of the test's own");
        HostCommand.run(Duration.ofSeconds(10), "ip", "netns", "add", BARE_NAMESPACE).orFail("ip netns add");
        fabric = SimulatedFabric.start();
        hosts = FabricHosts.write(fabric, dir);
    }

    @AfterAll
    static void stop()
    {
        HostCommand.run(Duration.ofSeconds(10), "ip", "netns", "del", BARE_NAMESPACE);
        if (fabric != null)
        {
            fabric.close();
        }
    }

    @Test
    void shouldSayEachThingOnceInTheErrorsOfTheCommandsTheIssueLists() throws Exception
    {
        final String fabricOption = "ibsim:" + fabric.host() + ":" + fabric.ctlPort() + ":Hca2";
        final String destination = FabricHosts.address(fabric.port("Hca4")).getHostAddress();
        final List<List<String>> commands = new ArrayList<>(List.of(
            List.of("resolve-addr", "10.9.9.9", "--netns", BARE_NAMESPACE),
            List.of("resolve-addr", "10.9.9.9", "--netns", "nosuch-" + BARE_NAMESPACE),
            List.of("resolve-addr", "10.9.9.9", "--fabric", fabricOption, "--hosts", dir.resolve("nonexist").toString()),
            List.of("resolve-route", "10.9.9.9", "--fabric", fabricOption, "--hosts", dir.resolve("nonexist").toString())));
        final Map<List<String>, String> expected = new HashMap<>(Map.of(
            commands.get(0), "rdmacm resolve-addr: rdma_resolve_addr ENETUNREACH (101): RTM_GETROUTE 10.9.9.9: Network is unreachable",
            commands.get(1), "rdmacm resolve-addr: ENOENT (2): --netns nosuch-" + BARE_NAMESPACE + ": no network namespace of that name "
                + "in /run/netns (ip netns list shows those there are)",
            commands.get(2), "rdmacm resolve-addr: --hosts " + dir.resolve("nonexist") + ": No such file or directory",
            commands.get(3), "rdmacm resolve-route: --hosts " + dir.resolve("nonexist") + ": No such file or directory"));
        final List<String> lines = new ArrayList<>();
        for (final List<String> command : commands)
        {
            lines.add(errorLine(command));
        }
        // the SA stops answering: the PathRecord query of resolve-route and of path times out
        fabric.stopSubnetManager();
        final List<List<String>> saCommands = List.of(
            List.of("resolve-route", destination, "--fabric", fabricOption, "--hosts", hosts.toString(), "--timeout-ms", "300"),
            List.of("path", "--fabric", fabricOption, "--dlid", Integer.toString(fabric.port("Hca4").lid()), "--timeout-ms", "300"));
        for (final List<String> command : saCommands)
        {
            final String line = errorLine(command);
            assertTrue(line.contains("ETIMEDOUT") && line.contains("no answer from the SA"), line);
            lines.add(line);
        }

        for (int i = 0; i < commands.size(); i++)
        {
            assertEquals(expected.get(commands.get(i)), lines.get(i), String.join(" ", commands.get(i)));
        }
        for (final String line : lines)
        {
            assertSaysEachThingOnce(line);
        }
    }

    /** The command's one error line on stderr; and its JSON message, which must say each thing once too. */
    private static String errorLine(final List<String> command) throws Exception
    {
        final CommandRun text = CommandRun.run(command.toArray(String[]::new));
        assertTrue(text.exit() == Main.EXIT_RESOLUTION_FAILURE || text.exit() == Main.EXIT_USAGE, command + ": " + text);
        final String line = text.err().lines().findFirst().orElseThrow(() -> new AssertionError(command + ": no error line"));

        final List<String> withJson = new ArrayList<>(command);
        withJson.add("--json");
        final CommandRun json = CommandRun.run(withJson.toArray(String[]::new));
        assertSaysEachThingOnce("rdmacm: " + JSON.readTree(json.out()).get("message").asText());
        return line;
    }

    private static void assertSaysEachThingOnce(final String line)
    {
        final String body = line.substring(line.indexOf(": ") + 2);
        final List<String> parts = Arrays.stream(body.split(": ")).map(part -> part.strip().toLowerCase()).toList();
        for (int i = 0; i < parts.size(); i++)
        {
            for (int j = 0; j < parts.size(); j++)
            {
                if (i != j && parts.get(j).contains(parts.get(i)))
                {
                    fail("'" + parts.get(i) + "' said twice in: " + line);
                }
            }
        }
        final Matcher names = ERRNO_NAME.matcher(body);
        final List<String> seen = new ArrayList<>();
        while (names.find())
        {
            assertTrue(!seen.contains(names.group()), names.group() + " said twice in: " + line);
            seen.add(names.group());
        }
    }
}
