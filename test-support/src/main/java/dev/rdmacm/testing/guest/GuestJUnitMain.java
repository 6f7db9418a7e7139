package dev.rdmacm.testing.guest;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JUnit run inside a guest: {@code GuestJUnitMain RESULTS CLASS...} runs the classes with the
 * JUnit Platform launcher and appends one {@link GuestTestOutcome} line to RESULTS as each test ends,
 * so that a run the host has to stop still reports what finished. Every test gets a default timeout,
 * so one hung call fails one test.
 */
public final class GuestJUnitMain
{
    static final String DEFAULT_TIMEOUT = "120 s";

    private GuestJUnitMain()
    {
    }

    public static void main(final String[] args) throws IOException
    {
        if (args.length < 2)
        {
            System.err.println("usage: GuestJUnitMain RESULTS-FILE TEST-CLASS...");
            System.exit(2);
        }
        final Path results = Path.of(args[0]);
        final List<String> classes = Arrays.asList(args).subList(1, args.length);
        final LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
            .selectors(classes.stream().map(DiscoverySelectors::selectClass).toList())
            .configurationParameter("junit.jupiter.execution.timeout.default", DEFAULT_TIMEOUT)
            .build();
        try (Writer out = Files.newBufferedWriter(results, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND))
        {
            final Launcher launcher = LauncherFactory.create();
            launcher.execute(request, new OutcomeWriter(out));
        }
    }

    private static final class OutcomeWriter implements TestExecutionListener
    {
        private final Writer out;
        private final Map<String, Long> startedNanos = new ConcurrentHashMap<>();
        private final Map<String, Long> startedBusyMillis = new ConcurrentHashMap<>();

        OutcomeWriter(final Writer out)
        {
            this.out = out;
        }

        @Override
        public void executionStarted(final TestIdentifier test)
        {
            startedNanos.put(test.getUniqueId(), System.nanoTime());
            if (isClass(test))
            {
                startedBusyMillis.put(test.getUniqueId(), GuestCpuTime.busyMillis());
            }
        }

        @Override
        public void executionSkipped(final TestIdentifier test, final String reason)
        {
            if (test.isTest())
            {
                write(test, GuestTestOutcome.Status.SKIPPED, Duration.ZERO, reason);
            }
        }

        @Override
        public void executionFinished(final TestIdentifier test, final TestExecutionResult result)
        {
            final Long started = startedNanos.remove(test.getUniqueId());
            final Duration elapsed = Duration.ofNanos(started == null ? 0 : System.nanoTime() - started);
            final String detail = result.getThrowable().map(GuestJUnitMain::stackTrace).orElse("");
            if (test.isTest())
            {
                write(test, GuestTestOutcome.Status.valueOf(result.getStatus().name()), elapsed, detail);
            }
            else if (isClass(test))
            {
                // a class's whole time, its @BeforeAll and @AfterAll with it, which no test's own time holds, and what it cost
                // the guest's CPUs (its processes' and the kernel's too; beside it, what else the guest ran meanwhile)
                final Long busyBefore = startedBusyMillis.remove(test.getUniqueId());
                final long busyAfter = GuestCpuTime.busyMillis();
                System.err.printf("GuestJUnitMain: %s took %d ms, the guest's CPUs busy %s ms%n", test.getDisplayName(), elapsed.toMillis(),
                    busyBefore == null || busyBefore < 0 || busyAfter < 0 ? "?" : Long.toString(busyAfter - busyBefore));
            }
            if (!test.isTest() && result.getStatus() != TestExecutionResult.Status.SUCCESSFUL)
            {
                // a class whose @BeforeAll failed: its tests never start, so the container reports for them
                write(test, GuestTestOutcome.Status.valueOf(result.getStatus().name()), elapsed, detail);
            }
        }

        private static boolean isClass(final TestIdentifier test)
        {
            return test.getSource().filter(ClassSource.class::isInstance).isPresent();
        }

        private void write(final TestIdentifier test, final GuestTestOutcome.Status status, final Duration elapsed, final String detail)
        {
            final String className = test.getSource()
                .map(source -> switch (source)
                {
                    case MethodSource method -> method.getClassName();
                    case ClassSource type -> type.getClassName();
                    default -> source.toString();
                })
                .orElse(test.getUniqueId());
            try
            {
                out.write(new GuestTestOutcome(className, test.getDisplayName(), status, elapsed, detail).toLine());
                out.write('\n');
                out.flush();
            }
            catch (final IOException ex)
            {
                throw new IllegalStateException("cannot write the guest test outcome: " + ex, ex);
            }
        }
    }

    private static String stackTrace(final Throwable throwable)
    {
        final StringWriter text = new StringWriter();
        throwable.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
