package dev.rdmacm.libc;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The calling process's effective capabilities, from the {@code CapEff} line of
 * {@code /proc/self/status}: what the kernel checks with {@code capable()} for this process.
 */
public final class ProcessCapabilities
{
    /** {@code CAP_NET_BIND_SERVICE}: bind ports below 1024. */
    public static final int CAP_NET_BIND_SERVICE = 10;
    /** {@code CAP_NET_RAW}. */
    public static final int CAP_NET_RAW = 13;
    private static final Path STATUS = Path.of("/proc/self/status");

    private ProcessCapabilities()
    {
    }

    /** Whether {@code capability} is in the effective set; false when /proc cannot be read. */
    public static boolean effective(final int capability)
    {
        try
        {
            for (final String line : ProcFile.read(STATUS).split("\n"))
            {
                if (line.startsWith("CapEff:"))
                {
                    return (Long.parseUnsignedLong(line.substring("CapEff:".length()).trim(), 16) >>> capability & 1) != 0;
                }
            }
        }
        catch (final IOException | NumberFormatException ignored)
        {
            // No /proc (or an unreadable line): report the capability missing, as an unprivileged process.
        }
        return false;
    }
}
