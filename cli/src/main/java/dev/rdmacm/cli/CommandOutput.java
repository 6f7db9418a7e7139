package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonIndent;
import dev.rdmacm.cli.json.JsonObject;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.util.function.Consumer;

/**
 * The one renderer of every command's output, text and {@code --json} alike: results, errors and
 * traces. A command builds trees with {@link JsonOutput} and hands them here; this class decides
 * where and in which form they go.
 * <ul>
 * <li>a result is one JSON line on stdout, or the command's own text on stdout;</li>
 * <li>an error is the JSON error object on stdout, or one line on stderr in the one text format of
 * {@link #errorLine}: {@code rdmacm resolve-addr: ADDR_ERROR ETIMEDOUT (-110): MESSAGE};</li>
 * <li>a trace is the {@code "steps"}/{@code "route_steps"}/{@code "transitions"} keys of the JSON
 * object, or the same sections as text on stdout (before the error line of a failure).</li>
 * </ul>
 */
final class CommandOutput
{
    private final String command;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean json;
    private final boolean pretty;

    private CommandOutput(final String command, final PrintWriter out, final PrintWriter err, final boolean json,
        final boolean pretty)
    {
        this.command = command;
        this.out = out;
        this.err = err;
        this.json = json;
        this.pretty = pretty;
    }

    /** The output of the command {@code spec} describes, in JSON when {@code json}, indented when it was given {@code --pretty}. */
    static CommandOutput of(final CommandLine.Model.CommandSpec spec, final boolean json)
    {
        final CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        return of(spec, json, parsed != null && parsed.hasMatchedOption("--pretty"));
    }

    static CommandOutput of(final CommandLine.Model.CommandSpec spec, final boolean json, final boolean pretty)
    {
        return new CommandOutput(name(spec), spec.commandLine().getOut(), spec.commandLine().getErr(), json || pretty, pretty);
    }

    /** {@code rdmacm} and the subcommand's names ({@code rdmacm fabric start}), also for a subcommand run on its own (as tests do). */
    static String name(final CommandLine.Model.CommandSpec spec)
    {
        if (spec.userObject() instanceof Main)
        {
            return "rdmacm";
        }
        final CommandLine.Model.CommandSpec parent = spec.parent();
        return (parent == null || parent.userObject() instanceof Main ? "rdmacm" : name(parent)) + " " + spec.name();
    }

    boolean json()
    {
        return json;
    }

    /** A success: {@code tree} as one JSON line, or {@code text} written to stdout. Returns {@link Main#EXIT_OK}. */
    int result(final JsonObject tree, final Consumer<PrintWriter> text)
    {
        if (json)
        {
            print(tree);
        }
        else
        {
            text.accept(out);
            out.flush();
        }
        return Main.EXIT_OK;
    }

    /** A success with a trace: its keys join {@code tree}, or its sections follow {@code text}. */
    int result(final JsonObject tree, final Consumer<PrintWriter> text, final Trace trace)
    {
        return result(trace == null ? tree : trace.addTo(tree), text.andThen(trace == null ? ignored -> { } : trace::print));
    }

    /** A failure: the error object on stdout, or its {@link #errorLine} on stderr. Returns {@link Main#EXIT_RESOLUTION_FAILURE}. */
    int error(final JsonObject error)
    {
        if (json)
        {
            print(error);
        }
        else
        {
            err.println(errorLine(command, error));
            err.flush();
        }
        return Main.EXIT_RESOLUTION_FAILURE;
    }

    private void print(final JsonObject tree)
    {
        out.println(pretty ? JsonIndent.indent(tree.toJson()) : tree.toJson());
        out.flush();
    }

    /** A failure with the trace of what ran before it: in the error object, or as text before the error line. */
    int error(final JsonObject error, final Trace trace)
    {
        if (trace != null)
        {
            if (json)
            {
                trace.addTo(error);
            }
            else
            {
                trace.print(out);
                out.flush();
            }
        }
        return error(error);
    }

    /**
     * The text form of an error object, the same in every command: {@code COMMAND: [WHERE ]NAME (N): MESSAGE}.
     * WHERE is the failure event ({@code ADDR_ERROR}), else the failed call ({@code rdma_resolve_addr}),
     * else the SA's status ({@code NO_RECORDS}); N is the event's status (-errno) when there is an event,
     * else the code. Without a NAME (a usage error) it is {@code COMMAND: MESSAGE}.
     */
    static String errorLine(final String command, final JsonObject error)
    {
        final StringBuilder line = new StringBuilder(command).append(": ");
        if (error.hasNonNull("error"))
        {
            final String where = error.hasNonNull("event") ? error.text("event") :
                error.hasNonNull("call") ? error.text("call") :
                error.hasNonNull("sa_error") ? error.text("sa_error") : null;
            if (where != null)
            {
                line.append(where).append(' ');
            }
            final int number = error.hasNonNull("event") ? error.intValue("status") : error.intValue("code");
            line.append(error.text("error")).append(" (").append(number).append("): ");
        }
        final String message = error.text("message");
        return line.append(message == null ? "" : message).toString();
    }
}
