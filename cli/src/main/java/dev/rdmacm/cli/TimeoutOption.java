package dev.rdmacm.cli;

import picocli.CommandLine.Option;

/**
 * {@code --timeout-ms N} (picocli mixin): the timeout of each resolution step, or of a whole SA query with its retries, 2000 ms by
 * default. Each command says which values it accepts through {@link #atLeast(int)}.
 */
final class TimeoutOption
{
    @Option(names = "--timeout-ms", paramLabel = "N", defaultValue = "2000",
        description = "timeout in milliseconds of each resolution step, or of a whole SA query with its retries (default ${DEFAULT-VALUE})")
    int timeoutMs;

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
