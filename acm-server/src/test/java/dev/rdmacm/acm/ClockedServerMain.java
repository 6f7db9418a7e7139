package dev.rdmacm.acm;

import dev.rdmacm.loop.testing.ManualNanoClock;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A server process whose clock the test moves, for tests that need the server in a process of its own
 * (a lowered RLIMIT_NOFILE, an exit status). It starts the server as the CLI does, on a
 * {@link ManualNanoClock} (the test double for time), logs to stderr, and then answers one command a
 * line on stdin with one line on stdout:
 * <pre>
 *   advance NANOS   moves the clock and wakes the server       ok
 *   failures        accepts that failed since start            N
 *   connections     connections open                           N
 *   lastfailure     the last failed accept's exception, logged or not   TEXT (one line)
 *   threads         every thread's stack, written to the log (stderr)  ok
 * </pre>
 * It prints {@code ready} once the socket is published. Reading stdin and writing stdout take no new
 * descriptor, so the commands work when the process has none left. A fatal error halts with
 * {@link AcmServer#EXIT_FATAL}, as the CLI's process ends.
 */
final class ClockedServerMain
{
    private ClockedServerMain()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final AcmOptions options = AcmOptions.read(Path.of(args[0]));
        final ManualNanoClock clock = new ManualNanoClock();
        final AcmLog log = new AcmLog(System.err, 1);
        final AcmServer server = AcmServer.start(options, AcmEndpointFile.read(options.addrFile()), AcmGidLookup.NONE,
            AcmPathQuerier.NONE, log, clock, error -> Runtime.getRuntime().halt(AcmServer.EXIT_FATAL));
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "acm-server-shutdown"));
        final PrintStream out = new PrintStream(System.out, true, StandardCharsets.US_ASCII);
        out.println("ready");
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        for (String line = in.readLine(); line != null; line = in.readLine())
        {
            final String[] words = line.split(" ");
            switch (words[0])
            {
                case "advance" ->
                {
                    clock.advanceNanos(Long.parseLong(words[1]));
                    server.wakeUp();
                    out.println("ok");
                }
                case "failures" -> out.println(server.acceptFailures());
                case "connections" -> out.println(server.connectionCount());
                case "lastfailure" -> out.println(server.lastAcceptFailure().replace('\n', ' '));
                case "threads" ->
                {
                    dumpThreads(System.err);
                    out.println("ok");
                }
                default -> out.println("unknown command: " + line);
            }
        }
        System.exit(0);
    }

    /**
     * What a stalled server is doing, when the test's wait runs out: as {@code jcmd Thread.print} would say
     * it, which cannot attach to a process that has no descriptor left to open.
     */
    private static void dumpThreads(final PrintStream log)
    {
        final StringBuilder dump = new StringBuilder("threads of the server process:\n");
        Thread.getAllStackTraces().forEach((thread, frames) ->
        {
            dump.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
            for (final StackTraceElement frame : frames)
            {
                dump.append("\tat ").append(frame).append('\n');
            }
        });
        log.print(dump);
        log.flush();
    }
}
