package dev.rdmacm.verbs;

/**
 * The link rate text the kernel writes to sysfs {@code ports/N/rate}, e.g. {@code 100 Gb/sec (4X EDR)},
 * computed from a port's {@code active_width} and {@code active_speed} the way the kernel does, so
 * that a device listed through libibverbs reads the same as one listed from sysfs.
 */
public final class PortRate
{
    private PortRate()
    {
    }

    /** The width multiplier of an {@code IB_WIDTH_*} value (1X, 2X, 4X, 8X, 12X), 0 when unknown. */
    public static int widthMultiplier(final int activeWidth)
    {
        return switch (activeWidth)
        {
            case 1 -> 1;
            case 2 -> 4;
            case 4 -> 8;
            case 8 -> 12;
            case 16 -> 2;
            default -> 0;
        };
    }

    /** The rate text; SDR and unknown speeds count as SDR, 2.5 Gb/sec per lane, as 6.1's {@code rate_show} does. */
    public static String text(final int activeWidth, final int activeSpeed)
    {
        final String speed;
        int tenthsPerLane;
        switch (activeSpeed)
        {
            case 2 -> { speed = " DDR"; tenthsPerLane = 50; }
            case 4 -> { speed = " QDR"; tenthsPerLane = 100; }
            case 8 -> { speed = " FDR10"; tenthsPerLane = 100; }
            case 16 -> { speed = " FDR"; tenthsPerLane = 140; }
            case 32 -> { speed = " EDR"; tenthsPerLane = 250; }
            case 64 -> { speed = " HDR"; tenthsPerLane = 500; }
            case 128 -> { speed = " NDR"; tenthsPerLane = 1000; }
            case 256 -> { speed = " XDR"; tenthsPerLane = 2000; }
            default -> { speed = " SDR"; tenthsPerLane = 25; }
        }
        final int lanes = widthMultiplier(activeWidth);
        final int tenths = tenthsPerLane * lanes;
        return (tenths / 10) + (tenths % 10 != 0 ? ".5" : "") + " Gb/sec (" + lanes + "X" + speed + ")";
    }
}
