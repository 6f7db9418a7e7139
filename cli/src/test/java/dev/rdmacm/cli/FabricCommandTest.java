package dev.rdmacm.cli;

import dev.rdmacm.sa.testing.SimulatedFabric;
import dev.rdmacm.sa.transport.ibsim.IbsimPorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdmacm fabric start|status|stop} on the real ibsim and OpenSM, in a state directory and on UDP
 * ports of each test's own. Whatever a test started is stopped in teardown, by the PIDs the state file
 * records.
 */
@Timeout(120)
class FabricCommandTest
{
    @TempDir
    Path dir;

    private Path state;
    private int port;

    @BeforeEach
    void choosePorts()
    {
        SimulatedFabric.requirePeers();
        state = dir.resolve("state");
        port = IbsimPorts.freeRange();
    }

    @AfterEach
    void stopWhatTheTestStarted() throws Exception
    {
        final FabricState recorded = FabricState.read(state);
        if (recorded != null)
        {
            recorded.stop();
        }
    }

    private CommandRun fabric(final String part, final String... more)
    {
        final List<String> args = new java.util.ArrayList<>(List.of("fabric", part, "--state-dir", state.toString()));
        if (part.equals("start"))
        {
            args.addAll(List.of("--port", Integer.toString(port)));
        }
        args.addAll(List.of(more));
        return CommandRun.run(args.toArray(String[]::new));
    }

    private String options()
    {
        return "--fabric ibsim:127.0.0.1:" + port + ":Hca2 --hosts " + state.resolve("ibacm_hosts.data");
    }

