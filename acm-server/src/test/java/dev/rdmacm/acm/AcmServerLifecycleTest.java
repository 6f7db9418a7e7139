package dev.rdmacm.acm;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 30's lifecycle defects: one instance per run directory (the lock ibacm takes, held against
 * a real lockf holder and against the real ibacm), no live socket taken over, only our own files
 * removed, and an {@link Error} on the server thread ending the process instead of leaving it deaf.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AcmServerLifecycleTest
{
    private static final long WAIT_S = 30;

    @TempDir
    Path dir;

    private Path options(final String extra) throws IOException
    {
        Files.writeString(dir.resolve("addr.cfg"), "192.0.2.2 mlx5_0 1 0xffff fe80::2:c903:0:1 1\n");
        final Path file = dir.resolve("opts.cfg");
        Files.writeString(file, """
            addr_file %1$s/addr.cfg
            run_dir %1$s/run
            """.formatted(dir) + extra);
        return file;
    }

    private AcmServer start(final Path optionsFile) throws IOException
    {
        final AcmOptions options = AcmOptions.read(optionsFile);
        return AcmServer.start(options, AcmEndpointFile.read(options.addrFile()), AcmGidLookup.NONE, AcmPathQuerier.NONE,
            new AcmLog(System.out, 0), System::nanoTime, error -> { });
    }

    private static boolean answers(final Path socket) throws IOException
    {
        try (RawAcmClient client = new RawAcmClient(socket))
        {
            return client.nothingBeforeMarker(WAIT_S * 1000);
        }
    }

    @Test
    void shouldRefuseToStartWhileAnotherProcessHoldsThePidFileAndNameIt() throws Exception
    {
        Peers.requireCommand("python3", "python3");
        final Path optionsFile = options("");
        final Path pidFile = Files.createDirectories(dir.resolve("run")).resolve("ibacm.pid");
        // fcntl.lockf is lockf(3)'s lock (fcntl F_SETLK): the one ibacm takes on its lock_file
        final Process holder = new ProcessBuilder("python3", "-c", """
            import fcntl, os, sys
            fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o640)
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.write(fd, b"%d\\n" % os.getpid())
            print("locked", flush=True)
            sys.stdin.read()
            """, pidFile.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("locked", out.readLine());
            final AcmAlreadyRunningException ex = assertThrows(AcmAlreadyRunningException.class, () -> start(optionsFile));
            assertEquals(holder.pid(), ex.holderPid());
            assertTrue(ex.getMessage().startsWith(pidFile + " is locked by pid " + holder.pid()), ex.getMessage());
            assertFalse(Files.exists(dir.resolve("run").resolve(AcmServerFiles.UNIX_SOCKET), LinkOption.NOFOLLOW_LINKS),
                "nothing was bound or published");
        }
        finally
        {
            holder.getOutputStream().close();
            holder.waitFor(WAIT_S, TimeUnit.SECONDS);
            holder.destroyForcibly();
        }
        try (AcmServer server = start(optionsFile))
        {
            assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(pidFile), "once the holder is gone");
        }
    }

    @Test
    void shouldKeepTheRealIbacmFromStartingWhileItHoldsThePidFile() throws Exception
    {
        Peers.requireCommand("ibacm", "ibacm");
        final Path optionsFile = options("");
        final Path ibacmOptions = dir.resolve("ibacm_opts.cfg");
        final Path ibacmLog = dir.resolve("ibacm.log");
        Files.writeString(ibacmOptions, "lock_file %s/run/ibacm.pid\nlog_file %s\n".formatted(dir, ibacmLog));
        try (AcmServer server = start(optionsFile))
        {
            final Process ibacm = new ProcessBuilder("ibacm", "-P", "-O", ibacmOptions.toString(), "-A",
                dir.resolve("none.cfg").toString()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("ibacm.out").toFile()).start();
            assertTrue(ibacm.waitFor(WAIT_S, TimeUnit.SECONDS));
            assertEquals(255, ibacm.exitValue());
            assertFalse(Files.exists(ibacmLog), "ibacm stopped at its lock, before it opened its log");
            assertTrue(answers(server.files().unixSocket()));
        }
        // the control: with the lock free, ibacm gets past it and logs (then stops for want of devices)
        final Process ibacm = new ProcessBuilder("ibacm", "-P", "-O", ibacmOptions.toString(), "-A",
            dir.resolve("none.cfg").toString()).redirectErrorStream(true)
            .redirectOutput(dir.resolve("ibacm.out").toFile()).start();
        assertTrue(ibacm.waitFor(WAIT_S, TimeUnit.SECONDS));
        assertTrue(Files.readString(ibacmLog).contains("Assistant to the InfiniBand Communication Manager"),
            Files.readString(ibacmLog));
    }

    @Test
    void shouldNeitherTakeOverALiveSocketNorStartTwiceInOneProcess() throws Exception
    {
        final Path optionsFile = options("");
        try (AcmServer first = start(optionsFile))
        {
            final AcmAlreadyRunningException same = assertThrows(AcmAlreadyRunningException.class, () -> start(optionsFile));
            assertEquals(ProcessHandle.current().pid(), same.holderPid());
            // another lock file, the same run directory: the live socket refuses the start
            final Path other = dir.resolve("other.cfg");
            Files.writeString(other, Files.readString(optionsFile) + "lock_file " + dir.resolve("other.pid") + "\n");
            final IOException live = assertThrows(IOException.class, () -> start(other));
            assertTrue(live.getMessage().contains("is a live socket: another ACM service answers on it"), live.getMessage());
            assertTrue(answers(first.files().unixSocket()), "the first server still serves");
        }
    }

    @Test
    void shouldRemoveOnlyTheFilesItCreated() throws Exception
    {
        final Path optionsFile = options("");
        final Path socket;
        try (AcmServer server = start(optionsFile))
        {
            socket = server.files().unixSocket();
            Files.delete(socket);
            Files.writeString(socket, "someone else's file");
        }
        assertEquals("someone else's file", Files.readString(socket));
        assertFalse(Files.exists(dir.resolve("run").resolve(AcmServerFiles.UNIX_SOCKET_LINK), LinkOption.NOFOLLOW_LINKS),
            "the link it made is removed");
    }

    @Test
    void shouldEndTheProcessWithStatus70AndOneLineOnAnErrorInTheServerThread() throws Exception
    {
        final Path optionsFile = options("");
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Path output = dir.resolve("server.out");
        final Process process = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            FatalErrorServerMain.class.getName(), optionsFile.toString())
            .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try
        {
            final Path socket = dir.resolve("run").resolve(AcmServerFiles.UNIX_SOCKET_LINK);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
            while (!Files.exists(socket, LinkOption.NOFOLLOW_LINKS) && process.isAlive() && System.nanoTime() < deadline)
            {
                Thread.sleep(20);
            }
            try (RawAcmClient client = new RawAcmClient(dir.resolve("run").resolve(AcmServerFiles.UNIX_SOCKET)))
            {
                client.send(AcmRequests.resolveGid(Gid.parse("fe80::2:c903:0:1"), Gid.parse("fe80::a"), 0));
                assertTrue(process.waitFor(WAIT_S, TimeUnit.SECONDS), "the process ends");
            }
            assertEquals(AcmServer.EXIT_FATAL, process.exitValue());
            final List<String> fatal = Files.readAllLines(output).stream().filter(line -> line.contains("fatal")).toList();
            assertEquals(1, fatal.size(), Files.readString(output));
            assertTrue(fatal.getFirst().contains("fatal: java.lang.OutOfMemoryError: Java heap space"), fatal.getFirst());
            assertFalse(Files.readString(output).contains("\tat "), "no stack trace");
            for (final String name : List.of(AcmServerFiles.UNIX_SOCKET, AcmServerFiles.UNIX_SOCKET_LINK))
            {
                assertFalse(Files.exists(dir.resolve("run").resolve(name), LinkOption.NOFOLLOW_LINKS), name + " removed");
            }
            assertNextServerStarts(optionsFile);
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    @Test
    void shouldHaltAProcessWhoseCloseHangsAfterSigtermWithStatusOneAndOneLine() throws Exception
    {
        final Path optionsFile = options("");
        final Path errors = dir.resolve("server.err");
        final Process process = new ProcessBuilder(java(), "--enable-native-access=ALL-UNNAMED",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            HangingCloseServerMain.class.getName(), optionsFile.toString(), "1000")
            .redirectError(errors.toFile()).start();
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            for (String line = out.readLine(); !"ready".equals(line); line = out.readLine())
            {
                assertTrue(line != null, () -> "the server did not start: " + readQuietly(errors));
            }
            assertTrue(answers(dir.resolve("run").resolve(AcmServerFiles.UNIX_SOCKET)), "serving before the signal");
            process.destroy(); // SIGTERM
            assertTrue(process.waitFor(WAIT_S, TimeUnit.SECONDS), "SIGTERM ends the process although its close hangs");
            assertEquals(AcmShutdownWatchdog.EXIT_HUNG, process.exitValue());
            assertEquals(List.of("hanging-close server: not closed within 1000 ms of the signal; halting"),
                Files.readAllLines(errors));
            for (final String name : List.of(AcmServerFiles.UNIX_SOCKET, AcmServerFiles.UNIX_SOCKET_LINK))
            {
                assertFalse(Files.exists(dir.resolve("run").resolve(name), LinkOption.NOFOLLOW_LINKS),
                    name + " removed before the close hung");
            }
            assertNextServerStarts(optionsFile);
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    @Test
    void shouldEndTheProcessWithStatus70AndOneLineOnAnErrorInAnotherThread() throws Exception
    {
        final Path optionsFile = options("");
        final Path errors = dir.resolve("server.err");
        final Process process = new ProcessBuilder(java(), "--enable-native-access=ALL-UNNAMED",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            ErrorElsewhereServerMain.class.getName(), optionsFile.toString())
            .redirectError(errors.toFile()).start();
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            for (String line = out.readLine(); !"ready".equals(line); line = out.readLine())
            {
                assertTrue(line != null, () -> "the server did not start: " + readQuietly(errors));
            }
            assertTrue(answers(dir.resolve("run").resolve(AcmServerFiles.UNIX_SOCKET)), "serving before the Error");
            process.getOutputStream().write('\n');
            process.getOutputStream().flush();
            assertTrue(process.waitFor(WAIT_S, TimeUnit.SECONDS), "the process ends");
            assertEquals(AcmServer.EXIT_FATAL, process.exitValue());
            assertEquals(List.of("error-elsewhere server: fatal: java.lang.OutOfMemoryError: Java heap space (thrown by the test)"
                + " on thread sa-client"), Files.readAllLines(errors), "one line, no stack trace");
            for (final String name : List.of(AcmServerFiles.UNIX_SOCKET, AcmServerFiles.UNIX_SOCKET_LINK))
            {
                assertFalse(Files.exists(dir.resolve("run").resolve(name), LinkOption.NOFOLLOW_LINKS), name + " removed");
            }
            assertNextServerStarts(optionsFile);
        }
        finally
        {
            process.destroyForcibly();
        }
    }

    /** The lock on ibacm.pid went with the process and no socket of it is in the way: the next server starts. */
    private void assertNextServerStarts(final Path optionsFile) throws Exception
    {
        try (AcmServer next = start(optionsFile))
        {
            assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(dir.resolve("run").resolve("ibacm.pid")));
            assertTrue(answers(next.files().unixSocket()));
        }
    }

    private static String java()
    {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String readQuietly(final Path file)
    {
        try
        {
            return Files.readString(file);
        }
        catch (final IOException ex)
        {
            return "(nothing: " + ex + ")";
        }
    }
}
