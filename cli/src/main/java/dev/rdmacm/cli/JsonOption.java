package dev.rdmacm.cli;

import picocli.CommandLine.Option;

/**
 * {@code --json} and {@code --pretty}, the same options on every command that has a JSON form (picocli
 * mixin). {@code --pretty} is {@code --json} indented ({@link CommandOutput} asks the parse result).
 */
final class JsonOption
{
    @Option(names = "--json", description = "print one JSON object instead of text (docs/json.md)")
    boolean json;

    @Option(names = "--pretty", description = "--json, indented as ip -j -p indents it")
    void pretty(final boolean pretty)
    {
        json |= pretty;
    }
}
