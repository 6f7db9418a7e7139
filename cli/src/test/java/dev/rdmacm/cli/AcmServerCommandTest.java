package dev.rdmacm.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code rdmacm acm-server} as a process: it publishes its files and removes them on SIGTERM. */
class AcmServerCommandTest
{
    @Test
    void shouldPublishSocketAndPortFilesAndRemoveThemOnSigterm() throws Exception
    {
        final Path dir = Files.createTempDirectory("rdmacm-acm-cli");
        final Path run = dir.resolve("run");
        Process process = null;
        try
        {
            Files.writeString(dir.resolve("addr.cfg"), "127.0.0.1 mlx5_0 1 0xffff fe80::1 1\n");
            Files.writeString(dir.resolve("opts.cfg"), "server_mode loop\nserver_port 0\nlog_file stdout\n");
            final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "acm-server",
                "-O", dir.resolve("opts.cfg").toString(), "-A", dir.resolve("addr.cfg").toString(),
                "--run-dir", run.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile()).start();
            final Path portFile = run.resolve("ibacm-tcp.port");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.exists(run.resolve("ibacm.port"), LinkOption.NOFOLLOW_LINKS) && System.nanoTime() < deadline)
            {
                assertTrue(process.isAlive(), () -> "acm-server exited early");
                Thread.sleep(50);
            }
            assertTrue(Files.exists(run.resolve("ibacm-unix.sock")));
            assertEquals(Path.of("ibacm-unix.sock"), Files.readSymbolicLink(run.resolve("ibacm.sock")));
            assertEquals(Path.of("ibacm-tcp.port"), Files.readSymbolicLink(run.resolve("ibacm.port")));
            final int port = Integer.parseInt(Files.readString(portFile, StandardCharsets.US_ASCII).trim());
            assertTrue(port > 0 && port < 65536, "port file holds the bound port: " + port);

            process.destroy();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "acm-server stops on SIGTERM");
            final String output = Files.readString(dir.resolve("out.log"));
            assertTrue(output.contains("stopped after 0 request(s)"), output);
            for (final String name : List.of("ibacm-unix.sock", "ibacm.sock", "ibacm-tcp.port", "ibacm.port"))
            {
                assertFalse(Files.exists(run.resolve(name), LinkOption.NOFOLLOW_LINKS), name + " removed");
            }
        }
        finally
        {
            if (process != null && process.isAlive())
            {
                process.destroyForcibly();
            }
            deleteTree(dir);
        }
    }

    @Test
    void shouldRejectBadOptionsFileWithOneLineNamingTheLine() throws IOException
    {
        final Path dir = Files.createTempDirectory("rdmacm-acm-cli");
        try
        {
            Files.writeString(dir.resolve("opts.cfg"), "timeout soon\n");
            final java.io.StringWriter err = new java.io.StringWriter();
            final picocli.CommandLine commandLine = Main.commandLine();
            commandLine.setErr(new java.io.PrintWriter(err));
            final int exit = commandLine.execute("acm-server", "-O", dir.resolve("opts.cfg").toString(), "--run-dir",
                dir.resolve("run").toString());
            assertEquals(Main.EXIT_USAGE, exit);
            assertEquals("rdmacm acm-server: " + dir.resolve("opts.cfg") + ":1: option timeout 'soon' is not an integer",
                err.toString().trim());
        }
        finally
        {
            deleteTree(dir);
        }
    }

    /** Runs the command in this JVM; its stderr, which must be one line. */
    private static String runRejected(final String... arguments)
    {
        final java.io.StringWriter err = new java.io.StringWriter();
        final picocli.CommandLine commandLine = Main.commandLine();
        commandLine.setErr(new java.io.PrintWriter(err));
        final int exit = commandLine.execute(arguments);
        assertEquals(Main.EXIT_USAGE, exit, err.toString());
        assertEquals(1, err.toString().lines().count(), "one line, no stack trace: " + err);
        return err.toString().trim();
    }

    @org.junit.jupiter.api.Timeout(60)
    @Test
    void shouldRejectAnUnknownServerModeInOneLine() throws IOException
    {
        final Path dir = Files.createTempDirectory("rdmacm-acm-cli");
        try
        {
            assertEquals("rdmacm acm-server: --server-mode: server_mode must be unix, loop or open, got 'bogus'",
                runRejected("acm-server", "-O", dir.resolve("none.cfg").toString(), "--run-dir", dir.resolve("run").toString(),
                    "--server-mode", "bogus"));
        }
        finally
        {
            deleteTree(dir);
        }
    }

    @org.junit.jupiter.api.Timeout(60)
    @Test
    void shouldRejectDevZeroAsOptionsOrHostsFileInOneLine() throws IOException
    {
        final Path dir = Files.createTempDirectory("rdmacm-acm-cli");
        try
        {
            Files.writeString(dir.resolve("addr.cfg"), "127.0.0.1 mlx5_0 1 0xffff fe80::1 1\n");
            assertEquals("rdmacm acm-server: /dev/zero:1: line is longer than 4096 bytes",
                runRejected("acm-server", "-O", "/dev/zero", "--run-dir", dir.resolve("run").toString()));
            assertEquals("rdmacm acm-server: /dev/zero:1: line is longer than 4096 bytes",
                runRejected("acm-server", "-O", dir.resolve("none.cfg").toString(), "-A", dir.resolve("addr.cfg").toString(),
                    "--run-dir", dir.resolve("run").toString(), "--hosts", "/dev/zero"));
            assertFalse(Files.exists(dir.resolve("run").resolve("ibacm-unix.sock")), "nothing left behind");
        }
        finally
        {
            deleteTree(dir);
        }
    }

    @Test
    void shouldRejectUnknownFabricNamingTheForms() throws IOException
    {
        final Path dir = Files.createTempDirectory("rdmacm-acm-cli");
        try
        {
            final java.io.StringWriter err = new java.io.StringWriter();
            final picocli.CommandLine commandLine = Main.commandLine();
            commandLine.setErr(new java.io.PrintWriter(err));
            final int exit = commandLine.execute("acm-server", "-O", dir.resolve("none.cfg").toString(), "--run-dir",
                dir.resolve("run").toString(), "--fabric", "infiniband0");
            assertEquals(Main.EXIT_USAGE, exit);
            assertTrue(err.toString().startsWith("rdmacm acm-server: fabric"), err.toString());
            assertTrue(err.toString().contains("ibsim:HOST:PORT:NODE"), err.toString());
            assertFalse(Files.exists(dir.resolve("run").resolve("ibacm-unix.sock")), "nothing was bound");
        }
        finally
        {
            deleteTree(dir);
        }
    }

    private static void deleteTree(final Path dir) throws IOException
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
