package dev.rdmacm.cm.kernel;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The {@code rdmacm} command run in the test's own JVM ({@code Main}'s command line, as the installed command
 * runs it), for the kernel guest's cases: a JVM of its own takes tens of seconds to start in a TCG guest.
 */
final class RdmacmInThisJvm
{
    private RdmacmInThisJvm()
    {
    }

    /** {@code rdmacm ARGS...}, its stdout and stderr into {@code output}; its exit status. */
    static int run(final ByteArrayOutputStream output, final String... args)
    {
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        final PrintStream capture = new PrintStream(output, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        try
        {
            return dev.rdmacm.cli.Main.commandLine().execute(args);
        }
        finally
        {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
