package dev.rdmacm.libc;

import java.lang.foreign.Arena;

/**
 * Run in a child JVM by {@link LibcTest} with native access denied: prints how an errno is named and
 * what a libc call says, one line each.
 */
public final class LibcDeniedProbe
{
    private LibcDeniedProbe()
    {
    }

    public static void main(final String[] args) throws NativeCallException
    {
        System.out.println(Errno.describe(Errno.ETIMEDOUT));
        try (Arena arena = Arena.ofConfined())
        {
            Libc.close(new Libc.CallState(arena), -1);
            System.out.println("closed");
        }
        catch (final IllegalStateException ex)
        {
            System.out.println(ex.getMessage());
        }
    }
}
