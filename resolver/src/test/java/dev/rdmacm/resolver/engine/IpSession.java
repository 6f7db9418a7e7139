package dev.rdmacm.resolver.engine;

import dev.rdmacm.testing.HostCommand;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One {@code ip -n NS -j -force -batch -} process, on {@link AskingCpu#CPU}, that answers the kernel's side
 * of the differential queries one line at a time. A process per query cost two execs, the namespace switch
 * and, on a busy host, a wait for that CPU each time: 822 of the 1,156 processes one run of
 * {@link RouteDifferentialNamespaceTest} started were such reads. The answers are the ones a
 * process of their own gives: the same iproute2 code on the same netlink requests, asked at the same
 * moment of the comparison. ip keeps one thing across the lines of a batch, its map of link names and
 * indexes, so {@link GeneratedNetwork} ends its session whenever it changes the configuration.
 */
final class IpSession implements AutoCloseable
{
    /**
     * Asked after each line: a link that no case creates, whose error (unbuffered stderr, after the line's
     * own output, which ip flushes at the end of each command) marks where that output ends.
     */
    private static final String END_DEVICE = "rdmacm-end";
    private static final String END_LINE = "Device \"" + END_DEVICE + "\" does not exist.";
    /** What {@code -force} prints after each line that failed, the marker's own included. */
    private static final String FAILED_PREFIX = "Command failed -:";
    /** Queued when ip's output ends; compared by identity, so that no line ip prints can be taken for it. */
    @SuppressWarnings("StringOperationCanBeSimplified")
    private static final String EOF = new String("end of ip's output");

    private final List<String> command;
    private final Process process;
    private final Writer input;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();

    IpSession(final String namespace)
    {
        command = AskingCpu.on(List.of("ip", "-n", namespace, "-j", "-force", "-batch", "-"));
        try
        {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot start `" + String.join(" ", command) + "`: " + ex.getMessage(), ex);
        }
        input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("drain ip session " + process.pid()).start(this::drain);
    }

    /**
     * {@code line} (a batch line: no options) run within {@code limit}: its outcome as a process of its own
     * would give it, exit status 1 when ip refused it, stdout and stderr merged.
     */
    HostCommand.Outcome ask(final String line, final Duration limit)
    {
        final long deadline = System.nanoTime() + limit.toNanos();
        try
        {
            input.write(line + "\nlink show dev " + END_DEVICE + "\n");
            input.flush();
            final List<String> output = new ArrayList<>();
            for (String next = take(line, deadline); !next.equals(END_LINE); next = take(line, deadline))
            {
                output.add(next);
            }
            final String markerFailed = take(line, deadline);
            if (!markerFailed.startsWith(FAILED_PREFIX))
            {
                throw new AssertionError("ip session: `" + markerFailed + "` after the end marker of `" + line + "`");
            }
            final boolean failed = !output.isEmpty() && output.getLast().startsWith(FAILED_PREFIX);
            if (failed)
            {
                output.removeLast();
            }
            return new HostCommand.Outcome(List.of(line), failed ? 1 : 0,
                output.isEmpty() ? "" : String.join("\n", output) + "\n");
        }
        catch (final IOException ex)
        {
            process.destroyForcibly();
            throw new AssertionError("ip session: cannot write `" + line + "`: " + ex.getMessage(), ex);
        }
    }

    private String take(final String line, final long deadline)
    {
        final String next;
        try
        {
            next = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while ip answered `" + line + "`", ex);
        }
        if (next == null)
        {
            process.destroyForcibly();
            throw new AssertionError("`" + String.join(" ", command) + "` did not answer `" + line +
                "` in time and was killed (pid " + process.pid() + ")");
        }
        if (next == EOF)
        {
            throw new AssertionError("`" + String.join(" ", command) + "` ended before it answered `" + line + "`");
        }
        return next;
    }

    private void drain()
    {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            for (String line = reader.readLine(); line != null; line = reader.readLine())
            {
                lines.add(line);
            }
        }
        catch (final IOException ex)
        {
            lines.add("(ip's output unreadable: " + ex.getMessage() + ")");
        }
        finally
        {
            lines.add(EOF);
        }
    }

    /** Ends ip with the end of its input, or kills it by its PID when it does not end. */
    @Override
    public void close()
    {
        try
        {
            input.close();
            if (!process.waitFor(5, TimeUnit.SECONDS))
            {
                process.destroyForcibly();
            }
        }
        catch (final IOException ex)
        {
            process.destroyForcibly();
        }
        catch (final InterruptedException ex)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
