package dev.rdmacm.protocol.sa;

/**
 * The IBA static rate codes of PathRecord and MultiPathRecord (IBA 15.2.5.16, {@code enum ibv_rate}),
 * with the nominal data rate that tools print and the signalling rate in Mb/s that
 * {@code ibv_rate_to_mbps} returns (FDR and EDR codes carry their 64b/66b figures, e.g. 14062 for "14").
 * Code 0 is not a rate: in {@code ibv_ah_attr} it means "the port's maximum".
 */
public enum RateCode
{
    RATE_2_5_GBPS(2, "2.5", 2_500),
    RATE_10_GBPS(3, "10", 10_000),
    RATE_30_GBPS(4, "30", 30_000),
    RATE_5_GBPS(5, "5", 5_000),
    RATE_20_GBPS(6, "20", 20_000),
    RATE_40_GBPS(7, "40", 40_000),
    RATE_60_GBPS(8, "60", 60_000),
    RATE_80_GBPS(9, "80", 80_000),
    RATE_120_GBPS(10, "120", 120_000),
    RATE_14_GBPS(11, "14", 14_062),
    RATE_56_GBPS(12, "56", 56_250),
    RATE_112_GBPS(13, "112", 112_500),
    RATE_168_GBPS(14, "168", 168_750),
    RATE_25_GBPS(15, "25", 25_781),
    RATE_100_GBPS(16, "100", 103_125),
    RATE_200_GBPS(17, "200", 206_250),
    RATE_300_GBPS(18, "300", 309_375),
    RATE_28_GBPS(19, "28", 28_125),
    RATE_50_GBPS(20, "50", 53_125),
    RATE_400_GBPS(21, "400", 425_000),
    RATE_600_GBPS(22, "600", 637_500),
    RATE_800_GBPS(23, "800", 850_000),
    RATE_1200_GBPS(24, "1200", 1_275_000);

    public static final int MIN_CODE = 2;
    public static final int MAX_CODE = 24;

    private static final RateCode[] BY_CODE = values();

    private final int code;
    private final String gbps;
    private final int mbps;

    RateCode(final int code, final String gbps, final int mbps)
    {
        this.code = code;
        this.gbps = gbps;
        this.mbps = mbps;
    }

    public int code()
    {
        return code;
    }

    /** The nominal rate as tools print it, e.g. {@code "2.5"} or {@code "56"} (Gb/s). */
    public String gbpsText()
    {
        return gbps;
    }

    /** The rate in Mb/s exactly as {@code ibv_rate_to_mbps} gives it. */
    public int mbps()
    {
        return mbps;
    }

    public static boolean isValid(final int code)
    {
        return code >= MIN_CODE && code <= MAX_CODE;
    }

    /** @throws IllegalArgumentException naming the code and the valid range. */
    public static RateCode fromCode(final int code)
    {
        if (!isValid(code))
        {
            throw new IllegalArgumentException("rate code " + code + " is not an IBA rate code 2-24");
        }
        return BY_CODE[code - MIN_CODE];
    }

    /** Parses a nominal rate in Gb/s such as {@code 2.5}, {@code 56} or {@code 100}. */
    public static RateCode parse(final String text)
    {
        final String gbps = text.strip();
        for (final RateCode rate : BY_CODE)
        {
            if (rate.gbps.equals(gbps))
            {
                return rate;
            }
        }
        throw new IllegalArgumentException("rate '" + text + "' is not an IBA rate in Gb/s " +
            "(2.5, 5, 10, 14, 20, 25, 28, 30, 40, 50, 56, 60, 80, 100, 112, 120, 168, 200, 300, 400, 600, 800, 1200)");
    }

    /** {@code "3 (10 Gb/s)"}, or {@code "1 (reserved)"} for a code without a rate. */
    public static String describe(final int code)
    {
        return code + (isValid(code) ? " (" + BY_CODE[code - MIN_CODE].gbps + " Gb/s)" : " (reserved)");
    }
}
