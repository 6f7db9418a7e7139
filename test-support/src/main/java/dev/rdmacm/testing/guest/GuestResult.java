package dev.rdmacm.testing.guest;

import java.time.Duration;

/**
 * What a command run in the guest left: its exit status ({@value #TIMED_OUT} when the guest's
 * {@code timeout} killed it), its standard output and error, and how long it took as seen from the host.
 */
public record GuestResult(String command, int exitStatus, String stdout, String stderr, Duration elapsed)
{
    /** GNU timeout's status for a command that outlived its limit. */
    public static final int TIMED_OUT = 124;

    public boolean succeeded()
    {
        return exitStatus == 0;
    }

    /** This result, or an AssertionError with the command, its status and both outputs. */
    public GuestResult orFail()
    {
        if (!succeeded())
        {
            throw new AssertionError(describe());
        }
        return this;
    }

    public String describe()
    {
        return "guest command exited " + exitStatus + (exitStatus == TIMED_OUT ? " (timed out)" : "") + " after "
            + elapsed.toMillis() + " ms: " + command + "\n--- stdout ---\n" + stdout + "--- stderr ---\n" + stderr;
    }
}
