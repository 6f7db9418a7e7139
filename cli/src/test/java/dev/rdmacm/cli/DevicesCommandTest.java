package dev.rdmacm.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.sysfs.RecordedSysfsTrees;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmacm devices} on the recorded sysfs trees of the verbs module. */
@Timeout(120)
class DevicesCommandTest
{
    /** The last line: what --cm auto takes on this host, read from /sys/module/ib_cm here, as the kernel shows it. */
    private static final String CM_LINE = Files.exists(Path.of("/sys/module/ib_cm"))
        ? "connection manager: auto takes the kernel's (ib_cm is loaded and holds every port's CM class)\n"
        : "connection manager: auto takes the userspace CM (ib_cm is not loaded)\n";
    private static final String CM_JSON = Files.exists(Path.of("/sys/module/ib_cm")) ? "kernel" : "userspace";

    private static final String IB_HCA_TEXT = """
        mlx5_0: CA, node GUID 0002:c903:00a1:b2c4
          port 1: ACTIVE (LinkUp), InfiniBand, 100 Gb/sec (4X EDR)
            LID 0x0005, LMC 0, SM LID 0x0001, SM SL 0
            GID 0: fe80::2:c903:a1:b2c5 IB
            GID 1: fec0::1:2:c903:a1:b2c5 IB
            P_Key 0: 0xffff
            P_Key 1: 0x8001
            P_Key 2: 0x0002
          port 2: DOWN (Disabled), InfiniBand, 10 Gb/sec (4X)
            LID 0x0000, LMC 0, SM LID 0x0000, SM SL 0
            GID 0: fe80::2:c903:a1:b2c6 IB
            P_Key 0: 0xffff
        """;
    private static final String SOFT_ROCE_TEXT = """
        rxe0: CA, node GUID 5054:00ff:fe12:3456
          port 1: ACTIVE (LinkUp), Ethernet, 10 Gb/sec (1X QDR)
            LID 0x0000, LMC 0, SM LID 0x0000, SM SL 0
            GID 0: fe80::5054:ff:fe12:3456 RoCE v1 veth-rdma0
            GID 1: fe80::5054:ff:fe12:3456 RoCE v2 veth-rdma0
            GID 2: ::ffff:192.0.2.1 RoCE v1 veth-rdma0
            GID 3: ::ffff:192.0.2.1 RoCE v2 veth-rdma0
            GID 4: 2001:db8::1 RoCE v1 veth-rdma0
            GID 5: 2001:db8::1 RoCE v2 veth-rdma0
            P_Key 0: 0xffff
        """;

    @TempDir
    Path sysfs;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void shouldListBothRecordedDevicesAsText()
    {
        RecordedSysfsTrees.copy(sysfs, RecordedSysfsTrees.IB_HCA, RecordedSysfsTrees.SOFT_ROCE);

        final int exit = run("--source", "sysfs");

        assertEquals(0, exit, err.toString());
        assertEquals("source: sysfs " + sysfs + "\n" + IB_HCA_TEXT + SOFT_ROCE_TEXT + CM_LINE, out.toString());
    }

    @Test
    void shouldListTheSoftRoceDeviceAsOneLineOfJson()
    {
        RecordedSysfsTrees.softRoce(sysfs, "veth-t42");

        final int exit = run("--json", "--source=sysfs");

        assertEquals(0, exit, err.toString());
        assertEquals(compact("""
            {
              "source": "sysfs %s",
              "devices": [
                {
                  "name": "rxe0",
                  "node_type": "CA",
                  "node_guid": "5054:00ff:fe12:3456",
                  "ports": [
                    {
                      "port": 1,
                      "state": "ACTIVE",
                      "phys_state": "LinkUp",
                      "link_layer": "Ethernet",
                      "lid": 0,
                      "lmc": 0,
                      "sm_lid": 0,
                      "sm_sl": 0,
                      "rate": "10 Gb/sec (1X QDR)",
                      "gids": [
            %s
                      ],
                      "pkeys": [
                        {
                          "index": 0,
                          "pkey": "0xffff"
                        }
                      ]
                    }
                  ]
                }
              ],
              "connection_manager": "%s"
            }
            """.formatted(sysfs, gidsJson("veth-t42"), CM_JSON)) + "\n", out.toString());
    }

