package dev.rdmacm.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;
import java.util.List;

import static dev.rdmacm.cli.CommandRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class MainTest
{
    @Test
    void shouldKeyEverySubcommandByTheNameItsCommandAnnotationGives()
    {
        assertEquals(Main.SUBCOMMANDS, List.copyOf(Main.commandLine().getSubcommands().keySet()));
    }

    @Test
    void shouldBuildOnlyTheSubcommandTheArgumentsName()
    {
        assertEquals(List.of("getaddrinfo"),
            List.copyOf(Main.commandLine(new String[] {"getaddrinfo", "127.0.0.1"}).getSubcommands().keySet()));
    }

    @Test
    void shouldBuildTheWholeTreeForHelpAndForWhatNamesNoSubcommand()
    {
        for (final String[] args : List.of(new String[] {"help", "devices"}, new String[] {"--help"}, new String[] {"no-such-command"}, new String[0]))
        {
            assertEquals(Main.SUBCOMMANDS, List.copyOf(Main.commandLine(args).getSubcommands().keySet()), String.join(" ", args));
        }
    }

    @Test
    void shouldPrintTheSameUsageErrorWithOneSubcommandAsWithTheWholeTree()
    {
        final String[] args = {"getaddrinfo", "--no-such-option"};

        final CommandRun whole = run(Main.commandLine(), args);
        final CommandRun one = run(Main.commandLine(args), args);

        assertTrue(whole.err().contains("rdmacm getaddrinfo: Unknown option: '--no-such-option'"), whole.err());
        assertEquals(whole, one);
    }

    @Test
    void shouldRefuseABareRdmacmAsAUsageErrorWithTheUsageOnStderr()
    {
        final CommandRun run = run();

        assertEquals(Main.EXIT_USAGE, run.exit());
        assertEquals("", run.out());
        assertTrue(run.err().startsWith("rdmacm: missing COMMAND: give one of the commands below, or --help\nUsage: rdmacm "), run.err());
    }

    @Test
    void shouldShowEveryCommandsHelpForDashHAndForDashDashHelp()
    {
        for (final String name : Main.SUBCOMMANDS)
        {
            for (final String option : List.of("-h", "--help"))
            {
                final CommandRun run = run(name, option);

                assertEquals(0, run.exit(), name + " " + option + ": " + run.err());
                // picocli's help command puts its description first
                assertTrue(name.equals("help") ? run.out().contains("\nUsage: rdmacm help ") : run.out().startsWith("Usage: rdmacm " + name + " "),
                    name + " " + option + ": " + run.out());
            }
        }
    }

    @Test
    void shouldListEverySubcommandInTheUsageHelp()
    {
        final String out = run("--help").out();

        for (final String name : Main.SUBCOMMANDS)
        {
            assertTrue(out.contains("\n  " + name + " "), name + " in:\n" + out);
        }
    }

    @Test
    void shouldGiveEveryOptionOneParagraphSoThatItsHelpLinesLineUp()
    {
        // picocli starts each element of an option's description at the option column, not indented under it
        for (final CommandLine command : Main.commandLine().getSubcommands().values())
        {
            for (final CommandLine.Model.OptionSpec option : command.getCommandSpec().options())
            {
                assertTrue(option.description().length <= 1,
                    command.getCommandName() + " " + option.longestName() + ": " + List.of(option.description()));
            }
        }
    }
}
