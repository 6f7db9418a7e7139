package dev.rdmacm.cli.demo;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A peer the demo started (ibsim, OpenSM): output to a log file, stopped by its own PID only,
 * SIGTERM first and SIGKILL if it does not exit within two seconds, and always waited for.
 */
final class DemoProcess implements AutoCloseable
{
    private final String name;
    private final Process process;
    private final Path log;

    private DemoProcess(final String name, final Process process, final Path log)
    {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts {@code command}; a {@code kept} process is started through {@code setsid}, which execs it in
     * a session of its own (same PID, no terminal, stdin /dev/null), so that it outlives this JVM and
     * its terminal, and the signals sent to the process group of the command that started it.
     */
    static DemoProcess start(final String name, final List<String> command, final Path dir,
        final Map<String, String> environment, final Path log, final boolean kept) throws IOException
    {
        final List<String> words = new ArrayList<>();
        if (kept)
        {
            words.add("setsid");
        }
        words.addAll(command);
        final ProcessBuilder builder = new ProcessBuilder(words).directory(dir.toFile())
            .redirectErrorStream(true).redirectOutput(log.toFile());
        if (kept)
        {
            builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        }
        builder.environment().putAll(environment);
        return new DemoProcess(name, builder.start(), log);
    }

    long pid()
    {
        return process.pid();
    }

    /** When the kernel started it, in ms since the epoch: with the PID, what tells it from a later process given the same PID. */
    long startMillis()
    {
        return process.info().startInstant().map(Instant::toEpochMilli).orElse(0L);
    }

    boolean isAlive()
    {
        return process.isAlive();
    }

    String log()
    {
        try
        {
            return Files.readString(log, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return "(no log: " + ex.getMessage() + ")";
        }
    }

    @Override
    public void close()
    {
        process.destroy();
        try
        {
            if (!process.waitFor(2, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString()
    {
        return name + " (pid " + process.pid() + ")";
    }
}