    @Test
    void shouldExitNonZeroWithOneLineWhenSysfsHasNoDevices()
    {
        final int exit = run("--source", "sysfs");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, exit);
        assertEquals("", out.toString());
        assertEquals("rdmacm devices: ENODEV (19): no RDMA devices under sysfs " + sysfs + "/class/infiniband\n", err.toString());
    }

    @Test
    void shouldWarnWhenSysfsPathNamesNothing()
    {
        final Path nothing = sysfs.resolve("no-such-directory");

        final int exit = run(Map.of("SYSFS_PATH", nothing.toString()), "--source", "sysfs");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, exit);
        assertEquals("rdmacm devices: warning: SYSFS_PATH=" + nothing + " is not a directory: no device can be read there\n"
            + "rdmacm devices: ENODEV (19): no RDMA devices under sysfs " + nothing + "/class/infiniband\n", err.toString());
    }

    @Test
    void shouldExitNonZeroWithOneLineWhenNeitherLibibverbsNorSysfsListADevice() throws IOException
    {
        // libibverbs reads SYSFS_PATH too: an empty tree is a host without RDMA devices for both
        final Result result = runMain(sysfs.toString(), "devices");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, result.exit(), result.stderr());
        assertEquals("", result.stdout());
        assertEquals(1, result.stderr().lines().count(), result.stderr());
        assertTrue(result.stderr().startsWith("rdmacm devices: ENODEV (19): none under sysfs " + sysfs + "/class/infiniband; libibverbs "),
            result.stderr());
    }

    @Test
    void shouldListOnlyTheDeviceAndThePortThatDashDAndDashIName()
    {
        RecordedSysfsTrees.copy(sysfs, RecordedSysfsTrees.IB_HCA, RecordedSysfsTrees.SOFT_ROCE);

        final int exit = run("--source", "sysfs", "-d", "mlx5_0", "-i", "2");

        assertEquals(0, exit, err.toString());
        assertEquals("source: sysfs " + sysfs + "\n" + IB_HCA_TEXT.substring(0, IB_HCA_TEXT.indexOf("  port 1")) +
            IB_HCA_TEXT.substring(IB_HCA_TEXT.indexOf("  port 2")) + CM_LINE, out.toString());
    }

    @Test
    void shouldNameTheDevicesThereAreForADeviceThatIsNot()
    {
        RecordedSysfsTrees.copy(sysfs, RecordedSysfsTrees.IB_HCA, RecordedSysfsTrees.SOFT_ROCE);

        final int exit = run("--source", "sysfs", "--ib-dev", "mlx9");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, exit);
        assertEquals("rdmacm devices: ENODEV (19): -d mlx9: no such RDMA device; there are mlx5_0, rxe0\n", err.toString());
    }

    @Test
    void shouldNameThePortsThereAreForAPortThatIsNot()
    {
        RecordedSysfsTrees.copy(sysfs, RecordedSysfsTrees.IB_HCA);

        final int exit = run("--source", "sysfs", "-i", "3");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, exit);
        assertEquals("rdmacm devices: ENODEV (19): -i 3: mlx5_0 has ports 1, 2\n", err.toString());
    }

    @Test
    void shouldRefuseAPortNumberBelowOneAsAUsageError()
    {
        final int exit = run("-i", "0");

        assertEquals(Main.EXIT_USAGE, exit);
        assertTrue(err.toString().startsWith("-i 0: a port number, 1 or more"), err.toString());
    }

    @Test
    void shouldFallBackToSysfsAndSayWhyWhenLibibverbsHasNoDevices()
    {
        Peers.require(Verbs.listDevices().isEmpty(), "this test needs a host without RDMA devices, where libibverbs lists "
            + "none (the conformance module's SoftRoceGuestsTest covers a host with them, in a guest)");
        RecordedSysfsTrees.copy(sysfs, RecordedSysfsTrees.IB_HCA);

        final int exit = run();

        assertEquals(0, exit, err.toString());
        assertEquals("source: sysfs " + sysfs + ", because " + Verbs.listDevices().whyNone().orElseThrow() + "\n" + IB_HCA_TEXT + CM_LINE,
            out.toString());
    }

    @Test
    void shouldRejectAnUnknownSourceAsAUsageError()
    {
        final int exit = run("--source", "netlink");

        assertEquals(Main.EXIT_USAGE, exit);
        assertTrue(err.toString().startsWith("--source 'netlink': expected auto, libibverbs or sysfs"), err.toString());
    }

    @Test
    void shouldExitWithTheUsageCodeThroughMain()
    {
        final CommandLine main = Main.commandLine();
        main.setOut(new PrintWriter(out, true));
        main.setErr(new PrintWriter(err, true));

        final int exit = main.execute("devices", "--source", "netlink");

        assertEquals(Main.EXIT_USAGE, exit);
        assertTrue(err.toString().startsWith("rdmacm devices: --source 'netlink': expected auto, libibverbs or sysfs"), err.toString());
    }

    @Test
    void shouldHonourSysfsPathInTheInstalledCommand() throws IOException
    {
        RecordedSysfsTrees.copy(sysfs, RecordedSysfsTrees.IB_HCA);

        final Result result = runMain(sysfs + "/", "devices", "--source", "sysfs");

        assertEquals(0, result.exit(), result.stderr());
        assertEquals("source: sysfs " + sysfs + "\n" + IB_HCA_TEXT + CM_LINE, result.stdout());
    }

    @Test
    void shouldNameTheBadFileWithExitCode1() throws IOException
    {
        RecordedSysfsTrees.copy(sysfs, RecordedSysfsTrees.IB_HCA);
        final Path lid = sysfs.resolve("class/infiniband/mlx5_0/ports/2/lid");
        Files.writeString(lid, "\n");

        final Result result = runMain(sysfs.toString(), "devices", "--source", "sysfs");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, result.exit());
        assertEquals("", result.stdout());
        assertEquals("rdmacm devices: " + lid + ": empty; the kernel never writes an empty value here\n", result.stderr());
    }

    /** The one-line form the command prints of a JSON document written out readably here. */
    private static String compact(final String json)
    {
        try
        {
            final ObjectMapper mapper = new ObjectMapper();
            return mapper.writeValueAsString(mapper.readTree(json));
        }
        catch (final JsonProcessingException ex)
        {
            throw new AssertionError("the expected JSON is not JSON: " + ex.getMessage(), ex);
        }
    }

    private int run(final String... args)
    {
        return run(Map.of("SYSFS_PATH", sysfs.toString()), args);
    }

    private int run(final Map<String, String> environment, final String... args)
    {
        final CommandLine command = new CommandLine(new DevicesCommand(environment).model());
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        return command.execute(args);
    }

    private static String gidsJson(final String netdev)
    {
        final String[][] gids = {
            {"fe80::5054:ff:fe12:3456", "RoCE v1"}, {"fe80::5054:ff:fe12:3456", "RoCE v2"},
            {"::ffff:192.0.2.1", "RoCE v1"}, {"::ffff:192.0.2.1", "RoCE v2"},
            {"2001:db8::1", "RoCE v1"}, {"2001:db8::1", "RoCE v2"}};
        final List<String> entries = new ArrayList<>();
        for (int i = 0; i < gids.length; i++)
        {
            final String indent = " ".repeat(12);
            entries.add(indent + "{\n"
                + indent + "  \"index\": " + i + ",\n"
                + indent + "  \"gid\": \"" + gids[i][0] + "\",\n"
                + indent + "  \"type\": \"" + gids[i][1] + "\",\n"
                + indent + "  \"netdev\": \"" + netdev + "\"\n"
                + indent + "}");
        }
        return String.join(",\n", entries);
    }

    private record Result(int exit, String stdout, String stderr)
    {
    }

    /** Runs {@link Main} in a child JVM with {@code SYSFS_PATH} set, as the {@code ./rdmacm} launcher would. */
    private static Result runMain(final String sysfsPath, final String... args) throws IOException
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("SYSFS_PATH", sysfsPath);
        final Process process = builder.start();
        try
        {
            process.getOutputStream().close();
            final String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            final String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS))
            {
                throw new AssertionError("rdmacm did not finish in 60 s");
            }
            return new Result(process.exitValue(), stdout, stderr);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for rdmacm", ex);
        }
        finally
        {
            process.destroyForcibly();
        }
    }
}
