package dev.rdmacm.acm;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The service log, with ibacm's {@code log_file} ({@code stdout}, {@code stderr} or a path, appended
 * to) and {@code log_level} (0 errors and start-up, 1 adds per-client events, 2 adds every request).
 */
public final class AcmLog implements AutoCloseable
{
    private final PrintStream out;
    private final int level;
    private final boolean owned;

    public AcmLog(final PrintStream out, final int level)
    {
        this.out = out;
        this.level = level;
        this.owned = false;
    }

    private AcmLog(final PrintStream out, final int level, final boolean owned)
    {
        this.out = out;
        this.level = level;
        this.owned = owned;
    }

    /** Opens the log that {@code log_file} names. */
    public static AcmLog open(final String logFile, final int level) throws IOException
    {
        if ("stdout".equalsIgnoreCase(logFile))
        {
            return new AcmLog(System.out, level, false);
        }
        if ("stderr".equalsIgnoreCase(logFile))
        {
            return new AcmLog(System.err, level, false);
        }
        return new AcmLog(new PrintStream(new FileOutputStream(logFile, true), true, StandardCharsets.UTF_8), level, true);
    }

    public boolean enabled(final int messageLevel)
    {
        return messageLevel <= level;
    }

    public void log(final int messageLevel, final String message)
    {
        if (messageLevel <= level)
        {
            out.println(Instant.now() + " acm: " + message);
        }
    }

    @Override
    public void close()
    {
        if (owned)
        {
            out.close();
        }
        else
        {
            out.flush();
        }
    }
}
