package dev.rdmacm.cli;

import dev.rdmacm.testing.guest.GuestJavaOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code rdmacm acm-server} as its own process, started as a user starts it, in loop mode with a
 * run directory of its own; ready once its port file exists, stopped with SIGTERM (which must remove
 * its files). Its output goes to {@code server.log} in the test's directory.
 */
final class AcmServerProcess implements AutoCloseable
{
    private final Process process;
    private final Path dir;
    private final Path runDir;

    private AcmServerProcess(final Process process, final Path dir, final Path runDir)
    {
        this.process = process;
        this.dir = dir;
        this.runDir = runDir;
    }

    /** Starts it with {@code -O dir/opts.cfg --run-dir dir/run} and {@code arguments}; the options file is written here. */
    static AcmServerProcess start(final Path dir, final String options, final String... arguments) throws Exception
    {
        return start(dir, dir.resolve("run"), options, arguments);
    }

    /** The same with the socket and port files in {@code runDir} ({@code /run}, where librdmacm looks, in a guest). */
    static AcmServerProcess start(final Path dir, final Path runDir, final String options, final String... arguments)
        throws Exception
    {
        Files.writeString(dir.resolve("opts.cfg"), "server_mode loop\nserver_port 0\nlog_file stdout\n" + options);
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        // in a guest, the test JVM's own options and AOT cache: without them the server's JVM starts seconds later under TCG
        command.addAll(GuestJavaOptions.ofThisGuest()
            .orElse(List.of("--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED")));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "acm-server",
            "-O", dir.resolve("opts.cfg").toString(), "--run-dir", runDir.toString()));
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(dir.resolve("server.log").toFile()).start();
        final AcmServerProcess server = new AcmServerProcess(process, dir, runDir);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!Files.exists(runDir.resolve("ibacm.port"), LinkOption.NOFOLLOW_LINKS))
        {
            if (!process.isAlive() || System.nanoTime() > deadline)
            {
                server.close();
                throw new AssertionError("acm-server did not start: " + server.log());
            }
            Thread.sleep(50);
        }
        return server;
    }

    /** The server JVM's process id: its descriptors and threads are under {@code /proc/PID}. */
    long pid()
    {
        return process.pid();
    }

    Path socket()
    {
        return runDir.resolve("ibacm-unix.sock");
    }

    int tcpPort() throws IOException
    {
        return Integer.parseInt(Files.readString(runDir.resolve("ibacm-tcp.port")).trim());
    }

    String log() throws IOException
    {
        return Files.readString(dir.resolve("server.log"));
    }

    @Override
    public void close() throws InterruptedException
    {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
            throw new AssertionError("acm-server did not stop on SIGTERM");
        }
    }
}