    private static boolean alive(final long pid)
    {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Test
    void shouldKeepIbsimAndOpenSmRunningAfterTheCommandsJvmExited() throws Exception
    {
        final MainProcess run = MainProcess.run(dir, Map.of(), 60, "fabric", "start", "--state-dir", state.toString(),
            "--port", Integer.toString(port));

        assertEquals(Main.EXIT_OK, run.exit(), run.err());
        final FabricState recorded = FabricState.read(state);
        assertTrue(alive(recorded.ibsimPid()) && alive(recorded.openSmPid()), run.out());
        assertEquals(recorded.ibsimPid(), session(recorded.ibsimPid()), "ibsim leads a session of its own");
        assertEquals(recorded.openSmPid(), session(recorded.openSmPid()), "OpenSM leads a session of its own");
    }

    /** The session id of a process: the 6th field of /proc/PID/stat, the 4th after the command's closing parenthesis. */
    private static long session(final long pid) throws IOException
    {
        final String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3]);
    }

    @Test
    void shouldPrintTheFabricAndHostsValuesAsItsLastLine()
    {
        final CommandRun run = fabric("start");

        assertEquals(Main.EXIT_OK, run.exit(), run.err());
        final List<String> lines = run.out().lines().toList();
        assertEquals(options(), lines.get(lines.size() - 1));
        assertTrue(run.out().contains("Hca3  lid 5  10.0.0.5  fe80::10:7"), run.out());
    }

    @Test
    void shouldResolveARouteWithThePrintedValues()
    {
        assertEquals(Main.EXIT_OK, fabric("start").exit());

        final CommandRun route = CommandRun.run("resolve-route", "10.0.0.5", "--fabric", "ibsim:127.0.0.1:" + port + ":Hca2",
            "--hosts", state.resolve("ibacm_hosts.data").toString());

        assertEquals(Main.EXIT_OK, route.exit(), route.err());
        assertTrue(route.out().contains("  dlid                       5\n"), route.out());
    }

    @Test
    void shouldReportBothProcessesRunningAndTheValuesInStatus()
    {
        assertEquals(Main.EXIT_OK, fabric("start").exit());

        final CommandRun status = fabric("status");

        assertEquals(Main.EXIT_OK, status.exit(), status.err());
        assertTrue(status.out().contains("on UDP port " + port + ": running\n"), status.out());
        assertTrue(status.out().contains("as Hca1: running\n"), status.out());
        assertTrue(status.out().endsWith(options() + "\n"), status.out());
    }

    @Test
    void shouldStopTheRecordedProcessesByPidAndRemoveItsFiles() throws Exception
    {
        assertEquals(Main.EXIT_OK, fabric("start").exit());
        final FabricState recorded = FabricState.read(state);

        final CommandRun stop = fabric("stop");

        assertEquals(Main.EXIT_OK, stop.exit(), stop.err());
        assertEquals("stopped 2 processes (pid " + recorded.openSmPid() + ", pid " + recorded.ibsimPid()
            + "); removed the fabric's files from " + state + "\n", stop.out());
        assertFalse(alive(recorded.ibsimPid()) || alive(recorded.openSmPid()));
        assertFalse(Files.exists(state), "the state directory it created is removed");
    }

    @Test
    void shouldKeepFilesOfTheUsersInTheStateDirectory() throws Exception
    {
        Files.createDirectories(state);
        Files.writeString(state.resolve("notes.txt"), "mine");
        assertEquals(Main.EXIT_OK, fabric("start").exit());

        assertEquals(Main.EXIT_OK, fabric("stop").exit());

        try (var left = Files.list(state))
        {
            assertEquals(List.of(state.resolve("notes.txt")), left.toList());
        }
    }

    @Test
    void shouldSayNothingIsRunningOnASecondStopAndExitZero()
    {
        assertEquals(Main.EXIT_OK, fabric("start").exit());
        assertEquals(Main.EXIT_OK, fabric("stop").exit());

        final CommandRun again = fabric("stop");

        assertEquals(Main.EXIT_OK, again.exit(), again.err());
        assertEquals("no fabric started in " + state + ": nothing to stop\n", again.out());
    }

    @Test
    void shouldRefuseASecondStartNamingTheStateDirectory() throws Exception
    {
        assertEquals(Main.EXIT_OK, fabric("start").exit());
        final FabricState recorded = FabricState.read(state);

        final CommandRun again = fabric("start");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, again.exit());
        assertEquals("rdmacm fabric start: EEXIST (17): --state-dir " + state + ": a fabric started there still runs (ibsim pid "
            + recorded.ibsimPid() + ", OpenSM pid " + recorded.openSmPid() + "); rdmacm fabric stop stops it\n", again.err());
    }

    @Test
    void shouldSayNoFabricWasStartedInStatus()
    {
        final CommandRun status = fabric("status");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, status.exit());
        assertEquals("rdmacm fabric status: ENOENT (2): --state-dir " + state + ": no fabric started there; "
            + "rdmacm fabric start starts one\n", status.err());
    }

    @Test
    void shouldReportAStaleStateWhosePidsAreDeadAndLetStopRemoveIt() throws Exception
    {
        final long dead = deadPid();
        Files.createDirectories(state);
        new FabricState(state, dead, 1L, dead, 1L, port, "Hca2", List.of()).write();

        final CommandRun status = fabric("status");
        final CommandRun start = fabric("start");
        final CommandRun stop = fabric("stop");

        final String rule = ": --state-dir " + state + ": the fabric recorded there has stopped (ibsim pid " + dead
            + " and OpenSM pid " + dead + " not running); rdmacm fabric stop removes its state\n";
        assertEquals(Main.EXIT_RESOLUTION_FAILURE, status.exit());
        assertEquals("rdmacm fabric status: ESTALE (116)" + rule, status.err());
        assertEquals("rdmacm fabric start: ESTALE (116)" + rule, start.err());
        assertEquals(Main.EXIT_OK, stop.exit(), stop.err());
        assertFalse(Files.exists(state));
    }

    @Test
    void shouldNameTheMissingPeerWhenIbsimIsNotOnThePath() throws Exception
    {
        final Path empty = Files.createDirectories(dir.resolve("empty-bin"));

        final MainProcess run = MainProcess.run(dir, Map.of("PATH", empty.toString()), 60, "fabric", "start",
            "--state-dir", state.toString(), "--port", Integer.toString(port));

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit());
        assertEquals("rdmacm fabric start: ENOENT (2): ibsim (Debian package ibsim-utils) is not on PATH; "
            + "scripts/setup runtime installs it\n", run.err());
        assertFalse(Files.exists(FabricState.file(state)));
    }

    @Test
    void shouldNameThePortWhenIbsimsPortsAreTaken() throws Exception
    {
        try (java.net.DatagramSocket taken = new java.net.DatagramSocket(port + 3))
        {
            final CommandRun run = fabric("start");

            assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit());
            assertEquals("rdmacm fabric start: EADDRINUSE (98): --port " + port + ": UDP ports " + port + " to " + (port + 11)
                + " are not all free, and ibsim needs them; give another --port\n", run.err());
        }
    }

    @Test
    void shouldNameTheStateDirectoryWhenItIsAFile() throws Exception
    {
        Files.writeString(state, "not a directory");

        final CommandRun run = fabric("start");

        assertEquals(Main.EXIT_RESOLUTION_FAILURE, run.exit());
        assertEquals("rdmacm fabric start: EIO (5): --state-dir " + state + ": exists and is no directory\n", run.err());
    }

    /** A PID that ran and no longer runs: a `true` this test started and waited for. */
    private static long deadPid() throws IOException, InterruptedException
    {
        final Process process = new ProcessBuilder("true").start();
        process.waitFor();
        return process.pid();
    }
}
