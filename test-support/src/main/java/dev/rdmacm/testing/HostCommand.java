package dev.rdmacm.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A command run on the host to completion within a time limit: gcc, apt-get, dpkg-deb, depmod. A
 * command that outlives its limit is killed through its own PID and the test fails naming it.
 */
public final class HostCommand
{
    private HostCommand()
    {
    }

    /** What a finished command left: its exit status and its standard output and error merged. */
    public record Outcome(List<String> command, int exitStatus, String output)
    {
        public boolean succeeded()
        {
            return exitStatus == 0;
        }

        /** This outcome, or an AssertionError naming the command, its status and its output. */
        public Outcome orFail(final String what)
        {
            if (!succeeded())
            {
                throw new AssertionError(what + " failed: `" + String.join(" ", command) + "` exited " + exitStatus + ":\n" + output);
            }
            return this;
        }
    }

    /** Runs {@code command} in {@code workDir} (null: the current directory), bounded by {@code limit}. */
    public static Outcome run(final Duration limit, final Path workDir, final List<String> command)
    {
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        if (workDir != null)
        {
            builder.directory(workDir.toFile());
        }
        final Process process;
        try
        {
            process = builder.start();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot start `" + String.join(" ", command) + "`: " + ex.getMessage(), ex);
        }
        // The output is drained on another thread so that a chatty command cannot block on a full pipe
        // while this one waits for it to end: a thread of its own, not the common pool, whose one worker
        // on a 2-core machine would keep the drain of a command waiting behind another command's.
        final CompletableFuture<String> output = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("drain " + command.get(0) + " " + process.pid())
            .start(() -> output.complete(drain(process.getInputStream())));
        try
        {
            if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS))
            {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
                throw new AssertionError("`" + String.join(" ", command) + "` did not finish within " + limit.toSeconds()
                    + " s and was killed (pid " + process.pid() + ")");
            }
            return new Outcome(List.copyOf(command), process.exitValue(), output.get(5, TimeUnit.SECONDS));
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command.get(0), ex);
        }
        catch (final Exception ex)
        {
            process.destroyForcibly();
            throw new AssertionError("cannot read the output of `" + String.join(" ", command) + "`: " + ex, ex);
        }
    }

    public static Outcome run(final Duration limit, final String... command)
    {
        return run(limit, null, List.of(command));
    }

    private static String drain(final InputStream in)
    {
        try (in)
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            return "(output unreadable: " + ex.getMessage() + ")";
        }
    }
}
