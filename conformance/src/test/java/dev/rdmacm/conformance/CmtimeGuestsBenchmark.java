package dev.rdmacm.conformance;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The connection benchmark of {@code benchmarks/run-cmtime-guests}, not part of the test suite (its name
 * is not one surefire picks up; the script names it): the guest pair booted for it alone, then
 * {@link CmtimeAcrossTheWire} with 100 connections (3 rounds a side) and with 1,000 (2 rounds), one CM
 * thread on our side. Each report goes to the build log; the checks are the suite's, so a run whose
 * connections failed says so instead of giving figures.
 */
class CmtimeGuestsBenchmark
{
    @TestFactory
    @Timeout(value = GuestPair.LIMIT_MINUTES, unit = TimeUnit.MINUTES)
    List<DynamicTest> shouldTimeConnectionSetupOfOursAndTheKernelsCmInTheGuests()
    {
        final List<DynamicTest> tests = new ArrayList<>();
        try (GuestPair guests = GuestPair.boot(GuestWire.onFreePorts()))
        {
            tests.addAll(CmtimeAcrossTheWire.measure(guests, 100, 3).checks());
            tests.addAll(CmtimeAcrossTheWire.measure(guests, 1000, 2).checks());
        }
        return tests;
    }
}
