package dev.rdmacm.conformance;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CmtimeTablesTest
{
    /** What librdmacm 44's cmtime printed for 1,000 connections in the kernel guest (2026-12-02), its table only. */
    private static final String KERNEL_CMTIME = """
        connecting
        disconnecting
        destroying id
        step              total ms     max ms     min us  us / conn
        create id    :      124.52       3.45      20.00     124.52
        resolve addr :      481.29     200.07   36207.00     481.29
        resolve route:      150.45      66.60    4499.00     150.45
        create qp    :     1369.52      11.23     250.00    1369.52
        connect      :    23852.23   23417.91   53957.00   23852.23
        disconnect   :    19494.91    6975.17   16305.00   19494.91
        destroy      :       73.25       4.93      33.00      73.25
        """;

    @Test
    void shouldReadEveryStepsTotalOfCmtimesTable()
    {
        final List<Map<String, Double>> tables = CmtimeAcrossTheWire.tables(KERNEL_CMTIME);

        assertEquals(List.of(Map.of("create id", 124.52, "resolve addr", 481.29, "resolve route", 150.45, "create qp", 1369.52,
            "connect", 23852.23, "disconnect", 19494.91, "destroy", 73.25)), tables.stream().map(Map::copyOf).toList());
    }

    @Test
    void shouldReadTheTotalOfARowWhoseMinimumRanIntoTheMaximum()
    {
        // printf's %11.2f gives a wider value all its digits: a first connect after 12.3 s leaves no space before it
        final List<Map<String, Double>> tables = CmtimeAcrossTheWire.tables("""
            step              total ms     max ms     min us  us / conn
            connect      :    50725.48   49979.4512319508.00   50725.48
            """);

        assertEquals(List.of(Map.of("connect", 50725.48)), tables.stream().map(Map::copyOf).toList());
    }

    @Test
    void shouldReadRdmacmCmtimesJsonRoundsUnderTheTablesLabels()
    {
        // two rounds of rdmacm cmtime -b ... --json, cut to three steps, as docs/json.md's cmtime object writes them
        final List<Map<String, Double>> tables = CmtimeAcrossTheWire.jsonTables("""
            {"server":"10.9.0.2","port":7181,"connections":1,"rounds":[
            {"ok":true,"steps":[{"step":"create_id","total_us":1250,"max_us":1250,"min_us":1250,"us_per_conn":1250.00,
            "connections_us":[1250]},{"step":"bind","total_us":40,"max_us":40,"min_us":40,"us_per_conn":40.00,"connections_us":[40]},
            {"step":"resolve_addr","total_us":900,"max_us":900,"min_us":900,"us_per_conn":900.00,"connections_us":[900]}]},
            {"ok":true,"steps":[{"step":"create_id","total_us":20,"max_us":20,"min_us":20,"us_per_conn":20.00,"connections_us":[20]}]}],
            "ok":true}
            """);

        assertEquals(List.of(Map.of("create id", 1.25, "bind addr", 0.04, "resolve addr", 0.9), Map.of("create id", 0.02)),
            tables.stream().map(Map::copyOf).toList());
    }
}
