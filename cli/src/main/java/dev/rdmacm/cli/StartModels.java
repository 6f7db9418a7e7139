package dev.rdmacm.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * picocli's model of a command built by hand, for the commands whose cold start matters ({@link Main}
 * itself, {@code getaddrinfo}, {@code resolve-addr}, {@code devices}): picocli then reads no annotation.
 * Reading them was half of such a start: the JDK spins a proxy class per annotation type with the
 * ClassFile API on every run, outside the AOT cache. The mixins those commands share with annotated
 * commands keep their annotations and declare the same options here too ({@code model()});
 * {@code StartModelsTest} checks the two are equal, option for option.
 */
final class StartModels
{
    /** picocli's key of the standard help options' mixin (its {@code AutoHelpMixin.KEY}). */
    private static final String STANDARD_HELP = "mixinStandardHelpOptions";

    private StartModels()
    {
    }

    /**
     * {@code -h, --help} and {@code -V, --version}, as {@code mixinStandardHelpOptions = true} adds them
     * (picocli's {@code AutoHelpMixin}, whose names, keys and texts these are), added last as picocli adds them.
     */
    static CommandSpec withStandardHelp(final CommandSpec spec)
    {
        // the mixin's two fields, as AutoHelpMixin has them
        final boolean[] requested = new boolean[2];
        final CommandSpec help = CommandSpec.create();
        help.addOption(flag("helpRequested", OptionValue.of(() -> requested[0], value -> requested[0] = value),
            "${picocli.help.name.0:--h}", "${picocli.help.name.1:---help}")
            .usageHelp(true).descriptionKey("mixinStandardHelpOptions.help").description("Show this help message and exit.").build());
        help.addOption(flag("versionRequested", OptionValue.of(() -> requested[1], value -> requested[1] = value),
            "${picocli.version.name.0:--V}", "${picocli.version.name.1:---version}")
            .versionHelp(true).descriptionKey("mixinStandardHelpOptions.version").description("Print version information and exit.").build());
        return spec.addMixin(STANDARD_HELP, help);
    }

    /** An option of {@code type} named {@code names}, kept in {@code value}, which is also its initial value (an annotated field's). */
    static OptionSpec.Builder option(final Class<?> type, final OptionValue value, final String... names)
    {
        return OptionSpec.builder(names).type(type).getter(value).setter(value).initialValue(value.get()).descriptionKey("");
    }

    /**
     * A boolean option, set when given. Its parameter label is picocli's for an annotated field,
     * {@code <field>}, though no help shows the label of an option without a parameter.
     */
    static OptionSpec.Builder flag(final String field, final OptionValue value, final String... names)
    {
        return option(boolean.class, value, names).paramLabel("<" + field + ">");
    }

    /** The positional parameter at {@code index}, of {@code type}, kept in {@code value}. */
    static PositionalParamSpec.Builder positional(final String index, final Class<?> type, final OptionValue value)
    {
        return PositionalParamSpec.builder().index(index).type(type).getter(value).setter(value).initialValue(value.get())
            .descriptionKey("");
    }
}
