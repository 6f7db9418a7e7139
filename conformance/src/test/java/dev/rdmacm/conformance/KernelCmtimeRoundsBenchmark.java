package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Issue 32's performance row, not part of the test suite (its name is not one surefire picks up; name it
 * with {@code -Dtest}): the kernel guest booted alone, the real cmtime server in it, and beside it, in the
 * same guest, {@code rdmacm cmtime --cm kernel} and librdmacm's cmtime alternating ({@link CmtimeRounds},
 * {@link CmtimeRounds.Back#KERNEL}). {@code -Drdmacm.cmtime.rounds=N} sets the rounds a side (5),
 * {@code -Drdmacm.cmtime.sizes=100,1000} the connections of each round. Report and rows in
 * {@code target/issue32-guests.txt} and {@code .rows}.
 */
class KernelCmtimeRoundsBenchmark
{
    @TestFactory
    @Timeout(value = GuestPair.LIMIT_MINUTES, unit = TimeUnit.MINUTES)
    List<DynamicTest> shouldTimeOursThroughTheKernelsCmAndLibrdmacmsCmtimeInAlternatingRounds()
    {
        final List<Integer> sizes = java.util.Arrays.stream(System.getProperty("rdmacm.cmtime.sizes", "100,1000").split(","))
            .map(String::strip).map(Integer::valueOf).toList();
        try (KernelGuest guest = KernelGuest.boot(KernelGuestSuite.spec(GuestWire.onFreePorts())))
        {
            return CmtimeRounds.measure(guest, guest, CmtimeRounds.Back.KERNEL, Integer.getInteger("rdmacm.cmtime.rounds", 5), sizes)
                .checks();
        }
    }
}
