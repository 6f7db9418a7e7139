package dev.rdmacm.acm;

import java.io.PrintStream;

/**
 * The process-wide rule of a process that runs the service: an {@link Error} that escapes any thread
 * (the SA client's, a back-end's) ends the process with {@link AcmServer#EXIT_FATAL} and one line, as
 * an Error on the server's own thread does, never a process that lives on with a thread gone. The exit
 * runs the shutdown hooks, so the server still closes and removes its files. Any other uncaught
 * exception costs its thread only, and is said in one line.
 */
public final class AcmUncaughtErrors
{
    private AcmUncaughtErrors()
    {
    }

    /** Installs the rule as the default uncaught exception handler; lines start with {@code name}. */
    public static void exitOnError(final String name, final PrintStream err)
    {
        Thread.setDefaultUncaughtExceptionHandler((thread, error) ->
        {
            if (error instanceof Error)
            {
                err.println(name + ": fatal: " + error + " on thread " + thread.getName());
                err.flush();
                System.exit(AcmServer.EXIT_FATAL);
            }
            err.println(name + ": " + error + " on thread " + thread.getName() + "; the thread ends");
        });
    }
}
