package dev.rdmacm.protocol.sa;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PacketLifetimeTest
{
    @Test
    void shouldDoubleFrom4096NanosecondsPerCode()
    {
        assertEquals(Duration.ofNanos(4096), PacketLifetime.duration(0));
        assertEquals(Duration.ofNanos(4096L << 18), PacketLifetime.duration(18));
        assertEquals(Duration.ofNanos(4096).multipliedBy(1L << 62), PacketLifetime.duration(62));
        assertEquals(Duration.ofNanos(4096).multipliedBy(1L << 62).multipliedBy(2), PacketLifetime.duration(63));
        assertEquals(4.096 * 1024, PacketLifetime.microseconds(10), 1e-9);
    }

    @Test
    void shouldFindTheSmallestCodeCoveringADuration()
    {
        assertEquals(0, PacketLifetime.codeFor(Duration.ZERO));
        assertEquals(0, PacketLifetime.codeFor(Duration.ofNanos(4096)));
        assertEquals(1, PacketLifetime.codeFor(Duration.ofNanos(4097)));
        assertEquals(18, PacketLifetime.codeFor(Duration.ofMillis(1000)));
    }

    @Test
    void shouldDescribeInAReadableUnit()
    {
        assertEquals("0 (4.096 us)", PacketLifetime.describe(0));
        assertEquals("10 (4.19 ms)", PacketLifetime.describe(10));
        assertEquals("18 (1.07 s)", PacketLifetime.describe(18));
        assertEquals("64 (invalid)", PacketLifetime.describe(64));
    }

    @Test
    void shouldRejectACodeWiderThanSixBits()
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
            () -> PacketLifetime.duration(64));

        assertEquals("packet lifetime code 64 is not a 6-bit code 0-63", ex.getMessage());
    }
}
