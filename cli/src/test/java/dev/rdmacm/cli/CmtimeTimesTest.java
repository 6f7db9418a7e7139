package dev.rdmacm.cli;

import dev.rdmacm.testing.CProgram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** cmtime's table, against glibc's printf compiled by gcc with cmtime's format and float arithmetic. */
@Timeout(60)
class CmtimeTimesTest
{
    /** Microsecond values, among them ones whose shortest decimal and exact binary round differently. */
    private static final float[][] ROWS = {
        {2675, 2675, 1, 100}, {125, 0.125f, 0.125f, 1}, {1234567, 98765, 3, 100}, {5, 5, 5, 1000}, {2155, 1005, 1005, 7},
        {999999, 999999, 999999999.f, 3}};

    @Test
    void shouldFormatEveryRowAsCmtimesPrintfDoes()
    {
        final StringBuilder c = new StringBuilder("#include <stdio.h>\nint main(void) {\n");
        final List<String> ours = new ArrayList<>();
        for (final float[] row : ROWS)
        {
            c.append(String.format("  { float us = %sf, max = %sf, min = %sf; int n = %d;%n"
                + "    printf(\"%%-13s: %%11.2f%%11.2f%%11.2f%%11.2f\\n\", \"resolve route\", us / 1000., max / 1000., min, us / n); }%n",
                Float.toString(row[0]), Float.toString(row[1]), Float.toString(row[2]), (int)row[3]));
            ours.add(CmtimeTimes.row("resolve route", row[0], row[1], row[2], (int)row[3]));
        }
        c.append("  return 0;\n}\n");
        assertEquals(CProgram.compileAndRun(c.toString()).lines().toList(), ours);
    }

    @Test
    void shouldPrintTheHeaderAndOneRowPerStepWithoutBindWhenNothingWasBound()
    {
        final long[] now = {0};
        final CmtimeTimes times = new CmtimeTimes(2, () -> now[0]);
        for (final CmtimeStep step : CmtimeStep.values())
        {
            now[0] += 1_000_000;
            times.start(step);
            times.start(0, step);
            times.start(1, step);
            now[0] += 3_000_000;
            times.end(0, step);
            now[0] += 4_000_000;
            times.end(1, step);
            times.end(step);
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        times.print(new PrintStream(bytes, true, StandardCharsets.US_ASCII), false);
        final List<String> lines = bytes.toString(StandardCharsets.US_ASCII).lines().toList();
        assertEquals("step              total ms     max ms     min us  us / conn", lines.get(0));
        assertEquals(List.of("create id", "resolve addr", "resolve route", "create qp", "connect", "disconnect", "destroy"),
            lines.stream().skip(1).map(line -> line.substring(0, 13).strip()).toList());
        assertEquals("connect      :        7.00       7.00    3000.00    3500.00", lines.get(5));
    }
}
