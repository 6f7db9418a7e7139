package dev.rdmacm.acm;

import dev.rdmacm.testing.Peers;
import dev.rdmacm.testing.guest.GuestJavaOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, defect 3, for ENFILE: the system's file table full, for real, in the kernel guest
 * ({@code KernelGuestSuite}), where filling it harms nobody else. The server runs in a process of its
 * own ({@link ClockedServerMain}) without CAP_SYS_ADMIN ({@code setpriv --bounding-set -sys_admin}),
 * as the kernel lets a process with it past {@code fs.file-max}; the test lowers {@code fs.file-max}
 * below the files the system has open, connects a client, and the server's {@code accept} fails with
 * ENFILE. As for EMFILE ({@link AcmAcceptBackoffTest}, on the server's injected clock): no try before
 * the back-off has passed, one log line per interval, and once the table has room again the waiting
 * client served and the real {@code ib_acme} answered. {@code fs.file-max} is put back whatever
 * happens.
 * <p>
 * How far below: {@link #BELOW} files, below a count this JVM first raises by {@link #HELD} open
 * descriptors of {@code /dev/null}, held while the table is full. Not to half the files open: af_unix
 * refuses a new unix socket (the server's end of a connect) with ENFILE once the system's unix sockets
 * exceed twice {@code fs.file-max}, and at half the files open that refused this JVM's own connect (the
 * first run). Not just below: the kernel's first look at the count is a per-CPU counter that may lag
 * the sum by 32 a CPU, and a file closed meanwhile must not leave room. And the guest has few files
 * open of itself (fewer than {@link #BELOW}: the second run's {@code fs.file-max} would have been
 * negative), hence the held ones.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
public class AcmAcceptEnfileInGuest
{
    private static final long WAIT_MS = 60_000;
    private static final int BELOW = 256;
    private static final int HELD = 1024;
    /** How long no other process may have run without CAP_SYS_ADMIN before the limit is lowered. */
    private static final long QUIET_MS = 2_000;
    /**
     * Unprivileged processes a lowered {@code fs.file-max} cannot harm, as they open no file once started:
     * the suite's MAD captures ({@code dumpcap -w FILE}, one file, no ring buffer), which run through the whole
     * kernel guest's suite, so waiting for them to end would fail this test (the clean clone at 09:03, session 8).
     */
    private static final Set<String> OPENS_NOTHING_AFTER_ITS_START = Set.of("dumpcap");
    /** How often the processes are listed: each listing reads every process's status, dear under TCG. */
    private static final long LISTING_PERIOD_MS = 200;
    private static final Path FILE_MAX = Path.of("/proc/sys/fs/file-max");
    private static final Path FILE_NR = Path.of("/proc/sys/fs/file-nr");
    private static final String ACCEPT_LINE = "accept failed: Too many open files in system, not accepting for 100 ms";

    @Test
    void shouldBackOffLogOncePerIntervalAndServeAgainWhenTheSystemsFileTableIsFull() throws Exception
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null,
            "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (KernelGuestSuite)");
        final String setpriv = Peers.requireCommand("setpriv", "util-linux").toString();
        final Path dir = Files.createTempDirectory("acm-enfile");
        // the fixture's endpoints, hosts and path dump: ib_acme's resolution afterwards is served from them
        Files.writeString(dir.resolve("addr.cfg"), AcmServerFixture.ENDPOINTS);
        Files.writeString(dir.resolve("hosts.data"), AcmServerFixture.HOSTS);
        Files.writeString(dir.resolve("paths.dump"), AcmServerFixture.PATH_DUMP);
        final Path options = dir.resolve("opts.cfg");
        Files.writeString(options, """
            addr_file %1$s/addr.cfg
            run_dir %1$s/run
            addr_preload acm_hosts
            addr_data_file %1$s/hosts.data
            route_preload opensm_full_v1
            route_data_file %1$s/paths.dump
            client_timeout 3600000
            """.formatted(dir));
        final Path log = dir.resolve("server.log");
        final List<String> command = new ArrayList<>(List.of(setpriv, "--bounding-set", "-sys_admin",
            Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        // the test JVM's own options and AOT cache: under TCG a JVM with the defaults starts seconds later
        command.addAll(GuestJavaOptions.ofThisGuest().orElse(List.of("--enable-native-access=ALL-UNNAMED", "--add-exports",
            "java.base/jdk.internal.misc=ALL-UNNAMED")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ClockedServerMain.class.getName(), options.toString()));
        // opened once, before the table is full: lowering, reading and restoring it then need no new file
        final FileChannel fileMaxFile = FileChannel.open(FILE_MAX, StandardOpenOption.READ, StandardOpenOption.WRITE);
        final FileChannel fileNrFile = FileChannel.open(FILE_NR, StandardOpenOption.READ);
        // one read at offset 0 (read): a numeric sysctl answers nothing at any other, so Files.readString, which
        // reads procfs's size-0 file in pieces, gets the first digit alone; put back, that made fs.file-max 3 (it was
        // 302670), the cause of the failed accept after the restore in the earlier runs
        final String fileMax = read(fileMaxFile);
        assertEquals(fileMax, read(fileNrFile).split("\\s+")[2], "fs.file-max as fs.file-nr's third field gives it");
        final List<FileChannel> held = new ArrayList<>();
        // setpriv execs the JVM: the process's PID is the server's, which the finally block stops
        final Process server = new ProcessBuilder(command).redirectError(log.toFile()).start();
        final Server control = new Server(server, log);
        try
        {
            assertEquals("ready", control.said.readLine(), control::logText);
            final Path socket = dir.resolve("run").resolve(AcmServerFiles.UNIX_SOCKET);
            try (RawAcmClient served = new RawAcmClient(socket))
            {
                assertTrue(served.nothingBeforeMarker(WAIT_MS), "served before the table is full");
                // a client that comes and goes while files can still be opened: the classes of a disconnection loaded
                try (SocketChannel once = SocketChannel.open(StandardProtocolFamily.UNIX))
                {
                    once.connect(UnixDomainSocketAddress.of(socket));
                    control.await(() -> control.ask("connections") == 2, "a passing client accepted");
                }
                control.await(() -> control.ask("connections") == 1, "and its leaving seen");

                // every file this JVM needs while the table is full is open before: the guest's test JVM is held
                // to fs.file-max too (a file opened then failed with ENFILE, and so did the restore, in the first run)
                final SocketChannel waiting = SocketChannel.open(StandardProtocolFamily.UNIX);
                final long backOffs = AcmServer.ACCEPT_LOG_INTERVAL_NS / AcmServer.ACCEPT_BACKOFF_NS;
                while (held.size() < HELD)
                {
                    held.add(FileChannel.open(Path.of("/dev/null"), StandardOpenOption.READ));
                }
                awaitNoOtherUnprivilegedProcess(server.pid());
                final String before = read(fileNrFile);
                final long open = Long.parseLong(before.split("\\s+")[0]);
                final long lowered = open - BELOW;
                setFileMax(fileMaxFile, Long.toString(lowered));
                try
                {
                    waiting.connect(UnixDomainSocketAddress.of(socket));
                    control.await(() -> control.ask("failures") > 0, () -> "accept failing with fs.file-max " + lowered
                        + " and fs.file-nr " + read(fileNrFile) + " (" + before + " before)");
                    assertEquals(1, control.ask("failures"), "the first failure rests the listeners");
                    assertTrue(served.nothingBeforeMarker(WAIT_MS), "the loop serves while the listeners rest");
                    control.advance(AcmServer.ACCEPT_BACKOFF_NS - 1);
                    assertTrue(served.nothingBeforeMarker(WAIT_MS));
                    assertEquals(1, control.ask("failures"), "no try 1 ns before the back-off ends");
                    control.advance(1);
                    control.await(() -> control.ask("failures") == 2,
                        () -> "one try once the back-off has passed: " + state(server, fileMaxFile, fileNrFile, control));
                    // the rest of the first interval, and the first try of the second
                    for (long tries = 3; tries <= backOffs + 1; tries++)
                    {
                        control.advance(AcmServer.ACCEPT_BACKOFF_NS);
                        final long expected = tries;
                        control.await(() -> control.ask("failures") == expected,
                            () -> "try " + expected + ": " + state(server, fileMaxFile, fileNrFile, control));
                    }
                    assertTrue(served.nothingBeforeMarker(WAIT_MS));
                }
                finally
                {
                    setFileMax(fileMaxFile, fileMax);
                    closeAll(held);
                }
                // the log is read once the table has room (reading it opens a file); the clock has not moved since
                // the last try, so it holds what the two intervals' tries wrote: one line each
                assertEquals(List.of(ACCEPT_LINE, ACCEPT_LINE + " (" + (backOffs - 1) + " more since the last)"),
                    control.acceptLines(), () -> (backOffs + 1) + " failures in two intervals: " + control.logText());
                final long accepted = control.ask("connections");
                final long failures = control.ask("failures");
                final String restored = state(server, fileMaxFile, fileNrFile, control);
                control.advance(AcmServer.ACCEPT_BACKOFF_NS);
                control.await(() -> control.ask("connections") > accepted || control.ask("failures") > failures,
                    "an accept tried once the back-off has passed");
                if (control.ask("connections") != accepted + 1)
                {
                    // what the throttle held back, and whether a later try gets through: said before failing
                    final String first = state(server, fileMaxFile, fileNrFile, control);
                    final List<String> later = new ArrayList<>();
                    for (int tries = 0; tries < 5 && control.ask("connections") == accepted; tries++)
                    {
                        final long failed = control.ask("failures");
                        control.advance(AcmServer.ACCEPT_BACKOFF_NS);
                        control.await(() -> control.ask("connections") > accepted || control.ask("failures") > failed,
                            "a later try");
                        later.add(state(server, fileMaxFile, fileNrFile, control));
                    }
                    throw new AssertionError("the waiting client not accepted at the first try once fs.file-max is back\n"
                        + "before that try: " + restored + "\nafter it: " + first + "\nlater tries: " + later + "\nthe server's log:\n"
                        + control.logText());
                }
                try (waiting)
                {
                    waiting.write(ByteBuffer.wrap(AcmRequests.perfQuery()));
                    final ByteBuffer reply = ByteBuffer.allocate(dev.rdmacm.protocol.acm.AcmHeader.LENGTH);
                    while (reply.hasRemaining() && waiting.read(reply) >= 0)
                    {
                        Thread.onSpinWait();
                    }
                    assertEquals(0, reply.remaining(), "and served");
                }
                final IbAcme.Result acme = IbAcme.run("-S", socket.toString(), "-f", "i", "-s", "192.0.2.2", "-d", "192.0.2.3");
                assertTrue(acme.output().contains("return status 0x0") && acme.output().contains("dlid: 5"), acme.output());
                assertEquals(0, acme.exitCode(), acme.output());
                System.out.println("AcmAcceptEnfileInGuest: fs.file-max " + fileMax + " lowered to " + lowered + " (fs.file-nr "
                    + before + " with " + HELD + " held by the test); " + failures + " ENFILE accepts in two intervals, log: " + control.acceptLines()
                    + "; ib_acme answered afterwards; before the try that accepted: " + restored);
            }
        }
        finally
        {
            setFileMax(fileMaxFile, fileMax);
            fileMaxFile.close();
            fileNrFile.close();
            closeAll(held);
            server.destroy();
            if (!server.waitFor(WAIT_MS, TimeUnit.MILLISECONDS))
            {
                server.destroyForcibly().waitFor(WAIT_MS, TimeUnit.MILLISECONDS);
            }
            try (var files = Files.walk(dir))
            {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /**
     * What decides the server's next accept, in one line: its last failure (which the log's throttle may hold
     * back), its counters, the system's file table, its own descriptors and limit, and the system's unix sockets.
     */
    private static String state(final Process server, final FileChannel fileMax, final FileChannel fileNr, final Server control)
        throws IOException
    {
        final Path proc = Path.of("/proc", Long.toString(server.pid()));
        final long descriptors;
        try (var fds = Files.list(proc.resolve("fd")))
        {
            descriptors = fds.count();
        }
        final String limit = Files.readAllLines(proc.resolve("limits")).stream().filter(line -> line.startsWith("Max open files"))
            .findFirst().orElse("?").replaceAll("\\s+", " ");
        final long unixSockets = Files.readAllLines(Path.of("/proc/net/unix")).size() - 1;
        // the test JVM's own capabilities: CAP_SYS_ADMIN (bit 21) lets its files past fs.file-max, not its unix sockets
        final String capabilities = Files.readAllLines(Path.of("/proc/self/status")).stream().filter(line -> line.startsWith("CapEff"))
            .findFirst().orElse("?").replaceAll("\\s+", " ");
        return "test JVM " + capabilities + ", last failure [" + control.text("lastfailure") + "], failures " + control.ask("failures") + ", connections "
            + control.ask("connections") + ", fs.file-max " + read(fileMax) + ", fs.file-nr " + read(fileNr) + ", server descriptors "
            + descriptors + " (" + limit + "), unix sockets " + unixSockets;
    }

    /**
     * Returns once no process but {@code server} (and those in {@link #OPENS_NOTHING_AFTER_ITS_START}) has run
     * without CAP_SYS_ADMIN for {@link #QUIET_MS}: lowered,
     * {@code fs.file-max} fails every file such a process opens, and in the suite this runs beside the others
     * (KernelGuestSuite.BESIDE), where UidRangeAgainstKernelCmInGuest starts processes as nobody. Root's are let
     * past it. Fails if they never stop within {@link #WAIT_MS}, rather than break them.
     */
    private static void awaitNoOtherUnprivilegedProcess(final long server) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        long quietSince = System.nanoTime();
        while (System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(QUIET_MS))
        {
            final List<String> unprivileged = unprivilegedProcesses(server);
            if (!unprivileged.isEmpty())
            {
                assertTrue(System.nanoTime() - deadline < 0, () -> "processes without CAP_SYS_ADMIN kept running, which a lowered "
                    + "fs.file-max would fail: " + unprivileged);
                quietSince = System.nanoTime();
            }
            Thread.sleep(LISTING_PERIOD_MS);
        }
    }

    /** The processes but {@code server} whose effective capabilities lack CAP_SYS_ADMIN (bit 21), by PID and name. */
    private static List<String> unprivilegedProcesses(final long server) throws IOException
    {
        final List<String> found = new ArrayList<>();
        try (var processes = Files.list(Path.of("/proc")))
        {
            for (final Path process : processes.filter(dir -> dir.getFileName().toString().chars().allMatch(Character::isDigit)).toList())
            {
                if (process.getFileName().toString().equals(Long.toString(server)))
                {
                    continue;
                }
                final List<String> status;
                try
                {
                    status = Files.readAllLines(process.resolve("status"));
                }
                catch (final IOException gone)
                {
                    continue;
                }
                final String name = status.stream().filter(line -> line.startsWith("Name:")).findFirst().orElse("Name: ?").substring(5).strip();
                if (OPENS_NOTHING_AFTER_ITS_START.contains(name))
                {
                    continue;
                }
                status.stream().filter(line -> line.startsWith("CapEff:")).findFirst()
                    .filter(line -> (Long.parseUnsignedLong(line.substring(7).strip(), 16) & (1L << 21)) == 0)
                    .ifPresent(line -> found.add(process.getFileName() + " " + name));
            }
        }
        return found;
    }

    /** A sysctl's value through the descriptor opened before (procfs answers every read at 0 afresh). */
    private static String read(final FileChannel file) throws IOException
    {
        final ByteBuffer value = ByteBuffer.allocate(128);
        file.read(value, 0);
        return new String(value.array(), 0, value.position(), StandardCharsets.US_ASCII).strip();
    }

    private static void closeAll(final List<FileChannel> files) throws IOException
    {
        for (final FileChannel file : files)
        {
            file.close();
        }
        files.clear();
    }

    /** {@code fs.file-max} through the descriptor opened before, read back through it: a refused write fails here. */
    private static void setFileMax(final FileChannel file, final String value) throws IOException
    {
        file.write(ByteBuffer.wrap((value + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        final ByteBuffer back = ByteBuffer.allocate(64);
        file.read(back, 0);
        assertEquals(value, new String(back.array(), 0, back.position(), StandardCharsets.US_ASCII).strip(),
            "fs.file-max after writing " + value);
    }

    /** The server process's control lines ({@link ClockedServerMain}) and its log. */
    private static final class Server
    {
        final BufferedReader said;
        final PrintStream tell;
        final Path log;

        Server(final Process process, final Path log)
        {
            this.said = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
            this.tell = new PrintStream(process.getOutputStream(), true, StandardCharsets.US_ASCII);
            this.log = log;
        }

        long ask(final String command) throws IOException
        {
            tell.println(command);
            final String answer = said.readLine();
            if (answer == null)
            {
                throw new IOException("the server process ended: " + logText());
            }
            return Long.parseLong(answer);
        }

        String text(final String command) throws IOException
        {
            tell.println(command);
            final String answer = said.readLine();
            if (answer == null)
            {
                throw new IOException("the server process ended: " + logText());
            }
            return answer;
        }

        void advance(final long nanos) throws IOException
        {
            tell.println("advance " + nanos);
            assertEquals("ok", said.readLine());
        }

        /** The accept lines of the log, each from "accept failed" on (without the log's time stamp). */
        List<String> acceptLines()
        {
            return logText().lines().filter(line -> line.contains("accept failed"))
                .map(line -> line.substring(line.indexOf("accept failed"))).toList();
        }

        String logText()
        {
            try
            {
                return Files.readString(log);
            }
            catch (final IOException ex)
            {
                return "(no log: " + ex + ")";
            }
        }

        void await(final Check check, final String what) throws Exception
        {
            await(check, () -> what);
        }

        void await(final Check check, final Description what) throws Exception
        {
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (!check.holds())
            {
                if (System.nanoTime() - deadline >= 0)
                {
                    final String whatNow = what.text();
                    tell.println("threads");
                    final String dumped = said.readLine();
                    throw new AssertionError(whatNow + "; the server's log" + ("ok".equals(dumped) ? ", with its threads" : "")
                        + ":\n" + logText());
                }
                Thread.sleep(1);
            }
        }
    }

    @FunctionalInterface
    private interface Check
    {
        boolean holds() throws IOException;
    }

    @FunctionalInterface
    private interface Description
    {
        String text() throws IOException;
    }
}
