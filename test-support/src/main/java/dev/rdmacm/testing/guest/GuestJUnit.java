package dev.rdmacm.testing.guest;

import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs a JUnit selection inside a {@link KernelGuest}, in one JVM (a JVM start costs seconds under
 * TCG), with this JVM's own test class path, which the guest sees at the same paths through the
 * shared root, reordered and AOT-cached by {@link GuestJvm}. Test classes meant for the guest are
 * named {@code *InGuest}, so that Surefire on the host never selects them; a host test class runs them and replays each outcome as a dynamic test:
 * <pre>
 *   &#64;TestFactory
 *   &#64;Timeout(value = 8, unit = TimeUnit.MINUTES)
 *   Stream&lt;DynamicTest&gt; shouldPassOnSoftRoce()
 *   {
 *       return GuestJUnit.inNewGuest(spec, Duration.ofMinutes(4), DeviceQueriesInGuest.class, UdTrafficInGuest.class);
 *   }
 * </pre>
 */
public final class GuestJUnit
{
    /** Two guests' suites may run at once, from two threads. */
    private static final AtomicInteger RUNS = new AtomicInteger();
    /** A job that only starts or waits for another. */
    private static final Duration BACKGROUND_START = Duration.ofSeconds(30);

    private GuestJUnit()
    {
    }

    /**
     * What a module's host runner does: boots {@code spec}, lets {@code prepare} put what the tests need
     * into the guest (a compiled test double in the share, say), runs {@code classes} in one guest JVM,
     * powers the guest off, and returns every outcome as a dynamic test under its own name.
     */
    public static Stream<DynamicTest> inNewGuest(
        final GuestSpec spec, final Duration limit, final Consumer<KernelGuest> prepare, final Class<?>... classes)
    {
        try (KernelGuest guest = KernelGuest.boot(spec))
        {
            prepare.accept(guest);
            return run(guest, limit, classes).stream().map(GuestTestOutcome::dynamicTest).toList().stream();
        }
    }

    /** {@link #inNewGuest(GuestSpec, Duration, Consumer, Class[])} with nothing to prepare. */
    public static Stream<DynamicTest> inNewGuest(final GuestSpec spec, final Duration limit, final Class<?>... classes)
    {
        return inNewGuest(spec, limit, guest ->
        {
        }, classes);
    }

    /**
     * The outcome of every test of {@code classes}, run in {@code guest} within {@code limit}. A class
     * that reported nothing (the guest JVM died or was killed first) gets one FAILED outcome carrying the
     * JVM's exit status and output.
     */
    public static List<GuestTestOutcome> run(final KernelGuest guest, final Duration limit, final Class<?>... classes)
    {
        final Selection selection = Selection.written(guest, classes);
        return selection.outcomes(guest.run(limit, selection.java()));
    }

    /**
     * Starts {@code classes} in a guest JVM of their own in the background of {@code guest}, beside whatever
     * runs there next, for what waits on a peer's timeout rather than on the guest's CPU; {@link #finish}
     * collects them. The JVM is killed once it outlives {@code limit}.
     */
    public static Background start(final KernelGuest guest, final Duration limit, final Class<?>... classes)
    {
        final Selection selection = Selection.written(guest, classes);
        final String status = selection.guestFile(".status");
        final Instant started = Instant.now();
        final String script = "rm -f " + status + "\nsetsid sh -c " + KernelGuest.shellQuoted("timeout -s KILL " + limit.toSeconds() + " "
            + selection.java() + " > " + selection.guestFile(".out") + " 2> " + selection.guestFile(".err") + "; echo $? > "
            + status) + " < /dev/null > /dev/null 2>&1 &";
        return new Background(selection, limit, started, guest.run(BACKGROUND_START, script));
    }

    /**
     * The outcome of every test of {@code background}, once its JVM has ended (or was killed at its limit),
     * as {@link #run} gives them.
     */
    public static List<GuestTestOutcome> finish(final Background background)
    {
        final Selection selection = background.selection();
        final KernelGuest guest = selection.guest();
        final String status = selection.guestFile(".status");
        final long polls = background.limit().plus(BACKGROUND_START).toMillis() / 300;
        final GuestResult jvm = !background.started().succeeded() ? background.started() : guest.run(background.limit().plus(BACKGROUND_START)
            .plus(BACKGROUND_START), "i=0; while [ ! -s " + status + " ] && [ $i -lt " + polls + " ]; do sleep 0.3; i=$((i+1)); done\n"
            + "cat " + selection.guestFile(".out") + "; cat " + selection.guestFile(".err") + " >&2\n"
            + "exit $(cat " + status + " 2>/dev/null || echo 99)");
        return selection.outcomes(jvm, background.ran());
    }

    /**
     * A JUnit selection {@link #start started} in a guest's background at {@code startedAt} (this host's clock).
     */
    public record Background(Selection selection, Duration limit, Instant startedAt, GuestResult started)
    {
        /**
         * How long the JVM ran, from its start job to its status file's last write (the share is the host's
         * directory, so the host's clock stamps it), not the time {@link #finish} waited; null before it ended.
         */
        Duration ran()
        {
            try
            {
                final Path status = selection.results().resolveSibling("junit-" + selection.run() + ".status");
                return Files.exists(status) ? Duration.between(startedAt, Files.getLastModifiedTime(status).toInstant()) : null;
            }
            catch (final IOException ex)
            {
                return null;
            }
        }
    }

