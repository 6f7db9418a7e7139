package dev.rdmacm.cli;

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
        ResolveAddrCommand.class, PathCommand.class, ResolveRouteCommand.class, DemoCommand.class,
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

    /** The command tree, with the project's exit codes and one-line errors instead of stack traces. */
    public static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new Main());
        // the mapper wins over exitCodeOnInvalidInput in picocli, so usage errors must be mapped here too
        commandLine.setExitCodeExceptionMapper(ex -> ex instanceof CommandLine.ParameterException ? EXIT_USAGE : EXIT_RESOLUTION_FAILURE);
        commandLine.getCommandSpec().exitCodeOnInvalidInput(EXIT_USAGE);
        commandLine.setExecutionExceptionHandler((ex, cmd, parseResult) ->
        {
            cmd.getErr().println("rdmacm: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            return ex instanceof IllegalArgumentException ? EXIT_USAGE : EXIT_RESOLUTION_FAILURE;
        });
        return commandLine;
    }

    @Override
    public void run()
    {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
