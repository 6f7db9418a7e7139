package dev.rdmacm.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The mixins that the hand-built commands ({@link StartModels}) share with annotated commands are declared
 * twice, by annotations and in {@code model()}: picocli's reading of the annotations is the peer, and every
 * property of every option and parameter must be the same in both.
 */
@Timeout(30)
class StartModelsTest
{
    @CommandLine.Command(mixinStandardHelpOptions = true)
    static final class WithStandardHelp
    {
    }

    static Stream<Arguments> mixins()
    {
        return Stream.of(
            mixin(JsonOption::new, JsonOption::model),
            mixin(NodeServiceArguments::new, NodeServiceArguments::model),
            mixin(AddrInfoHintOptions::new, AddrInfoHintOptions::model),
            mixin(TimeoutOption::new, TimeoutOption::model),
            mixin(TraceOption::new, TraceOption::model),
            mixin(FabricOption::new, FabricOption::model),
            mixin(HostsOption::new, HostsOption::model),
            mixin(AddressOptions::new, AddressOptions::model));
    }

    private static <T> Arguments mixin(final java.util.function.Supplier<T> make, final Function<T, CommandSpec> model)
    {
        final T annotated = make.get();
        return Arguments.of(annotated.getClass().getSimpleName(), CommandSpec.forAnnotatedObject(annotated), model.apply(make.get()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("mixins")
    void shouldDeclareEveryOptionAsTheMixinsAnnotationsDo(final String name, final CommandSpec annotated, final CommandSpec model)
    {
        assertEquals(describe(annotated), describe(model), name);
    }

    @Test
    void shouldAddTheStandardHelpOptionsAsPicocliDoes()
    {
        final CommandSpec annotated = CommandSpec.forAnnotatedObject(new WithStandardHelp());
        final CommandSpec model = StartModels.withStandardHelp(CommandSpec.create());

        assertEquals(describe(annotated), describe(model));
        assertEquals(List.copyOf(annotated.mixins().keySet()), List.copyOf(model.mixins().keySet()));
    }

    /** Every property picocli keeps of each option and positional parameter, and the mixins' names, nested ones included. */
    private static List<String> describe(final CommandSpec spec)
    {
        final List<String> lines = new ArrayList<>();
        spec.options().forEach(option -> lines.add(describe(option)));
        spec.positionalParameters().forEach(parameter -> lines.add(describe(parameter)));
        spec.mixins().forEach((name, mixin) -> lines.add("mixin " + name + ": " + describe(mixin)));
        return lines;
    }

    private static String describe(final ArgSpec arg)
    {
        final Map<String, Object> properties = new java.util.LinkedHashMap<>();
        if (arg instanceof OptionSpec option)
        {
            properties.put("names", List.of(option.names()));
            properties.put("usageHelp", option.usageHelp());
            properties.put("versionHelp", option.versionHelp());
            properties.put("negatable", option.negatable());
            properties.put("fallbackValue", option.fallbackValue());
            properties.put("order", option.order());
        }
        if (arg instanceof PositionalParamSpec positional)
        {
            properties.put("index", positional.index());
        }
        properties.put("paramLabel", arg.paramLabel());
        properties.put("hideParamSyntax", arg.hideParamSyntax());
        properties.put("arity", arg.arity());
        properties.put("type", arg.type());
        properties.put("auxiliaryTypes", List.of(arg.auxiliaryTypes()));
        properties.put("multiValue", arg.isMultiValue());
        properties.put("required", arg.required());
        properties.put("defaultValue", arg.defaultValue());
        properties.put("initialValue", arg.initialValue());
        properties.put("hasInitialValue", arg.hasInitialValue());
        properties.put("value", arg.getValue());
        properties.put("description", List.of(arg.description()));
        properties.put("descriptionKey", arg.descriptionKey());
        properties.put("hidden", arg.hidden());
        properties.put("interactive", arg.interactive());
        properties.put("splitRegex", arg.splitRegex());
        properties.put("showDefaultValue", arg.showDefaultValue());
        properties.put("converters", Arrays.stream(arg.converters()).map(converter -> converter.getClass().getName()).toList());
        properties.put("scopeType", arg.scopeType());
        properties.put("inherited", arg.inherited());
        properties.put("parameterConsumer", arg.parameterConsumer());
        return properties.toString();
    }
}
