package dev.rdmacm.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the {@code rdmacm} command: its exit status and what it printed. */
record CommandRun(int exit, String out, String err)
{
    static CommandRun run(final String... args)
    {
        // as Main.main builds it: only the subcommand the arguments name
        return run(Main.commandLine(args), args);
    }

    static CommandRun run(final CommandLine commandLine, final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        final int exit = commandLine.execute(args);
        return new CommandRun(exit, out.toString(), err.toString());
    }
}
