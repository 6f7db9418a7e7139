package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rdmacm.sa.testing.FabricPort;
import dev.rdmacm.sa.testing.SimulatedFabricExtension;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;
import dev.rdmacm.sa.transport.ibsim.IbsimPorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command's {@code --json} output held to docs/json.md, read from the page itself
 * ({@link JsonVocabulary}): the result object the page's Commands table names, or its {@code error}
 * object, field for field and type for type, {@code --trace}'s keys included. The peers: the namespace
 * fixture with the recorded soft-RoCE device (resolve-addr, resolve-route), ibsim and OpenSM (path),
 * the recorded sysfs trees (devices), glibc (getaddrinfo), a child JVM (cmtime, acm-server).
 */
@Timeout(120)
class JsonContractTest
{
    private static final JsonVocabulary VOCABULARY = JsonVocabulary.ofThisCheckout();

    @RegisterExtension
    static final SoftRoceNamespace NAMESPACE = new SoftRoceNamespace();

    @RegisterExtension
    static final SimulatedFabricExtension FABRIC = SimulatedFabricExtension.perClass();

    @TempDir
    Path dir;

    /** A {@code fabric start} of a test leaves its processes running: stopped here, by the PIDs its state file records. */
    @AfterEach
    void stopAKeptFabric() throws Exception
    {
        final FabricState kept = FabricState.read(dir.resolve("fabric"));
        if (kept != null)
        {
            kept.stop();
        }
    }

    private static CommandRun resolve(final CommandLine commandLine, final String... args)
    {
        final List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--netns", NAMESPACE.topology().host));
        return CommandRun.run(commandLine, all.toArray(String[]::new));
    }

    private static CommandRun resolveAddr(final String... args)
    {
        return resolve(new CommandLine(new ResolveAddrCommand(Map.of("SYSFS_PATH", NAMESPACE.sysfs().toString())).model()), args);
    }

    private static CommandRun resolveRoute(final String... args)
    {
        return resolve(new CommandLine(new ResolveRouteCommand(Map.of("SYSFS_PATH", NAMESPACE.sysfs().toString()))), args);
    }

    private static JsonNode result(final String command, final CommandRun run)
    {
        assertEquals(Main.EXIT_OK, run.exit(), run.out() + run.err());
        assertEquals("", run.err());
        assertEquals(1, run.out().lines().count(), run.out());
        return VOCABULARY.check(VOCABULARY.resultOf(command), run.out());
    }

    @Test
    void shouldPrintGetaddrinfoAsItsDocumentedObject()
    {
        result("getaddrinfo", CommandRun.run("getaddrinfo", "--json", "192.0.2.1", "7471", "--passive"));
    }

    @Test
    void shouldPrintResolveAddrinfoAsItsDocumentedObject()
    {
        result("resolve-addrinfo", CommandRun.run("resolve-addrinfo", "--json", "2001:db8::1", "7471", "--numeric-host"));
    }

    @Test
    void shouldPrintDevicesAsTheirDocumentedObject()
    {
        RecordedSysfsTrees.copy(dir, RecordedSysfsTrees.IB_HCA, RecordedSysfsTrees.SOFT_ROCE);

        result("devices", CommandRun.run(new CommandLine(new DevicesCommand(Map.of("SYSFS_PATH", dir.toString())).model()), "--json",
            "--source", "sysfs"));
    }

    @Test
    void shouldPrintResolveAddrWithItsTraceAsItsDocumentedObject()
    {
        final JsonNode json = result("resolve-addr", resolveAddr("2001:db8::2", "--json", "--trace"));

        assertTrue(json.get("transitions").size() > 0, json.toString());
    }

    @Test
    void shouldPrintResolveRouteWithItsTraceAsItsDocumentedObject()
    {
        final JsonNode json = result("resolve-route", resolveRoute("192.0.2.2", "--json", "--trace"));

        assertTrue(json.get("route_steps").size() > 0, json.toString());
    }

    @Test
    void shouldPrintPathAsItsDocumentedObject()
    {
        final FabricPort destination = FABRIC.fabric().port("Hca4");

        result("path", CommandRun.run("path", "--fabric", "ibsim:" + FABRIC.fabric().host() + ":" + FABRIC.fabric().ctlPort() + ":Hca2",
            "--dgid", destination.gid().toString(), "--reversible", "--json"));
    }

    @Test
    void shouldPrintFabricStartAndStatusAsTheirDocumentedObject()
    {
        final String state = dir.resolve("fabric").toString();

        final JsonNode started = result("fabric", CommandRun.run("fabric", "start", "--json", "--state-dir", state,
            "--port", Integer.toString(IbsimPorts.freeRange())));
        final JsonNode status = result("fabric", CommandRun.run("fabric", "status", "--json", "--state-dir", state));

        assertEquals(started, status);
        assertEquals(4, status.get("hosts").size());
    }

