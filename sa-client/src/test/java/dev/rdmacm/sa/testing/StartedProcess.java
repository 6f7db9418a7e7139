package dev.rdmacm.sa.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A peer process this test started, with its output in a log file. It is stopped only through its own
 * PID (SIGTERM, then SIGKILL after a grace period) and always waited for, so no zombie is left.
 */
public final class StartedProcess implements AutoCloseable
{
    private static final long GRACE_MILLIS = 3_000;

    private final String name;
    private final Process process;
    private final Path log;

    private StartedProcess(final String name, final Process process, final Path log)
    {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command} in {@code workDir} with {@code extraEnv}, stdout and stderr going to {@code log}. */
    public static StartedProcess start(
        final String name, final List<String> command, final Path workDir, final Map<String, String> extraEnv, final Path log)
    {
        final ProcessBuilder builder = new ProcessBuilder(command)
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment().putAll(extraEnv);
        try
        {
            return new StartedProcess(name, builder.start(), log);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot start " + name + " (" + String.join(" ", command) + "): " + ex, ex);
        }
    }

    public long pid()
    {
        return process.pid();
    }

    public boolean isAlive()
    {
        return process.isAlive();
    }

    public String name()
    {
        return name;
    }

    /** The whole log so far, for failure messages and readiness checks. */
    public String log()
    {
        try
        {
            return Files.readString(log, StandardCharsets.ISO_8859_1);
        }
        catch (final IOException ex)
        {
            return "(no log: " + ex + ")";
        }
    }

    /** SIGTERM to this PID, SIGKILL after the grace period, and waits for it either way. */
    @Override
    public void close()
    {
        if (!process.isAlive())
        {
            waitQuietly(0);
            return;
        }
        process.destroy();
        if (!waitQuietly(GRACE_MILLIS))
        {
            process.destroyForcibly();
            waitQuietly(GRACE_MILLIS);
        }
    }

    /** SIGKILL to this PID and waits: the peer dies without any chance to say goodbye. */
    public void kill()
    {
        process.destroyForcibly();
        waitQuietly(GRACE_MILLIS);
    }

    private boolean waitQuietly(final long millis)
    {
        try
        {
            return process.waitFor(millis, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String toString()
    {
        return name + "[pid " + process.pid() + (process.isAlive() ? "" : ", exited " + process.exitValue()) + "]";
    }
}