    /** One run's classes, with its argument file and results file in the guest's share. */
    public record Selection(KernelGuest guest, int run, Path results, Path arguments, List<Class<?>> classes)
    {
        static Selection written(final KernelGuest guest, final Class<?>... classes)
        {
            final int run = RUNS.incrementAndGet();
            final Path results = guest.sharedDirectory().resolve("junit-" + run + ".tsv");
            final Path arguments = guest.sharedDirectory().resolve("junit-" + run + ".args");
            final List<String> lines = new ArrayList<>(GuestJvm.commandLine(System.getProperty("java.class.path"), checkout()));
            lines.add(guest.guestPathOf(results));
            Arrays.stream(classes).map(Class::getName).forEach(lines::add);
            try
            {
                Files.write(arguments, lines.stream().map(GuestJUnit::argumentFileQuoted).toList());
                Files.writeString(results, "");
            }
            catch (final IOException ex)
            {
                throw new AssertionError("cannot write the guest JUnit arguments " + arguments + ": " + ex, ex);
            }
            return new Selection(guest, run, results, arguments, List.of(classes));
        }

        /** The guest's command that runs the selection. */
        String java()
        {
            final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            return KernelGuest.shellQuoted(java) + " @" + KernelGuest.shellQuoted(guest.guestPathOf(arguments));
        }

        /** The guest path of this run's file with {@code suffix}, beside its results. */
        String guestFile(final String suffix)
        {
            return KernelGuest.shellQuoted(guest.guestPathOf(results.resolveSibling("junit-" + run + suffix)));
        }

        /** Every outcome the JVM that ran the selection reported, and a FAILED one for each class that reported nothing. */
        List<GuestTestOutcome> outcomes(final GuestResult jvm)
        {
            return outcomes(jvm, jvm.elapsed());
        }

        /** {@link #outcomes(GuestResult)}, with the JVM's own run time {@code ran} (null: the job's) for the build log. */
        List<GuestTestOutcome> outcomes(final GuestResult jvm, final Duration ran)
        {
            final List<GuestTestOutcome> outcomes = readOutcomes(results);
            // The guest part has a time budget: keep its figures in the build log.
            System.out.printf("kernel guest %s: boot %d ms (%s), guest JUnit %d ms for %d tests of %s%n", guest.name(),
                guest.bootTime().toMillis(), guest.accelerator(), (ran != null ? ran : jvm.elapsed()).toMillis(), outcomes.size(),
                classes.stream().map(type -> type.getSimpleName() + " " + outcomes.stream()
                    .filter(o -> o.className().equals(type.getName())).mapToLong(o -> o.elapsed().toMillis()).sum() + " ms")
                    .toList());
            final Set<String> reported = outcomes.stream().map(GuestTestOutcome::className).collect(Collectors.toSet());
            for (final Class<?> type : classes)
            {
                if (!reported.contains(type.getName()))
                {
                    outcomes.add(new GuestTestOutcome(type.getName(), "(the whole class)", GuestTestOutcome.Status.FAILED, jvm.elapsed(),
                        "the guest JVM reported no test of this class\n" + jvm.describe() + guest.consoleTail()));
                }
            }
            if (!jvm.succeeded() && classes.stream().allMatch(type -> reported.contains(type.getName())))
            {
                // GuestJUnitMain ends 0 whatever its tests did: a JVM killed at its limit inside a class that had reported some of
                // its tests left the rest unreported, and the run passed without them (DevicesCommandInGuest's 7 of 9, 6 December, 13:23)
                outcomes.add(new GuestTestOutcome(outcomes.getLast().className(), "(the guest JVM's end)", GuestTestOutcome.Status.FAILED,
                    jvm.elapsed(), "the guest JVM ended before its last class had reported every test\n" + jvm.describe()
                    + guest.consoleTail()));
            }
            return outcomes;
        }
    }

    private static List<GuestTestOutcome> readOutcomes(final Path results)
    {
        try
        {
            return Files.readAllLines(results).stream().filter(l -> !l.isBlank()).map(GuestTestOutcome::fromLine)
                .collect(Collectors.toCollection(ArrayList::new));
        }
        catch (final IOException ex)
        {
            throw new AssertionError("cannot read the guest JUnit results " + results + ": " + ex, ex);
        }
    }

    /**
     * Makes the guest JVM's AOT cache now, if this build has none yet ({@link GuestJvm}): on the host, while a guest
     * boots, rather than when its first in-guest run is handed over.
     */
    public static void prepareJvm()
    {
        GuestJvm.commandLine(System.getProperty("java.class.path"), checkout());
    }

    /** The checkout's root: Surefire's {@code RDMACM_TEST_ROOT}, else the parent of the module directory. */
    private static String checkout()
    {
        final String root = System.getenv("RDMACM_TEST_ROOT");
        return root != null && !root.isBlank() ? root : Path.of("").toAbsolutePath().getParent().toString();
    }

    /** A java @argfile argument: double-quoted, with backslashes and quotes escaped. */
    private static String argumentFileQuoted(final String argument)
    {
        return "\"" + argument.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
