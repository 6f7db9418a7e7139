package dev.rdmacm.acm;

import dev.rdmacm.protocol.acm.AcmHeader;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, defect 3: when {@code accept} fails with EMFILE the server rests its listeners and logs
 * once per interval instead of spinning (2 million log lines in 5 s before). The EMFILE is real: the
 * server runs in a process of its own ({@link ClockedServerMain}) started through util-linux's
 * {@code prlimit --nofile}, and the test connects clients until the server's next {@code accept} has
 * no descriptor left. Time is the server's injected clock, moved by the test; "does not spin" is
 * counted in requests served while the accept rests, never in a wall-clock window.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AcmAcceptBackoffTest
{
    /** The server process's RLIMIT_NOFILE: above what the JVM opens to start, below the test's own. */
    private static final int NOFILE = 256;
    private static final int MAX_CLIENTS = 2 * NOFILE;
    private static final long WAIT_MS = 60_000;
    private static final String ACCEPT_LINE = "accept failed: Too many open files";

    @TempDir
    Path dir;

    private Process server;
    private BufferedReader said;
    private PrintStream tell;
    private Path log;
    private RawAcmClient served;
    private final List<SocketChannel> clients = new ArrayList<>();

    @BeforeEach
    void startServerAndUseUpItsDescriptors() throws Exception
    {
        Peers.requireCommand("prlimit", "util-linux");
        Files.writeString(dir.resolve("addr.cfg"), "192.0.2.2 mlx5_0 1 0xffff fe80::2:c903:0:1 1\n");
        final Path options = dir.resolve("opts.cfg");
        // clients that send nothing hold their descriptors for the whole test: client_timeout at its bound
        Files.writeString(options, """
            addr_file %1$s/addr.cfg
            run_dir %1$s/run
            client_timeout 3600000
            max_clients %2$d
            """.formatted(dir, MAX_CLIENTS));
        log = dir.resolve("server.log");
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // prlimit execs the JVM: the process's PID is the server's, which teardown stops
        server = new ProcessBuilder("prlimit", "--nofile=" + NOFILE + ":" + NOFILE, java,
            "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), ClockedServerMain.class.getName(), options.toString())
            .redirectError(log.toFile()).start();
        said = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.US_ASCII));
        tell = new PrintStream(server.getOutputStream(), true, StandardCharsets.US_ASCII);
        assertEquals("ready", said.readLine(), () -> "server did not start: " + logText());
        final Path socket = dir.resolve("run").resolve(AcmServerFiles.UNIX_SOCKET);
        served = new RawAcmClient(socket);
        assertTrue(served.nothingBeforeMarker(WAIT_MS), "served before the descriptors run out");
        // a client that comes and goes, so that the classes of a disconnection are loaded while the server
        // can still open their files
        try (SocketChannel once = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            once.connect(UnixDomainSocketAddress.of(socket));
            awaitTrue(() -> ask("connections") == 2, "a passing client accepted");
        }
        awaitTrue(() -> ask("connections") == 1, "and its leaving seen");
        while (ask("failures") == 0)
        {
            assertTrue(clients.size() < MAX_CLIENTS, () -> "no EMFILE after " + clients.size() + " clients: " + logText());
            final SocketChannel client = SocketChannel.open(StandardProtocolFamily.UNIX);
            client.connect(UnixDomainSocketAddress.of(socket));
            clients.add(client);
            final int expected = clients.size() + 1;
            awaitTrue(() -> ask("connections") == expected || ask("failures") > 0, "client " + clients.size()
                + " accepted or refused");
        }
        // Linux's accept takes the descriptor before it looks for a connection, so the failure above may
        // have come with none waiting: this one waits in the backlog, and every later try fails on it
        final SocketChannel waiting = SocketChannel.open(StandardProtocolFamily.UNIX);
        waiting.connect(UnixDomainSocketAddress.of(socket));
        clients.add(waiting);
    }

    @AfterEach
    void stopServer() throws Exception
    {
        for (final SocketChannel client : clients)
        {
            client.close();
        }
        if (served != null)
        {
            served.close();
        }
        if (server != null)
        {
            server.destroy();
            if (!server.waitFor(WAIT_MS, TimeUnit.MILLISECONDS))
            {
                server.destroyForcibly();
            }
        }
    }

    @Test
    void shouldNotRetryAcceptBeforeItsBackOffHasPassedOnTheServersClock() throws Exception
    {
        assertEquals(1, ask("failures"), "the first failure rests the listeners");
        tell.println("lastfailure");
        final String last = said.readLine();
        assertTrue(last.contains(ACCEPT_LINE.substring("accept failed: ".length())), "the failure's text, logged or not: " + last);
        for (int turn = 0; turn < 100; turn++)
        {
            assertTrue(served.nothingBeforeMarker(WAIT_MS));
        }
        assertEquals(1, ask("failures"), "100 requests served by the loop, no accept tried: no spin");
        advance(AcmServer.ACCEPT_BACKOFF_NS - 1);
        assertTrue(served.nothingBeforeMarker(WAIT_MS));
        assertEquals(1, ask("failures"), "1 ns before the back-off ends");
        advance(1);
        awaitTrue(() -> ask("failures") == 2, "one try once the back-off has passed");
        for (int turn = 0; turn < 100; turn++)
        {
            assertTrue(served.nothingBeforeMarker(WAIT_MS));
        }
        assertEquals(2, ask("failures"), "and one only");
    }

    @Test
    void shouldLogOneLinePerIntervalWhileAcceptKeepsFailing() throws Exception
    {
        final long backOffs = AcmServer.ACCEPT_LOG_INTERVAL_NS / AcmServer.ACCEPT_BACKOFF_NS;
        for (long tries = 2; tries <= backOffs; tries++)
        {
            advance(AcmServer.ACCEPT_BACKOFF_NS);
            final long expected = tries;
            awaitTrue(() -> ask("failures") == expected, "try " + tries);
        }
        assertTrue(served.nothingBeforeMarker(WAIT_MS), "the loop is past its last try");
        assertEquals(1, acceptLines(), () -> backOffs + " failures within one interval, one line: " + logText());
        advance(AcmServer.ACCEPT_BACKOFF_NS);
        awaitTrue(() -> ask("failures") == backOffs + 1, "the try one interval after the first");
        assertTrue(served.nothingBeforeMarker(WAIT_MS));
        final List<String> lines = logText().lines().filter(line -> line.contains(ACCEPT_LINE)).toList();
        assertEquals(2, lines.size(), this::logText);
        assertTrue(lines.getLast().endsWith("(" + (backOffs - 1) + " more since the last)"), lines.getLast());
    }

    @Test
    void shouldAcceptTheWaitingClientOnceDescriptorsAreFree() throws Exception
    {
        final SocketChannel waiting = clients.removeLast();
        final long accepted = ask("connections");
        for (int i = 0; i < 4; i++)
        {
            clients.removeFirst().close();
        }
        awaitTrue(() -> ask("connections") == accepted - 4, "the server closed its side of the four that left");
        assertEquals(1, ask("failures"), "the listeners still rest");
        advance(AcmServer.ACCEPT_BACKOFF_NS);
        awaitTrue(() -> ask("connections") > accepted - 4, "the waiting client is accepted");
        try (waiting)
        {
            waiting.write(ByteBuffer.wrap(AcmRequests.perfQuery()));
            final ByteBuffer reply = ByteBuffer.allocate(AcmHeader.LENGTH);
            while (reply.hasRemaining() && waiting.read(reply) >= 0)
            {
                Thread.onSpinWait();
            }
            assertEquals(0, reply.remaining(), "and served");
        }
        assertEquals(1, ask("failures"));
    }

    private long ask(final String command) throws IOException
    {
        tell.println(command);
        final String answer = said.readLine();
        if (answer == null)
        {
            throw new IOException("the server process ended: " + logText());
        }
        return Long.parseLong(answer);
    }

    private void advance(final long nanos) throws IOException
    {
        tell.println("advance " + nanos);
        assertEquals("ok", said.readLine());
    }

    private long acceptLines()
    {
        return logText().lines().filter(line -> line.contains(ACCEPT_LINE)).count();
    }

    private String logText()
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

    @FunctionalInterface
    private interface Check
    {
        boolean holds() throws IOException;
    }

    private static void awaitTrue(final Check check, final String what) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!check.holds())
        {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(1);
        }
    }
}
