package dev.rdmacm.cli;

import picocli.CommandLine.Option;

/** {@code --trace}: every step and id state transition with its time (picocli mixin). */
final class TraceOption
{
    @Option(names = "--trace", description = "print every step and id state transition with timestamps")
    boolean trace;
}
