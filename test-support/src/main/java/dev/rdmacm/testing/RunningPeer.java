package dev.rdmacm.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real program that runs beside a test (rping, ucmatose), its standard output and error read line by
 * line as they come, so that a test can wait for one line while the program still runs. Closing it
 * stops the process this test started, by its own handle, and waits for it.
 */
public final class RunningPeer implements AutoCloseable
{
    /** rping's {@code -d} line for an event: its type and whether it came to the {@code parent} or a {@code child} id. */
    private static final Pattern RPING_EVENT = Pattern.compile("^cma_event type RDMA_CM_EVENT_(\\w+) cma_id \\S+ \\((parent|child)\\)");
    private static final Duration READER_END = Duration.ofSeconds(10);

    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private RunningPeer(final Process process)
    {
        this.process = process;
        this.reader = Thread.ofPlatform().daemon().name("peer-output-" + process.pid()).start(() ->
        {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)))
            {
                for (String line; (line = in.readLine()) != null; )
                {
                    lines.add(line);
                }
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        });
    }

    public static RunningPeer start(final List<String> command) throws IOException
    {
        return new RunningPeer(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    public static RunningPeer start(final String... command) throws IOException
    {
        return start(List.of(command));
    }

    /** Its process id, as {@code rdma resource} lists it beside what the process holds. */
    public long pid()
    {
        return process.pid();
    }

    /** Every line it printed, once its output ended (or after ten seconds, what came by then). */
    public List<String> lines() throws InterruptedException
    {
        reader.join(READER_END);
        return List.copyOf(lines);
    }

    /** Its exit status once it ended, within {@code limit}; a failure naming it and its output if it did not. */
    public int exitStatus(final Duration limit) throws InterruptedException
    {
        assertTrue(process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS), () -> Arrays.toString(process.info().arguments()
            .orElse(new String[0])) + " still runs after " + limit + "; it printed:\n" + this);
        reader.join(READER_END);
        return process.exitValue();
    }

    /** Until a line matches, within {@code limit}; the output so far in the failure. */
    public void await(final Predicate<String> line, final Duration limit) throws InterruptedException
    {
        final long deadline = System.nanoTime() + limit.toNanos();
        while (lines.stream().noneMatch(line))
        {
            assertTrue(System.nanoTime() - deadline < 0, () -> "the peer printed, within " + limit + ":\n" + this);
            Thread.sleep(10);
        }
    }

    /** The events rping {@code -d} printed for its {@code parent} or {@code child} id, by type name, in order. */
    public List<String> rpingEvents(final String which)
    {
        final List<String> events = new ArrayList<>();
        for (final String line : lines)
        {
            final Matcher matcher = RPING_EVENT.matcher(line);
            if (matcher.find() && matcher.group(2).equals(which))
            {
                events.add(matcher.group(1));
            }
        }
        return events;
    }

    /** Those after its ESTABLISHED. */
    public List<String> rpingEventsAfterEstablished(final String which)
    {
        final List<String> all = rpingEvents(which);
        return new ArrayList<>(all.subList(all.indexOf("ESTABLISHED") + 1, all.size()));
    }

    @Override
    public String toString()
    {
        return String.join("\n", lines);
    }

    @Override
    public void close() throws InterruptedException
    {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        reader.join(READER_END);
    }
}
