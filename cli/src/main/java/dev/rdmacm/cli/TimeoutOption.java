package dev.rdmacm.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * {@code --timeout-ms N} (picocli mixin): the timeout of each resolution step, or of a whole SA query with its retries, 2000 ms by
 * default. Each command says which values it accepts through {@link #atLeast(int)}.
 */
final class TimeoutOption
{
    private static final String TIMEOUT = "timeout in milliseconds of each resolution step, or of a whole SA query with its retries "
        + "(default ${DEFAULT-VALUE})";

    @Option(names = "--timeout-ms", paramLabel = "N", defaultValue = "2000", description = TIMEOUT)
    int timeoutMs;

    /** The option above as a mixin built by hand ({@link StartModels}). */
    CommandSpec model()
    {
        return CommandSpec.create().addOption(StartModels.option(int.class, OptionValue.of(() -> timeoutMs, value -> timeoutMs = value),
            "--timeout-ms").paramLabel("N").defaultValue("2000").description(TIMEOUT).build());
    }

    /** The timeout; below {@code min} it is a usage error naming the option and the rule. */
    int atLeast(final int min)
    {
        if (timeoutMs < min)
        {
            throw new IllegalArgumentException("--timeout-ms " + timeoutMs + ": must be " +
                (min == 0 ? "0 or more" : "at least " + min));
        }
        return timeoutMs;
    }
}
