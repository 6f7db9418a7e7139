package dev.rdmacm.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** {@code --trace}: every step and id state transition with its time (picocli mixin). */
final class TraceOption
{
    private static final String TRACE = "print every step and id state transition with timestamps";

    @Option(names = "--trace", description = TRACE)
    boolean trace;

    /** The option above as a mixin built by hand ({@link StartModels}). */
    CommandSpec model()
    {
        return CommandSpec.create().addOption(StartModels.flag("trace", OptionValue.of(() -> trace, value -> trace = value), "--trace")
            .description(TRACE).build());
    }
}
