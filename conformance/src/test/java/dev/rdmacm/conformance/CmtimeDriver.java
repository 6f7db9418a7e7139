package dev.rdmacm.conformance;

import dev.rdmacm.cli.Main;
import dev.rdmacm.cm.RdmaCm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The guest main of {@link CmtimeRounds}: one JVM that runs {@code rdmacm cmtime} (the CLI's own command,
 * in this process) once per line it reads from a FIFO, so that our rounds alternate with the kernel's
 * cmtime and still run in a JVM the earlier rounds warmed. Each command opens and closes its own
 * {@code RdmaCm}, so between two commands nothing holds the CM class on umad and the kernel's ib_cm can
 * load for the kernel's round.
 * <p>
 * Per command {@code TAG ARGS...} it writes {@code TAG.out} and {@code TAG.err} (cmtime's output) and
 * {@code TAG.cpu}: every thread's user + system CPU from {@code /proc/self/task} taken before the command
 * and again when cmtime prints its table's last row ({@code destroy}), while the command's threads are
 * still alive; the process's own total from {@code /proc/self/stat} at the same moments, so that threads
 * that ended in between count as {@code (ended threads)}. Then it writes {@code TAG STATUS} to the reply
 * FIFO. Waiting on a FIFO costs no system call while it waits, so a round under strace counts the
 * command's calls alone. {@code quit} ends it. A line {@code TAG kernel-halves SERVER PORT N} runs issue 32's
 * split of the connect step ({@link dev.rdmacm.cli.CmtimeKernelHalves}) in place of the CLI.
 * <pre>
 *   java ... CmtimeDriver COMMAND_FIFO REPLY_FIFO OUTPUT_DIRECTORY
 * </pre>
 */
final class CmtimeDriver
{
    /** A command line {@code TAG kernel-halves SERVER PORT N}: {@link dev.rdmacm.cli.CmtimeKernelHalves} instead of the CLI's cmtime. */
    static final String KERNEL_HALVES = "kernel-halves";
    /** USER_HZ, the unit of /proc's CPU times: 100 on every Linux architecture this runs on. */
    static final int TICKS_PER_SECOND = 100;

    private CmtimeDriver()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final Path commands = Path.of(args[0]);
        final Path replies = Path.of(args[1]);
        final Path directory = Path.of(args[2]);
        Files.writeString(directory.resolve("driver.txt"), "pid " + ProcessHandle.current().pid() + "\njvm "
            + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()) + "\nspin " + RdmaCm.DEFAULT_SPIN.toNanos()
            + "\ncpus " + Runtime.getRuntime().availableProcessors() + "\nclocksource " + clocksource() + "\nclock read "
            + clockReadNanos() + " ns\n");
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        while (true)
        {
            // opened per command: a FIFO read to its end gives end-of-file until the next writer opens it
            final String line = Files.readString(commands).strip();
            if (line.equals("quit") || line.isEmpty())
            {
                return;
            }
            final String[] words = line.split(" ");
            final String tag = words[0];
            final String[] cmtime = Arrays.copyOfRange(words, 1, words.length);
            final Map<String, Long> before = threads();
            final long processBefore = processTicks();
            final TableWatch watch = new TableWatch();
            final ByteArrayOutputStream errors = new ByteArrayOutputStream();
            int status;
            try
            {
                System.setOut(new PrintStream(watch, true, StandardCharsets.UTF_8));
                System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
                status = cmtime[0].equals(KERNEL_HALVES) ? dev.rdmacm.cli.CmtimeKernelHalves.run(Arrays.copyOfRange(cmtime, 1,
                    cmtime.length), System.out) : Main.commandLine(cmtime).execute(cmtime);
            }
            catch (final Exception ex)
            {
                ex.printStackTrace(System.err);
                status = 255;
            }
            finally
            {
                System.setOut(out);
                System.setErr(err);
            }
            if (watch.after == null)
            {
                watch.snapshot();
            }
            Files.write(directory.resolve(tag + ".out"), watch.bytes.toByteArray());
            Files.write(directory.resolve(tag + ".err"), errors.toByteArray());
            Files.writeString(directory.resolve(tag + ".cpu"), cpu(before, processBefore, watch.after, watch.processAfter));
            Files.writeString(replies, tag + " " + status + "\n");
        }
    }

    /** The guest kernel's clocksource: where it is not the TSC, a clock read is a system call (no vDSO). */
    private static String clocksource()
    {
        try
        {
            return Files.readString(Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource")).strip();
        }
        catch (final IOException ex)
        {
            return "unknown (" + ex.getMessage() + ")";
        }
    }

    /** What one {@code System.nanoTime} costs here: the fastest of 5 runs of 2,000 reads, in ns a read. */
    private static long clockReadNanos()
    {
        long fastest = Long.MAX_VALUE;
        long sink = 0;
        for (int run = 0; run < 5; run++)
        {
            final long start = System.nanoTime();
            for (int i = 0; i < 2_000; i++)
            {
                sink += System.nanoTime();
            }
            fastest = Math.min(fastest, (System.nanoTime() - start) / 2_000);
        }
        return sink == 42 ? -1 : fastest;
    }

    /** Per thread name, the ticks its threads gained; then the ended threads and the process. */
    private static String cpu(final Map<String, Long> before, final long processBefore, final Map<String, Long> after,
        final long processAfter)
    {
        final Map<String, Long> byName = new TreeMap<>();
        long live = 0;
        for (final Map.Entry<String, Long> thread : after.entrySet())
        {
            final long gained = thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
            final String name = thread.getKey().substring(thread.getKey().indexOf(' ') + 1);
            byName.merge(name, gained, Long::sum);
            live += gained;
        }
        final StringBuilder text = new StringBuilder();
        byName.forEach((name, ticks) -> text.append("thread ").append(ticks).append(' ').append(name).append('\n'));
        text.append("ended ").append(processAfter - processBefore - live).append('\n');
        text.append("process ").append(processAfter - processBefore).append('\n');
        return text.toString();
    }

    /** "TID NAME" to utime + stime ticks, for every thread of this process now. */
    static Map<String, Long> threads()
    {
        final Map<String, Long> ticks = new LinkedHashMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task")))
        {
            for (final Path task : tasks.toList())
            {
                try
                {
                    final String stat = Files.readString(task.resolve("stat"));
                    final String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(' ', '_');
                    ticks.put(task.getFileName() + " " + name, ticksOf(stat));
                }
                catch (final IOException ended)
                {
                    // the thread ended between the listing and the read: it counts as ended
                }
            }
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot list /proc/self/task", ex);
        }
        return ticks;
    }

    private static long processTicks()
    {
        try
        {
            return ticksOf(Files.readString(Path.of("/proc/self/stat")));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("cannot read /proc/self/stat", ex);
        }
    }

    /** utime + stime, fields 14 and 15 of a stat line, counted after the name's closing parenthesis (field 2). */
    static long ticksOf(final String stat)
    {
        final String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** cmtime's standard output, kept; the threads are read when the table's last row has been printed. */
    private static final class TableWatch extends OutputStream
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private int lineStart;
        Map<String, Long> after;
        long processAfter;

        @Override
        public void write(final int b)
        {
            bytes.write(b);
            if (b == '\n')
            {
                endOfLine();
            }
        }

        @Override
        public void write(final byte[] b, final int off, final int len)
        {
            for (int i = off; i < off + len; i++)
            {
                write(b[i]);
            }
        }

        private void endOfLine()
        {
            final String line = bytes.toString(StandardCharsets.UTF_8).substring(lineStart);
            lineStart = bytes.size();
            if (line.startsWith("destroy ") && line.contains(":"))
            {
                snapshot();
            }
        }

        void snapshot()
        {
            after = threads();
            processAfter = processTicks();
        }
    }
}
