package dev.rdmacm.conformance;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue 29's guest rows, for {@code benchmarks/run-issue29} (its {@code guests} part), not
 * part of the test suite (its name is not one surefire picks up; the script names it): the guest pair
 * booted for it alone, then {@link CmtimeRounds} with 5 rounds a side of 100 and of 1,000 connections.
 * The checks are that every round completed, so a run whose connections failed says so instead of
 * giving figures. {@code -Drdmacm.cmtime.rounds=N} sets the rounds.
 */
class CmtimeRoundsBenchmark
{
    @TestFactory
    @Timeout(value = GuestPair.LIMIT_MINUTES, unit = TimeUnit.MINUTES)
    List<DynamicTest> shouldTimeOursAndTheKernelsCmtimeInAlternatingRounds()
    {
        try (GuestPair guests = GuestPair.boot(GuestWire.onFreePorts()))
        {
            return CmtimeRounds.measure(guests, Integer.getInteger("rdmacm.cmtime.rounds", 5), List.of(100, 1000)).checks();
        }
    }
}
