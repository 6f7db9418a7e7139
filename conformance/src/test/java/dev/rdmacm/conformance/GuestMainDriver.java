package dev.rdmacm.conformance;

import dev.rdmacm.cli.Main;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One JVM in the userspace guest that runs the Java mains of the cases across the wire, each in a thread of its
 * own, instead of a JVM per main: under TCG a JVM's start takes 6 to 8 s even with the AOT cache (more while the
 * other guest works), and those starts, one after another, were the largest item on the guest part's path. A
 * main run here has the same arguments, standard output and error, and exit status as in a JVM of its own
 * ({@link GuestJavaMain#command}); what it cannot have is a process of its own, so a main that must be a process
 * apart from the others runs in the guest's second driver ({@link GuestJavaMain#secondProcess}).
 * <p>
 * A command is the line {@code NAME PID FILE} on the FIFO COMMANDS, written by {@link GuestJavaMain}'s client
 * script: FILE holds the main class and its arguments, one a line; the main's output goes to what PID (the
 * client) has as its standard output and error (its copies on fds 3 and 4), opened again for appending, so that
 * the client's caller sees it where it redirected the client, while the main runs (a case waits for a listener's
 * {@code listening}); its status is written to the FIFO {@code /run/guest-main/NAME.done}, which the client
 * reads. The line {@code stop NAME} interrupts NAME's thread: the client sends it when it gets SIGTERM, which
 * would have ended the main's own JVM (cmtime's server serves until interrupted). The line {@code quit} ends
 * the JVM. Each main opens and closes its own {@code RdmaCm}, as it would in its own JVM, so between two mains
 * nothing holds the CM class on umad and the kernel's ib_cm can load.
 * <pre>
 *   java ... GuestMainDriver COMMANDS
 * </pre>
 */
final class GuestMainDriver
{
    /** Where each command's status FIFO is. */
    static final String DONE = "/run/guest-main";
    /** The main's thread's name, which a main may print (ConnectThenDisconnect's "qp ... on main"). */
    private static final String THREAD = "main";

    /** A main's standard output and error. */
    record Streams(OutputStream out, OutputStream err)
    {
    }

    private GuestMainDriver()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        final InheritableThreadLocal<Streams> current = new InheritableThreadLocal<>();
        final Map<String, Thread> running = new ConcurrentHashMap<>();
        final Path commands = Path.of(args[0]);
        final OutputStream ownOut = new FileOutputStream(FileDescriptor.out);
        final OutputStream ownErr = new FileOutputStream(FileDescriptor.err);
        System.setOut(new PrintStream(new ThreadRoutedOutput(current, Streams::out, ownOut), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new ThreadRoutedOutput(current, Streams::err, ownErr), true, StandardCharsets.UTF_8));
        while (true)
        {
            // opened per batch: a FIFO read to its end gives end-of-file until the next writer opens it
            for (final String line : Files.readString(commands).lines().toList())
            {
                if (line.strip().equals("quit"))
                {
                    System.out.flush();
                    Runtime.getRuntime().exit(0);
                }
                final String[] words = line.strip().split(" ", 3);
                if (words.length == 2 && words[0].equals("stop"))
                {
                    // as a JVM that is sent SIGTERM: the main's thread interrupted (cmtime's server serves until then)
                    final Thread main = running.get(words[1]);
                    if (main != null)
                    {
                        main.interrupt();
                    }
                }
                else if (words.length == 3)
                {
                    final Thread main = Thread.ofPlatform().name(THREAD).unstarted(() ->
                    {
                        run(current, words[0], Long.parseLong(words[1]), Path.of(words[2]));
                        running.remove(words[0], Thread.currentThread());
                    });
                    running.put(words[0], main);
                    main.start();
                }
                else if (!line.isBlank())
                {
                    System.err.println("GuestMainDriver: not a command: " + line);
                }
            }
        }
    }

    private static void run(final InheritableThreadLocal<Streams> current, final String name, final long client, final Path file)
    {
        int status;
        // the client's copies of its standard output and error: a shell's own 1 and 2 are elsewhere while a builtin's
        // redirection runs (its printf to the FIFO, its read of the status), which the first run's stderr went to
        try (OutputStream out = of(client, 3); OutputStream err = of(client, 4))
        {
            current.set(new Streams(out, err));
            try
            {
                status = main(Files.readAllLines(file));
            }
            catch (final Throwable ex)
            {
                // as a JVM whose main threw: the trace on standard error, exit status 1
                ex.printStackTrace(System.err);
                status = 1;
            }
            finally
            {
                System.out.flush();
                System.err.flush();
                current.remove();
            }
        }
        catch (final IOException ex)
        {
            System.err.println("GuestMainDriver: " + name + ": the client's output: " + ex);
            status = 99;
        }
        try
        {
            Files.writeString(Path.of(DONE, name + ".done"), status + "\n");
        }
        catch (final IOException ex)
        {
            System.err.println("GuestMainDriver: " + name + ": its status " + status + ": " + ex);
        }
    }

    /** Runs the main of {@code lines} (its class, then its arguments) in this thread; its exit status. */
    private static int main(final List<String> lines) throws Throwable
    {
        final String[] arguments = lines.subList(1, lines.size()).toArray(String[]::new);
        if (lines.getFirst().equals(Main.class.getName()))
        {
            // the CLI's main would exit the JVM with its command's status
            return Main.commandLine(arguments).execute(arguments);
        }
        try
        {
            Class.forName(lines.getFirst()).getMethod("main", String[].class).invoke(null, (Object)arguments);
            return 0;
        }
        catch (final InvocationTargetException ex)
        {
            throw ex.getCause();
        }
    }

    /** The client's descriptor {@code fd}, opened again for appending, so that what its shell wrote before stays. */
    private static OutputStream of(final long client, final int fd) throws IOException
    {
        return new BufferedOutputStream(Files.newOutputStream(Path.of("/proc", Long.toString(client), "fd", Integer.toString(fd)),
            StandardOpenOption.WRITE, StandardOpenOption.APPEND));
    }
}
