package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rdmacm.libc.Errno;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code rdmacm} command. Exit status: 0 success, 1 a resolution failure, 2 a usage error.
 */
@Command(
    name = "rdmacm",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
        "A pure-Java RDMA connection manager: turns IP addresses and names into RDMA addresses and paths,",
        "as librdmacm and the kernel RDMA CM do, and shows every step."
    },
    subcommands = {CommandLine.HelpCommand.class, GetAddrInfoCommand.class, DevicesCommand.class,
        ResolveAddrCommand.class, ResolveAddrinfoCommand.class, PathCommand.class, ResolveRouteCommand.class, RpingCommand.class, CmtimeCommand.class, DemoCommand.class,
        AcmServerCommand.class})
public final class Main implements Runnable
{
    public static final int EXIT_OK = 0;
    public static final int EXIT_RESOLUTION_FAILURE = 1;
    public static final int EXIT_USAGE = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(final String[] args)
    {
        System.exit(commandLine().execute(args));
    }

    /**
     * The command tree, with the project's exit codes and, instead of stack traces, the one error line
     * of {@link CommandOutput#errorLine}, {@code rdmacm resolve-addr: MESSAGE}, or under {@code --json}
     * the error object: EINVAL for a usage error, EIO for any other failure no errno names.
     */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new Main());
        // the mapper wins over exitCodeOnInvalidInput in picocli, so usage errors must be mapped here too
        commandLine.setExitCodeExceptionMapper(ex -> ex instanceof CommandLine.ParameterException ? EXIT_USAGE : EXIT_RESOLUTION_FAILURE);
        commandLine.getCommandSpec().exitCodeOnInvalidInput(EXIT_USAGE);
        commandLine.setParameterExceptionHandler((ex, args) ->
        {
            final CommandLine cmd = ex.getCommandLine();
            cmd.getErr().println(CommandOutput.errorLine(CommandOutput.name(cmd.getCommandSpec()), message(ex.getMessage())));
            cmd.usage(cmd.getErr());
            return EXIT_USAGE;
        });
        commandLine.setExecutionExceptionHandler((ex, cmd, parseResult) ->
        {
            final boolean usage = ex instanceof IllegalArgumentException;
            final String text = ex.getMessage() == null ? ex.toString() : ex.getMessage();
            final CommandOutput output = CommandOutput.of(cmd.getCommandSpec(), jsonRequested(parseResult));
            if (output.json())
            {
                // a usage error is EINVAL, as a C caller's bad argument; anything else is a failed step
                output.error(JsonOutput.errno(usage ? Errno.EINVAL : Errno.EIO, text));
            }
            else
            {
                output.error(message(text));
            }
            return usage ? EXIT_USAGE : EXIT_RESOLUTION_FAILURE;
        });
        return commandLine;
    }

    private static ObjectNode message(final String text)
    {
        return JsonOutput.MAPPER.createObjectNode().put("message", text);
    }

    /** Whether the command that ran was given {@code --json}. */
    private static boolean jsonRequested(final CommandLine.ParseResult parseResult)
    {
        CommandLine.ParseResult last = parseResult;
        while (last.subcommand() != null)
        {
            last = last.subcommand();
        }
        return last.hasMatchedOption("--json");
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
