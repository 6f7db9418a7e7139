package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.libc.Errno;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;

/**
 * The {@code rdmacm} command. Exit status: 0 success, 1 a resolution failure, 2 a usage error. Its model
 * is built by hand, as are those of the commands whose start matters ({@link StartModels}); the other
 * subcommands are annotated classes.
 */
public final class Main implements Runnable
{
    public static final int EXIT_OK = 0;
    public static final int EXIT_RESOLUTION_FAILURE = 1;
    public static final int EXIT_USAGE = 2;

    /**
     * Every subcommand's {@code @Command} name, in the order of the usage help; {@link #subcommand} makes
     * each. Not the annotation's {@code subcommands}: picocli reflects over every command it is given,
     * options, mixins, converters and all, which was most of a cold start; a run names one subcommand,
     * and {@link #commandLine(String[])} gives picocli only that one.
     */
    static final List<String> SUBCOMMANDS = List.of("help", "getaddrinfo", "devices", "resolve-addr",
        "resolve-addrinfo", "path", "resolve-route", "rping", "cmtime", "mckey", "demo", "fabric", "acm-server");

    private CommandSpec spec;

    public static void main(final String[] args)
    {
        System.exit(commandLine(args).execute(args));
    }

    /** The subcommand named {@code name}, one of {@link #SUBCOMMANDS}: a switch, since a table of lambdas spins a class for each at start. */
    private static Object subcommand(final String name)
    {
        return switch (name)
        {
            case "help" -> new CommandLine.HelpCommand();
            case "getaddrinfo" -> new GetAddrInfoCommand().model();
            case "devices" -> new DevicesCommand().model();
            case "resolve-addr" -> new ResolveAddrCommand().model();
            case "resolve-addrinfo" -> new ResolveAddrinfoCommand();
            case "path" -> new PathCommand();
            case "resolve-route" -> new ResolveRouteCommand();
            case "rping" -> new RpingCommand();
            case "cmtime" -> new CmtimeCommand();
            case "mckey" -> new McKeyCommand();
            case "demo" -> new DemoCommand();
            case "fabric" -> new FabricCommand();
            case "acm-server" -> new AcmServerCommand();
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    /**
     * The command tree for {@code args}: with only the subcommand {@code args[0]} names, when it names one
     * (its options, usage and errors are all that run can show), else the whole tree of {@link #commandLine()}.
     * {@code help} needs the whole tree, since {@code help NAME} shows another subcommand's usage.
     */
    public static CommandLine commandLine(final String[] args)
    {
        if (args.length > 0 && !args[0].equals("help") && SUBCOMMANDS.contains(args[0]))
        {
            return commandLine(List.of(args[0]));
        }
        return commandLine();
    }

    /** The whole command tree, every subcommand in it. */
    public static CommandLine commandLine()
    {
        return commandLine(SUBCOMMANDS);
    }

    /**
     * The command tree with {@code subcommands}, with the project's exit codes and, instead of stack
     * traces, the one error line of {@link CommandOutput#errorLine}, {@code rdmacm resolve-addr: MESSAGE},
     * or under {@code --json} the error object on stdout (and nothing on stderr), parse errors included:
     * EINVAL for a usage error, EIO for any other failure no errno names; the exit status is the same
     * with and without {@code --json}.
     */
    private static CommandLine commandLine(final List<String> subcommands)
    {
        final CommandLine commandLine = new CommandLine(new Main().model());
        for (final String name : subcommands)
        {
            commandLine.addSubcommand(subcommand(name));
        }
        // the mapper wins over exitCodeOnInvalidInput in picocli, so usage errors must be mapped here too
        commandLine.setExitCodeExceptionMapper(ex -> ex instanceof CommandLine.ParameterException ? EXIT_USAGE : EXIT_RESOLUTION_FAILURE);
        commandLine.getCommandSpec().exitCodeOnInvalidInput(EXIT_USAGE);
        commandLine.setParameterExceptionHandler((ex, args) ->
        {
            final CommandLine cmd = ex.getCommandLine();
            if (jsonRequested(args))
            {
                // picocli stopped before it set --json, so the words decide: the error object and nothing else
                CommandOutput.of(cmd.getCommandSpec(), true, List.of(args).contains("--pretty"))
                    .error(JsonOutput.errno(Errno.EINVAL, ex.getMessage()));
            }
            else
            {
                cmd.getErr().println(CommandOutput.errorLine(CommandOutput.name(cmd.getCommandSpec()), message(ex.getMessage())));
                cmd.usage(cmd.getErr());
            }
            // the command's own: 2, but rping's EINVAL (22), as rping(1) returns
            return cmd.getCommandSpec().exitCodeOnInvalidInput();
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
            return usage ? cmd.getCommandSpec().exitCodeOnInvalidInput() : EXIT_RESOLUTION_FAILURE;
        });
        return commandLine;
    }

    /** The top command's model, by hand ({@link StartModels}). */
    private CommandSpec model()
    {
        spec = CommandSpec.wrapWithoutInspection(this).name("rdmacm").versionProvider(new VersionProvider());
        spec.usageMessage().description("A pure-Java RDMA connection manager: turns IP addresses and names into RDMA addresses and paths, "
            + "as librdmacm and the kernel RDMA CM do, and shows every step.");
        return StartModels.withStandardHelp(spec);
    }

    private static JsonObject message(final String text)
    {
        return new JsonObject().put("message", text);
    }

    /** Whether {@code --json} or {@code --pretty} is one of the words before {@code --}, the end of the options. */
    static boolean jsonRequested(final String[] args)
    {
        for (final String arg : args)
        {
            if (arg.equals("--"))
            {
                return false;
            }
            if (arg.equals("--json") || arg.equals("--pretty"))
            {
                return true;
            }
        }
        return false;
    }

    /** Whether the command that ran was given {@code --json}. */
    private static boolean jsonRequested(final CommandLine.ParseResult parseResult)
    {
        CommandLine.ParseResult last = parseResult;
        while (last.subcommand() != null)
        {
            last = last.subcommand();
        }
        return last.hasMatchedOption("--json") || last.hasMatchedOption("--pretty");
    }

    /** Bare {@code rdmacm}: a usage error, the usage on stderr, as for any other missing argument. */
    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing COMMAND: give one of the commands below, "
            + "or --help");
    }
}
