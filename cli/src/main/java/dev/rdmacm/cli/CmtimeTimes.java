package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonArray;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * cmtime's clocks: a start and an end per connection and step ({@code start_perf}/{@code end_perf}), and
 * per step the time from its first start to the moment every connection had finished it
 * ({@code start_time}/{@code end_time}). The ends of event-driven steps are written by the event thread,
 * the rest by the thread that runs the steps; the report is read after both are done.
 * <p>
 * The table is cmtime's to the digit: its clock is {@code gettimeofday}, so times are whole microseconds;
 * its arithmetic is in {@code float}; and glibc's {@code %.2f} rounds the binary value exactly, half to
 * even, where Java's {@code %.2f} would round the shortest decimal half up (2.675 prints 2.67 in C).
 */
final class CmtimeTimes
{
    private static final int STEPS = CmtimeStep.values().length;
    /** cmtime's starting minimum, {@code 999999999.} as a float. */
    private static final float NO_MIN = 999999999.f;

    private final int connections;
    private final LongSupplier nanoClock;
    private final long[] starts;
    private final long[] ends;
    private final long[] stepStarts = new long[STEPS];
    private final long[] stepEnds = new long[STEPS];

    CmtimeTimes(final int connections)
    {
        this(connections, System::nanoTime);
    }

    CmtimeTimes(final int connections, final LongSupplier nanoClock)
    {
        this.connections = connections;
        this.nanoClock = nanoClock;
        this.starts = new long[STEPS * connections];
        this.ends = new long[STEPS * connections];
    }

    void start(final CmtimeStep step)
    {
        stepStarts[step.ordinal()] = nanoClock.getAsLong();
    }

    void end(final CmtimeStep step)
    {
        stepEnds[step.ordinal()] = nanoClock.getAsLong();
    }

    void start(final int connection, final CmtimeStep step)
    {
        starts[step.ordinal() * connections + connection] = nanoClock.getAsLong();
    }

    void end(final int connection, final CmtimeStep step)
    {
        ends[step.ordinal() * connections + connection] = nanoClock.getAsLong();
    }

    /**
     * {@code show_perf}: per step the total, the slowest and the quickest connection, and the total over
     * the connection count; the bind step only when a source address was bound. A connection that never
     * started or ended a step is left out of its max and min, as cmtime leaves out zero times.
     */
    void print(final PrintStream out, final boolean bound)
    {
        out.println("step              total ms     max ms     min us  us / conn");
        for (final CmtimeStep step : CmtimeStep.values())
        {
            if (step == CmtimeStep.BIND && !bound)
            {
                continue;
            }
            float max = 0;
            float min = NO_MIN;
            for (int c = 0; c < connections; c++)
            {
                final int at = step.ordinal() * connections + c;
                if (starts[at] != 0 && ends[at] != 0)
                {
                    final float us = micros(starts[at], ends[at]);
                    max = Math.max(max, us);
                    min = Math.min(min, us);
                }
            }
            out.println(row(step.label(), micros(stepStarts[step.ordinal()], stepEnds[step.ordinal()]), max, min, connections));
        }
    }

    /**
     * The same figures as {@link #print}, one object a step, for {@code --json} (docs/json.md, cmtime):
     * {@code {"step", "total_us", "max_us", "min_us", "us_per_conn", "connections_us": [...]}}, the
     * times whole microseconds as cmtime's clock gives them, {@code us_per_conn} the table's float
     * rounded to two places; a connection that never finished the step is null in
     * {@code connections_us}, and {@code max_us}/{@code min_us} are null when none did.
     */
    JsonArray json(final boolean bound)
    {
        final JsonArray steps = new JsonArray();
        for (final CmtimeStep step : CmtimeStep.values())
        {
            if (step == CmtimeStep.BIND && !bound)
            {
                continue;
            }
            final JsonArray each = new JsonArray();
            Long max = null;
            Long min = null;
            for (int c = 0; c < connections; c++)
            {
                final int at = step.ordinal() * connections + c;
                if (starts[at] != 0 && ends[at] != 0)
                {
                    final long us = (long)micros(starts[at], ends[at]);
                    each.add(us);
                    max = max == null ? us : Math.max(max, us);
                    min = min == null ? us : Math.min(min, us);
                }
                else
                {
                    each.add((String)null);
                }
            }
            final float total = micros(stepStarts[step.ordinal()], stepEnds[step.ordinal()]);
            steps.addObject().put("step", step.name().toLowerCase(Locale.ROOT)).put("total_us", (long)total)
                .put("max_us", max).put("min_us", min).put("us_per_conn", decimal(total / connections))
                .put("connections_us", each);
        }
        return steps;
    }

    /** One row, {@code printf("%-13s: %11.2f%11.2f%11.2f%11.2f\n", ...)} with cmtime's float arguments. */
    static String row(final String label, final float us, final float max, final float min, final int connections)
    {
        return String.format("%-13s: %11s%11s%11s%11s", label, fixed(us / 1000.), fixed(max / 1000.), fixed(min),
            fixed(us / connections));
    }

    /** Clears every clock, for the next round in the same process. */
    void reset()
    {
        Arrays.fill(starts, 0);
        Arrays.fill(ends, 0);
        Arrays.fill(stepStarts, 0);
        Arrays.fill(stepEnds, 0);
    }

    /** {@code diff_us} of two gettimeofday readings: whole microseconds, as a float. */
    private static float micros(final long startNanos, final long endNanos)
    {
        return (float)(Math.floorDiv(endNanos, 1000) - Math.floorDiv(startNanos, 1000));
    }

    /** glibc's {@code %.2f}: the exact binary value rounded half to even. */
    private static String fixed(final double value)
    {
        return decimal(value).toPlainString();
    }

    private static BigDecimal decimal(final double value)
    {
        return new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN);
    }
}
