package dev.rdmacm.cli;

import picocli.CommandLine.Option;

/** {@code --json}, the same option on every command that has a JSON form (picocli mixin). */
final class JsonOption
{
    @Option(names = "--json", description = "print one JSON object instead of text")
    boolean json;
}
