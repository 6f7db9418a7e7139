package dev.rdmacm.acm;

import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30, defect 3, for ENFILE: the system's file table full, for real, in the userspace-CM guest
 * ({@code UserspaceGuestSuite}), where filling it harms nobody else. The server runs in a process of
 * its own ({@link ClockedServerMain}) without CAP_SYS_ADMIN ({@code setpriv --bounding-set
 * -sys_admin}), as the kernel lets a process with it past {@code fs.file-max}; the test (root, with it)
 * lowers {@code fs.file-max} to the files the system has open, connects a client, and the server's
 * {@code accept} fails with ENFILE. As for EMFILE ({@link AcmAcceptBackoffTest}, on the server's
 * injected clock): no try before the back-off has passed, one log line per interval, and the waiting
 * client served once the table has room again. {@code fs.file-max} is put back whatever happens.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
public class AcmAcceptEnfileInGuest
{
    private static final long WAIT_MS = 60_000;
    private static final Path FILE_MAX = Path.of("/proc/sys/fs/file-max");
    private static final Path FILE_NR = Path.of("/proc/sys/fs/file-nr");
    private static final String ACCEPT_LINE = "accept failed: Too many open files in system";

    @Test
    void shouldBackOffLogOncePerIntervalAndServeAgainWhenTheSystemsFileTableIsFull() throws Exception
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null,
            "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (UserspaceGuestSuite)");
        final Path dir = Files.createTempDirectory("acm-enfile");
        Files.writeString(dir.resolve("addr.cfg"), "192.0.2.2 mlx5_0 1 0xffff fe80::2:c903:0:1 1\n");
        final Path options = dir.resolve("opts.cfg");
        Files.writeString(options, """
            addr_file %1$s/addr.cfg
            run_dir %1$s/run
            client_timeout 3600000
            """.formatted(dir));
        final Path log = dir.resolve("server.log");
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final String fileMax = Files.readString(FILE_MAX).strip();
        final Process server = new ProcessBuilder("setpriv", "--bounding-set", "-sys_admin", java, "-XX:+UseSerialGC",
            "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-cp", System.getProperty("java.class.path"), ClockedServerMain.class.getName(), options.toString())
            .redirectError(log.toFile()).start();
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

                setFileMax(Files.readString(FILE_NR).strip().split("\\s+")[0]);
                final SocketChannel waiting;
                try
                {
                    waiting = SocketChannel.open(StandardProtocolFamily.UNIX);
                    waiting.connect(UnixDomainSocketAddress.of(socket));
                    control.await(() -> control.ask("failures") > 0, "accept failing with the table full");
                    final long backOffs = AcmServer.ACCEPT_LOG_INTERVAL_NS / AcmServer.ACCEPT_BACKOFF_NS;
                    assertEquals(1, control.ask("failures"), "the first failure rests the listeners");
                    assertTrue(served.nothingBeforeMarker(WAIT_MS), "the loop serves while the listeners rest");
                    control.advance(AcmServer.ACCEPT_BACKOFF_NS - 1);
                    assertTrue(served.nothingBeforeMarker(WAIT_MS));
                    assertEquals(1, control.ask("failures"), "no try 1 ns before the back-off ends");
                    control.advance(1);
                    control.await(() -> control.ask("failures") == 2, "one try once the back-off has passed");
                    for (long tries = 3; tries <= backOffs; tries++)
                    {
                        control.advance(AcmServer.ACCEPT_BACKOFF_NS);
                        final long expected = tries;
                        control.await(() -> control.ask("failures") == expected, "try " + tries);
                    }
                    assertTrue(served.nothingBeforeMarker(WAIT_MS));
                    assertEquals(List.of(ACCEPT_LINE), control.acceptLines(), () -> backOffs + " failures in one interval: "
                        + control.logText());
                }
                finally
                {
                    setFileMax(fileMax);
                }
                final long accepted = control.ask("connections");
                final String table = "fs.file-max " + Files.readString(FILE_MAX).strip() + ", fs.file-nr " + Files.readString(FILE_NR).strip();
                long tries = 0;
                while (control.ask("connections") == accepted)
                {
                    assertTrue(tries < 20, () -> "the waiting client not accepted in 20 back-offs with " + table + ": "
                        + control.logText());
                    final long failures = control.ask("failures");
                    control.advance(AcmServer.ACCEPT_BACKOFF_NS);
                    control.await(() -> control.ask("connections") > accepted || control.ask("failures") > failures,
                        "an accept tried once the back-off has passed");
                    tries++;
                }
                System.out.println("AcmAcceptEnfileInGuest: accepted after " + tries + " back-off(s) once " + table);
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
                System.out.println("AcmAcceptEnfileInGuest: " + control.ask("failures") + " ENFILE accepts, log: "
                    + control.acceptLines());
            }
        }
        finally
        {
            setFileMax(fileMax);
            server.destroy();
            if (!server.waitFor(WAIT_MS, TimeUnit.MILLISECONDS))
            {
                server.destroyForcibly();
            }
        }
    }

    /** {@code fs.file-max}, read back: a write the kernel refuses fails here. */
    private static void setFileMax(final String value) throws IOException
    {
        Files.writeString(FILE_MAX, value + "\n");
        assertEquals(value, Files.readString(FILE_MAX).strip(), "fs.file-max after writing " + value);
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

        void advance(final long nanos) throws IOException
        {
            tell.println("advance " + nanos);
            assertEquals("ok", said.readLine());
        }

        List<String> acceptLines()
        {
            return logText().lines().filter(line -> line.contains("accept failed")).map(line ->
                line.substring(line.indexOf("accept failed"), line.indexOf(',', line.indexOf("accept failed")) < 0
                    ? line.length() : line.indexOf(',', line.indexOf("accept failed")))).toList();
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
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
            while (!check.holds())
            {
                assertTrue(System.nanoTime() < deadline, () -> what + "; the server's log:\n" + logText());
                Thread.sleep(1);
            }
        }
    }

    @FunctionalInterface
    private interface Check
    {
        boolean holds() throws IOException;
    }
}
