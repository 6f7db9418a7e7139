package dev.rdmacm.cli;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every command's {@code --help}, as picocli renders it from the annotations: each line of a command's
 * description is whole sentences (a line is a line of the help, so a sentence split over two of them
 * breaks mid-sentence), and picocli's wrapping breaks a description only between words (it may break
 * after a '.' or ':' inside a token such as {@code ibacm.pid}, so such a token must not reach a line's
 * end: an explicit {@code %n} puts it on a line of its own).
 */
@Timeout(30)
class HelpTextTest
{
    static Stream<String> commands()
    {
        return Stream.concat(Stream.of("rdmacm"), Main.SUBCOMMANDS.stream().filter(name -> !name.equals("help")));
    }

    private static CommandLine command(final String name)
    {
        final CommandLine main = Main.commandLine();
        return name.equals("rdmacm") ? main : main.getSubcommands().get(name);
    }

    /** The description texts of the command, its options and its positional parameters, as written. */
    private static List<String> descriptions(final CommandLine.Model.CommandSpec spec)
    {
        final List<String> texts = new ArrayList<>(List.of(spec.usageMessage().description()));
        spec.options().forEach(option -> texts.addAll(List.of(option.description())));
        spec.positionalParameters().forEach(parameter -> texts.addAll(List.of(parameter.description())));
        return texts;
    }

    @ParameterizedTest
    @MethodSource("commands")
    void shouldWriteEveryDescriptionLineAsWholeSentences(final String name)
    {
        final List<String> broken = new ArrayList<>();
        for (final String line : command(name).getCommandSpec().usageMessage().description())
        {
            if (!line.endsWith(".") && !line.endsWith(":"))
            {
                broken.add(line);
            }
        }

        assertEquals(List.of(), broken, name + ": description lines that end mid-sentence");
    }

    @ParameterizedTest
    @MethodSource("commands")
    void shouldWrapDescriptionsOnlyBetweenWords(final String name)
    {
        final CommandLine commandLine = command(name);
        final List<String> lines = commandLine.getUsageMessage(CommandLine.Help.Ansi.OFF).lines().map(String::strip).toList();
        final List<String> split = new ArrayList<>();
        for (final String text : descriptions(commandLine.getCommandSpec()))
        {
            for (final String word : text.replace("%%", "%").split("\\s+|%n"))
            {
                // ${...} is picocli's, expanded in the help; a word is whole when a line holds it
                if (!word.isEmpty() && !word.contains("${") && !word.contains("%") && lines.stream().noneMatch(line -> line.contains(word)))
                {
                    split.add(word);
                }
            }
        }

        assertEquals(List.of(), split, name + ": words the help breaks across two lines");
    }
}
