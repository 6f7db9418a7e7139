package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rdmacm.libc.Errno;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

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
    })
public final class Main implements Runnable
{
    public static final int EXIT_OK = 0;
    public static final int EXIT_RESOLUTION_FAILURE = 1;
    public static final int EXIT_USAGE = 2;

    /**
     * Every subcommand by its {@code @Command} name, in the order of the usage help. A table rather than
     * the annotation's {@code subcommands}: picocli reflects over every command it is given, options,
     * mixins, converters and all, which was most of a cold start; a run names one subcommand, and
     * {@link #commandLine(String[])} gives picocli only that one.
     */
    static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(final String[] args)
    {
        System.exit(commandLine(args).execute(args));
    }

    private static Map<String, Supplier<Object>> subcommands()
    {
        final Map<String, Supplier<Object>> subcommands = new LinkedHashMap<>();
        subcommands.put("help", CommandLine.HelpCommand::new);
        subcommands.put("getaddrinfo", GetAddrInfoCommand::new);
        subcommands.put("devices", DevicesCommand::new);
        subcommands.put("resolve-addr", ResolveAddrCommand::new);
        subcommands.put("resolve-addrinfo", ResolveAddrinfoCommand::new);
        subcommands.put("path", PathCommand::new);
        subcommands.put("resolve-route", ResolveRouteCommand::new);
        subcommands.put("rping", RpingCommand::new);
        subcommands.put("cmtime", CmtimeCommand::new);
        subcommands.put("demo", DemoCommand::new);
        subcommands.put("acm-server", AcmServerCommand::new);
        return Collections.unmodifiableMap(subcommands);
    }

    /**
     * The command tree for {@code args}: with only the subcommand {@code args[0]} names, when it names one
     * (its options, usage and errors are all that run can show), else the whole tree of {@link #commandLine()}.
     * {@code help} needs the whole tree, since {@code help NAME} shows another subcommand's usage.
     */
    public static CommandLine commandLine(final String[] args)
    {
        if (args.length > 0 && !args[0].equals("help") && SUBCOMMANDS.containsKey(args[0]))
        {
            return commandLine(Map.of(args[0], SUBCOMMANDS.get(args[0])));
        }
        return commandLine();
    }

    /** The whole command tree, every subcommand in it. */
    public static CommandLine commandLine()
    {
        return commandLine(SUBCOMMANDS);
    }

    /**
     * The command tree with {@code subcommands}, with the project's exit codes and, instead of stack traces, the one error line
     * of {@link CommandOutput#errorLine}, {@code rdmacm resolve-addr: MESSAGE}, or under {@code --json}
     * the error object: EINVAL for a usage error, EIO for any other failure no errno names.
     */
    private static CommandLine commandLine(final Map<String, Supplier<Object>> subcommands)
    {
        final CommandLine commandLine = new CommandLine(new Main());
        subcommands.values().forEach(subcommand -> commandLine.addSubcommand(subcommand.get()));
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
