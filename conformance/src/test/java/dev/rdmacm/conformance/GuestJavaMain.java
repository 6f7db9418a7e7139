package dev.rdmacm.conformance;

import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.KernelGuest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The shell command that runs a Java main in a guest with this test JVM's class path (the guest sees
 * the host's root at the same paths), its arguments in a file in the guest's share, and an AOT cache
 * (JDK 25, JEP 483/514) of what such mains load. Under TCG a JVM is about ten times slower than on
 * the host, and most of a CLI's start goes to loading, verifying and linking the JDK's FFM machinery,
 * picocli and this project's classes; with the cache the guest maps them ready-linked.
 * <p>
 * The cache is made once per guest, from one main of the guest's own that runs anyway (the
 * {@link #training} run, the silent peer's {@code rdmacm rping}, which runs beside the guest suites):
 * <pre>
 *   guest: java -XX:AOTMode=record -XX:AOTConfiguration=share/main.aotconf.partial ...   (the training main)
 *          mv main.aotconf.partial main.aotconf                                          (once it has exited)
 *   host:  java -XX:AOTMode=create -XX:AOTConfiguration=share/main.aotconf -XX:AOTCache=RUNDIR/main.aot ...
 *          (once the training has ended; the host is ten times faster than the guest)
 *   guest: java -XX:AOTCache=RUNDIR/main.aot ...                                         (every later main)
 * </pre>
 * The JDK's rules: the options must be the same at every step, and the class path must be jars only
 * when the cache is made (a non-empty directory fails the create step, and then, in a one-step
 * training, the trained main's exit status), while a later run may append to it. So the class path is
 * reordered, its jars first in their order and the module's directories ({@code target/test-classes})
 * after them: the training main (from a jar) runs on the jars alone, the later ones on all of it. A
 * cache that cannot be made or used leaves the mains to start without one, only slower: {@code
 * -XX:AOTCache} is passed only for a cache that the create step finished, and the JVM's own {@code aot}
 * messages (a stale jar, a mismatch) go to {@code NAME.aot.log} in the share, never to the main's
 * output. The one trace the training leaves is the JVM's line {@code AOTConfiguration recorded: FILE}
 * at the end of its standard output.
 */
final class GuestJavaMain
{
    /** C1 only and the serial collector, as the guest's test JVMs (GuestJvm): under TCG a JVM spends its first seconds compiling. */
    private static final List<String> OPTIONS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "--enable-native-access=ALL-UNNAMED", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED");
    private static final String CONFIGURATION = "main.aotconf";
    private static final String CACHE = "main.aot";
    private static final Duration CREATE_LIMIT = Duration.ofMinutes(2);

    private GuestJavaMain()
    {
    }

    /**
     * {@code java MAIN ARGS...} in {@code guest}, with the guest's main cache once there is one; {@code name} names its files.
     * Once the guest's {@link GuestMainDriver}s run ({@link #startDrivers}), the main runs in the first, in a thread of that
     * JVM: the command is then a client script that waits for it, with the main's output as its own and the main's exit
     * status. The shell that runs it must write nothing to the same standard output or error after it (the main's output is
     * appended to the file the client's was redirected to, at the end the file had as it was written).
     */
    static String command(final KernelGuest guest, final String name, final String main, final String... arguments)
    {
        return inDriver(guest, Driver.FIRST, name, main, arguments);
    }

    /**
     * The same in the guest's second driver: a process apart from the first's mains (two mckey receivers on one host), whose
     * JVM started before the case, as the first's did.
     */
    static String secondProcess(final KernelGuest guest, final String name, final String main, final String... arguments)
    {
        return inDriver(guest, Driver.SECOND, name, main, arguments);
    }

    /** {@code java MAIN ARGS...} in a JVM of its own. */
    static String process(final KernelGuest guest, final String name, final String main, final String... arguments)
    {
        return command(guest, name, List.of(), main, arguments);
    }

    private static String inDriver(final KernelGuest guest, final Driver driver, final String name, final String main,
        final String... arguments)
    {
        final Path client = guest.sharedDirectory().resolve(driver.client());
        if (!Files.exists(client))
        {
            return process(guest, name, main, arguments);
        }
        final Path file = guest.sharedDirectory().resolve(name + ".main");
        final List<String> lines = new ArrayList<>(List.of(main));
        lines.addAll(List.of(arguments));
        write(file, lines);
        return "sh " + guest.guestPathOf(client) + " " + name + " " + guest.guestPathOf(file);
    }

    /**
     * Starts the guest's two {@link GuestMainDriver}s in its background, from which on {@link #command} and {@link
     * #secondProcess} run their mains there; the drivers' JVMs start while the first case gets ready, and a first main waits
     * for its driver (a FIFO's writer waits for its reader).
     */
    static GuestResult startDrivers(final KernelGuest guest)
    {
        final StringBuilder job = new StringBuilder("mkdir -p " + GuestMainDriver.DONE + " || exit 1\n");
        for (final Driver driver : Driver.values())
        {
            final String done = GuestMainDriver.DONE + "/$1.done";
            write(guest.sharedDirectory().resolve(driver.client() + ".partial"), List.of(
                "# sh " + driver.client() + " NAME FILE: FILE's main (its class, then its arguments, one a line) in the guest's "
                    + "GuestMainDriver " + driver.name() + ",",
                "# with this shell's standard output and error, and its exit status as this script's",
                "# the driver writes to this shell's fds 3 and 4: its 1 and 2 are the FIFO and /dev/null while printf and read run",
                "exec 3>&1 4>&2",
                "rm -f " + done + " && mkfifo " + done + " || exit 97",
                "kill -0 $(cat " + driver.pid() + ") 2> /dev/null || { echo 'no GuestMainDriver " + driver.name() + " runs' >&2; exit 98; }",
                "printf '%s %s %s\\n' \"$1\" $$ \"$2\" > " + driver.commands(),
                "# SIGTERM (a case stops its server by PID) stops the main as it would a JVM; the status comes after (the signal",
                "# interrupts the FIFO's open, which then goes again)",
                "trap \"printf 'stop %s\\\\n' '$1' > " + driver.commands() + "\" TERM",
                "until read -r status 2> /dev/null < " + done + "; do :; done",
                "rm -f " + done,
                "exit ${status:-99}"));
            job.append("rm -f ").append(driver.commands()).append("\nmkfifo ").append(driver.commands()).append(" || exit 1\n")
                .append(RpingAcrossTheWire.background(process(guest, driver.job(), GuestMainDriver.class.getName(), driver.commands()),
                    driver.job())).append("\necho $! > ").append(driver.pid()).append('\n');
        }
        final GuestResult started = guest.run(Duration.ofSeconds(30), job.toString());
        if (started.succeeded())
        {
            for (final Driver driver : Driver.values())
            {
                try
                {
                    Files.move(guest.sharedDirectory().resolve(driver.client() + ".partial"), guest.sharedDirectory().resolve(driver.client()));
                }
                catch (final IOException ex)
                {
                    throw new UncheckedIOException("cannot put the client script in " + guest.sharedDirectory(), ex);
                }
            }
        }
        return started;
    }

    /** Ends the guest's {@link GuestMainDriver}s, if they run: later mains start JVMs of their own. Their ends and output. */
    static GuestResult stopDrivers(final KernelGuest guest)
    {
        final StringBuilder job = new StringBuilder("status=0\n");
        for (final Driver driver : Driver.values())
        {
            try
            {
                Files.deleteIfExists(guest.sharedDirectory().resolve(driver.client()));
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot remove the client script from " + guest.sharedDirectory(), ex);
            }
            job.append("if [ ! -e /run/").append(driver.job()).append(".status ] && kill -0 $(cat ").append(driver.pid())
                .append(") 2> /dev/null; then timeout 10 sh -c 'echo quit > ").append(driver.commands()).append("'; fi\n")
                .append("( ").append(RpingAcrossTheWire.collect(driver.job()).replace("\n", "; ")).append(" ) || status=$?\n");
        }
        return guest.run(Duration.ofSeconds(100), job + "exit $status");
    }

    /** A {@link GuestMainDriver} of the guest: its command FIFO, PID file, client script and background job. */
    private enum Driver
    {
        FIRST("guest-main"), SECOND("guest-main-2");

        private final String base;

        Driver(final String base)
        {
            this.base = base;
        }

        String commands()
        {
            return "/run/" + base + ".fifo";
        }

        String pid()
        {
            return "/run/" + base + "-driver.pid";
        }

        String client()
        {
            return base + ".sh";
        }

        String job()
        {
            return base + "-driver";
        }
    }

    /** The same, with {@code options} after the guest mains' own (a profiler's, a JIT's flags for one measurement). */
    static String command(final KernelGuest guest, final String name, final List<String> options, final String main,
        final String... arguments)
    {
        final List<String> lines = new ArrayList<>(OPTIONS);
        lines.addAll(options);
        final Path cache = cache(guest);
        if (cache != null)
        {
            lines.add("-XX:AOTCache=" + cache);
            lines.addAll(quietAot(guest, name));
        }
        lines.addAll(List.of("-cp", String.join(":", ClassPath.ofThisJvm().all())));
        return java(guest, name, lines, main, arguments);
    }

    /**
     * The same, recording what the main loads for the guest's main cache: the main must come from a jar
     * (it runs on the class path's jars alone), and nothing else in the guest may record at once. A main
     * from a directory, or a second training in the same guest, runs as {@link #command} does.
     */
    static String training(final KernelGuest guest, final String name, final String main, final String... arguments)
    {
        final Path configuration = guest.sharedDirectory().resolve(CONFIGURATION);
        final Path partial = guest.sharedDirectory().resolve(CONFIGURATION + ".partial");
        if (!fromJar(main) || Files.exists(configuration) || Files.exists(partial))
        {
            return command(guest, name, main, arguments);
        }
        final List<String> lines = new ArrayList<>(OPTIONS);
        lines.addAll(List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + guest.guestPathOf(partial)));
        lines.addAll(quietAot(guest, name));
        lines.addAll(List.of("-cp", String.join(":", ClassPath.ofThisJvm().jars())));
        final String java = java(guest, name, lines, main, arguments);
        // the configuration is complete once the JVM has exited: only then does it get the name the host looks for
        final Path script = guest.sharedDirectory().resolve(name + ".sh");
        write(script, List.of(java, "status=$?", "mv -f " + guest.guestPathOf(partial) + " " + guest.guestPathOf(configuration)
            + " 2> /dev/null", "exit $status"));
        return "sh " + guest.guestPathOf(script);
    }

    /** Makes the guest's cache now if its training has ended, so that the first later main need not wait for it. */
    static void prepareCache(final KernelGuest guest)
    {
        cache(guest);
    }

    /**
     * The guest's cache, made on the host from the training's configuration the first time a main asks
     * for it; null while there is no configuration, or when it could not be made.
     */
    private static synchronized Path cache(final KernelGuest guest)
    {
        final Path cache = cacheFile(guest);
        final Path failed = guest.sharedDirectory().resolve(CACHE + ".failed");
        final Path configuration = guest.sharedDirectory().resolve(CONFIGURATION);
        if (Files.exists(cache))
        {
            return cache;
        }
        if (!Files.exists(configuration) || Files.exists(failed))
        {
            return null;
        }
        final Path partial = cache.resolveSibling(CACHE + ".partial");
        final List<String> create = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        create.addAll(OPTIONS);
        create.addAll(List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=" + configuration, "-XX:AOTCache=" + partial,
            "-cp", String.join(":", ClassPath.ofThisJvm().jars())));
        String outcome;
        try
        {
            final HostCommand.Outcome created = HostCommand.run(CREATE_LIMIT, null, create);
            outcome = "exit " + created.exitStatus() + "\n" + created.output();
            if (created.succeeded() && Files.exists(partial))
            {
                Files.move(partial, cache);
                return cache;
            }
        }
        catch (final AssertionError | IOException ex)
        {
            outcome = ex.toString();
        }
        // the mains start without a cache, only slower; the reason stays in the share
        write(failed, List.of(String.join(" ", create), outcome));
        return null;
    }

    /**
     * Where the guest's cache lives: beside the share, in the guest's run directory, which the guest sees
     * at the same path through the host's root. The share is mounted without a page cache, so a JVM
     * mapping a cache from it reads it a page per round trip: 57 s for a main that took 24 s with no
     * cache, where the root's mount ({@code cache=loose}) reads it ahead.
     */
    private static Path cacheFile(final KernelGuest guest)
    {
        return guest.sharedDirectory().toAbsolutePath().getParent().resolve(CACHE);
    }

    /** The JVM's {@code aot} messages into the share instead of the main's standard output. */
    private static List<String> quietAot(final KernelGuest guest, final String name)
    {
        return List.of("-Xlog:aot*=off,cds*=off",
            "-Xlog:aot*=warning,cds*=warning:file=" + guest.guestPathOf(guest.sharedDirectory().resolve(name + ".aot.log")));
    }

    private static String java(final KernelGuest guest, final String name, final List<String> options, final String main,
        final String... arguments)
    {
        final List<String> lines = new ArrayList<>(options);
        lines.add(main);
        lines.addAll(List.of(arguments));
        final Path file = guest.sharedDirectory().resolve(name + ".args");
        write(file, lines.stream().map(line -> "\"" + line.replace("\\", "\\\\").replace("\"", "\\\"") + "\"").toList());
        return Path.of(System.getProperty("java.home"), "bin", "java") + " @" + guest.guestPathOf(file);
    }

    private static boolean fromJar(final String main)
    {
        try
        {
            final var source = Class.forName(main, false, GuestJavaMain.class.getClassLoader()).getProtectionDomain().getCodeSource();
            return source != null && source.getLocation().getPath().endsWith(".jar");
        }
        catch (final ClassNotFoundException ex)
        {
            throw new IllegalArgumentException("main class " + main + " is not on this JVM's class path", ex);
        }
    }

    private static void write(final Path file, final List<String> lines)
    {
        try
        {
            Files.write(file, lines);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    /** This JVM's class path, its jars first in their order, then everything else (the module's class directories). */
    private record ClassPath(List<String> jars, List<String> rest)
    {
        static ClassPath ofThisJvm()
        {
            final List<String> jars = new ArrayList<>();
            final List<String> rest = new ArrayList<>();
            for (final String entry : System.getProperty("java.class.path").split(":"))
            {
                (entry.endsWith(".jar") && Files.isRegularFile(Path.of(entry)) ? jars : rest).add(entry);
            }
            return new ClassPath(List.copyOf(jars), List.copyOf(rest));
        }

        List<String> all()
        {
            final List<String> all = new ArrayList<>(jars);
            all.addAll(rest);
            return all;
        }
    }
}
