package dev.rdmacm.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the {@code rdmacm} command: its exit status and what it printed. */
record CommandRun(int exit, String out, String err)
{
    static CommandRun run(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        final int exit = commandLine.execute(args);
        return new CommandRun(exit, out.toString(), err.toString());
    }
}
