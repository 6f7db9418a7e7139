package dev.rdmacm.verbs;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The rate text must read as the kernel's sysfs {@code rate} file for the same width and speed. */
class PortRateTest
{
    @Test
    void shouldPrintEdrOnFourLanesAsTheKernelDoes()
    {
        assertEquals("100 Gb/sec (4X EDR)", PortRate.text(2, 32));
    }

    /** rxe over virtio-net in the conformance guest reads {@code 2.5 Gb/sec (1X SDR)} from 6.1's sysfs. */
    @Test
    void shouldPrintHalfGigabitsForSdrOnOneLane()
    {
        assertEquals("2.5 Gb/sec (1X SDR)", PortRate.text(1, 1));
    }

    @Test
    void shouldPrintFdrOnTwelveLanes()
    {
        assertEquals("168 Gb/sec (12X FDR)", PortRate.text(8, 16));
    }

    @Test
    void shouldPrintQdrOnOneLane()
    {
        assertEquals("10 Gb/sec (1X QDR)", PortRate.text(1, 4));
    }
}
