package dev.rdmacm.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

import static dev.rdmacm.cli.StartModels.flag;

/**
 * {@code --json} and {@code --pretty}, the same options on every command that has a JSON form (picocli
 * mixin). {@code --pretty} is {@code --json} indented ({@link CommandOutput} asks the parse result).
 */
final class JsonOption
{
    private static final String JSON = "print one JSON object instead of text (docs/json.md)";
    private static final String PRETTY = "--json, indented as ip -j -p indents it";

    @Option(names = "--json", description = JSON)
    boolean json;

    @Option(names = "--pretty", description = PRETTY)
    void pretty(final boolean pretty)
    {
        json |= pretty;
    }

    /** The options above as a mixin built by hand ({@link StartModels}). */
    CommandSpec model()
    {
        return CommandSpec.create()
            .addOption(flag("json", OptionValue.of(() -> json, value -> json = value), "--json").description(JSON).build())
            // a setter method, whose binding picocli neither resets nor reads before it is called: no initial value
            .addOption(flag("pretty", OptionValue.of(() -> null, this::pretty), "--pretty").hasInitialValue(false).description(PRETTY).build());
    }
}
