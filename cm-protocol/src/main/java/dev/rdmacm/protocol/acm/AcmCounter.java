package dev.rdmacm.protocol.acm;

/**
 * The performance counters a PERF_QUERY reply carries, in wire order ({@code ACM_CNTR_*}); the labels
 * are the ones {@code ib_acme -P} prints ({@code ib_acm_cntr_name}).
 */
public enum AcmCounter
{
    ERROR("Error Count"),
    RESOLVE("Resolve Count"),
    NODATA("No Data"),
    ADDR_QUERY("Addr Query Count"),
    ADDR_CACHE("Addr Cache Count"),
    ROUTE_QUERY("Route Query Count"),
    ROUTE_CACHE("Route Cache Count");

    /** {@code ACM_MAX_COUNTER}. */
    public static final int COUNT = 7;

    private static final AcmCounter[] VALUES = values();

    private final String label;

    AcmCounter(final String label)
    {
        this.label = label;
    }

    public String label()
    {
        return label;
    }

    public static AcmCounter of(final int index)
    {
        return VALUES[index];
    }
}
