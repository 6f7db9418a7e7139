package dev.rdmacm.protocol.sa;

import java.time.Duration;

/**
 * The 6-bit packet lifetime code of PathRecord (IBA 15.2.5.16 and 9.7.6.1.3): a packet lives at most
 * 4.096 us * 2^code. The kernel derives the CM timeouts from it, so the conversion matters.
 */
public final class PacketLifetime
{
    public static final int MAX_CODE = 63;
    /** 4.096 us, the lifetime of code 0. */
    public static final long BASE_NANOS = 4096;

    private PacketLifetime()
    {
    }

    /** @throws IllegalArgumentException naming the code and the valid range. */
    public static Duration duration(final int code)
    {
        requireCode(code);
        // 2^63 does not fit in a long: code 63 is 2^62 twice
        return Duration.ofNanos(BASE_NANOS).multipliedBy(1L << Math.min(code, 62)).multipliedBy(code == 63 ? 2 : 1);
    }

    /** 4.096 * 2^code, in microseconds. */
    public static double microseconds(final int code)
    {
        requireCode(code);
        return 4.096 * Math.pow(2, code);
    }

    /** The smallest code whose lifetime is at least {@code lifetime}; 0 for anything up to 4.096 us. */
    public static int codeFor(final Duration lifetime)
    {
        for (int code = 0; code < MAX_CODE; code++)
        {
            if (duration(code).compareTo(lifetime) >= 0)
            {
                return code;
            }
        }
        return MAX_CODE;
    }

    /** {@code "18 (1.07 s)"}: the code and its lifetime in the largest unit that keeps it above 1. */
    public static String describe(final int code)
    {
        if (code < 0 || code > MAX_CODE)
        {
            return code + " (invalid)";
        }
        final double us = 4.096 * Math.pow(2, code);
        if (us < 1_000)
        {
            return String.format("%d (%.3f us)", code, us);
        }
        if (us < 1_000_000)
        {
            return String.format("%d (%.2f ms)", code, us / 1_000);
        }
        return String.format("%d (%.2f s)", code, us / 1_000_000);
    }

    private static void requireCode(final int code)
    {
        if (code < 0 || code > MAX_CODE)
        {
            throw new IllegalArgumentException("packet lifetime code " + code + " is not a 6-bit code 0-63");
        }
    }
}