    @Test
    void shouldPrintFabricStopAsItsDocumentedObject()
    {
        final String state = dir.resolve("fabric").toString();
        assertEquals(Main.EXIT_OK, CommandRun.run("fabric", "start", "--state-dir", state, "--port",
            Integer.toString(IbsimPorts.freeRange())).exit());

        final CommandRun stop = CommandRun.run("fabric", "stop", "--json", "--state-dir", state);

        assertEquals(Main.EXIT_OK, stop.exit(), stop.err());
        assertEquals(2, VOCABULARY.check("fabric_stopped", stop.out()).get("stopped_pids").size());
    }

    @Test
    void shouldPrintAFailedResolutionWithItsTraceAsTheDocumentedErrorObject()
    {
        final CommandRun run = resolveRoute("198.18.1.1", "--json", "--trace");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit(), run.err());
        assertEquals("EHOSTUNREACH", VOCABULARY.check("error", run.out()).get("error").asText());
    }

    @Test
    void shouldPrintCmtimesStepTimesAsTheirDocumentedObjects()
    {
        // cmtime's clock injected: each reading 1 ms after the last, so every time is known
        final AtomicLong now = new AtomicLong();
        final CmtimeTimes times = new CmtimeTimes(2, () -> now.addAndGet(1_000_000));
        for (final CmtimeStep step : CmtimeStep.values())
        {
            times.start(step);
            times.start(0, step);
            times.end(0, step);
            times.end(step);
        }

        final JsonNode steps = VOCABULARY.check("cmtime_round", "{\"ok\":true,\"steps\":" + times.json(true) + "}").get("steps");

        assertEquals(CmtimeStep.values().length, steps.size());
        assertEquals("[1000,null]", steps.get(0).get("connections_us").toString());
        assertEquals(3000, steps.get(0).get("total_us").asLong());
        assertTrue(times.json(true).toString().startsWith("[{\"step\":\"create_id\",\"total_us\":3000,\"max_us\":1000,"
            + "\"min_us\":1000,\"us_per_conn\":1500.00,"), times.json(true).toString());
    }

    @Test
    void shouldPrintCmtimesMissingDeviceAsTheDocumentedErrorObject() throws Exception
    {
        final MainProcess run = MainProcess.run(dir, Map.of("SYSFS_PATH", Files.createDirectories(dir.resolve("empty")).toString()),
            60, "cmtime", "-s", "127.0.0.1", "--json");

        assertEquals(CmtimeCommand.NO_DEVICE, run.exit(), run.err());
        assertEquals("ENODEV", VOCABULARY.check("error", run.out()).get("error").asText());
    }

    @Test
    void shouldPrintRpingsFailedLookupAsTheDocumentedErrorObject()
    {
        final CommandRun run = CommandRun.run("rping", "-c", "-a", "no-such-host.invalid", "--json");

        // rping's status: getaddrinfo's EAI_NONAME (-2) as a byte
        assertEquals(256 - 2, run.exit(), run.err());
        assertEquals("EAI_NONAME", VOCABULARY.check("error", run.out()).get("error").asText());
    }

    @Test
    void shouldPrintAcmServersStartAndStopAsTheirDocumentedObjects() throws Exception
    {
        Files.writeString(dir.resolve("addr.cfg"), "127.0.0.1 mlx5_0 1 0xffff fe80::1 1\n");
        Files.writeString(dir.resolve("opts.cfg"), "server_mode loop\nserver_port 0\nlog_file " + dir.resolve("acm.log") + "\n");
        final Path out = dir.resolve("out.jsonl");
        final Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), Main.class.getName(), "acm-server", "--json",
            "-O", dir.resolve("opts.cfg").toString(), "-A", dir.resolve("addr.cfg").toString(), "--run-dir", dir.resolve("run").toString())
            .redirectOutput(out.toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
        try
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (Files.size(out) == 0 && process.isAlive() && System.nanoTime() < deadline)
            {
                Thread.sleep(50);
            }
            process.destroy();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "acm-server stops on SIGTERM");
        }
        finally
        {
            process.destroyForcibly();
        }

        final List<String> lines = Files.readAllLines(out);
        assertEquals(2, lines.size(), lines + Files.readString(dir.resolve("err.txt")));
        assertEquals("fe80::1", VOCABULARY.check("acm_server_started", lines.get(0)).get("endpoints").get(0).get("gid").asText());
        assertEquals(0, VOCABULARY.check("acm_server_stopped", lines.get(1)).get("requests").asInt());
    }

    @Test
    void shouldPrintThePrettyFormAsTheSameObjectIndented()
    {
        final CommandRun compact = CommandRun.run("getaddrinfo", "--json", "192.0.2.1", "7471");
        final CommandRun pretty = CommandRun.run("getaddrinfo", "--pretty", "192.0.2.1", "7471");

        assertEquals(Main.EXIT_OK, pretty.exit(), pretty.err());
        assertTrue(pretty.out().startsWith("{\n    \"entries\": [\n"), pretty.out());
        assertEquals(VOCABULARY.check("getaddrinfo", compact.out()), VOCABULARY.check("getaddrinfo", pretty.out()));
    }

    @Test
    void shouldDocumentEveryObjectTheCommandsTableNames()
    {
        for (final String command : Main.SUBCOMMANDS)
        {
            if (!command.equals("help"))
            {
                assertTrue(VOCABULARY.objects().containsKey(VOCABULARY.resultOf(command)), command);
            }
        }
    }
}
