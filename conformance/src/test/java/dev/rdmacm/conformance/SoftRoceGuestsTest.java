package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The suite's whole guest part: the two guests of {@link GuestPair}, booted at once on one wire. First
 * each runs its own suite, side by side ({@link UserspaceGuestSuite}: the fixture, verbs and the verbs
 * MAD transport; {@link KernelGuestSuite}: every comparison with the kernel CM and librdmacm), with
 * the {@link SilentPeerAcrossTheWire} case's long wait beside them; then the checks that need both
 * ({@link AcrossTheWire}). Every outcome is replayed under its own name.
 */
class SoftRoceGuestsTest
{
    @TestFactory
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    Stream<DynamicTest> shouldPassEveryLayerOnSoftRoceInTwoGuestsJoinedByAWire()
    {
        final List<DynamicTest> tests = new ArrayList<>();
        final long userspacePid;
        final long kernelPid;
        try (GuestPair guests = GuestPair.boot(GuestWire.onFreePorts()))
        {
            userspacePid = guests.userspace().qemuPid();
            kernelPid = guests.kernel().qemuPid();
            // about 100 s of REQs to nobody, beside the suites, on the wire devices they leave alone
            final SilentPeerAcrossTheWire silentPeer = SilentPeerAcrossTheWire.start(guests);
            final GuestPair.Both<List<DynamicTest>> suites =
                guests.inBoth(guest -> run(UserspaceGuestSuite::run, guest), guest -> run(KernelGuestSuite::run, guest));
            tests.addAll(suites.userspace());
            tests.addAll(suites.kernel());
            tests.addAll(silentPeer.checks());
            tests.addAll(AcrossTheWire.checks(guests));
        }
        final boolean stopped = Stream.of(userspacePid, kernelPid)
            .noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        tests.add(dynamicTest("shouldStopQemuWhenClosed()", () -> assertTrue(stopped, "QEMU pid " + userspacePid + " or "
            + kernelPid + " still runs")));
        return tests.stream();
    }

    /** A guest suite's run. */
    @FunctionalInterface
    private interface Suite
    {
        List<DynamicTest> run(KernelGuest guest) throws IOException;
    }

    private static List<DynamicTest> run(final Suite suite, final KernelGuest guest)
    {
        try
        {
            return suite.run(guest);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("preparing " + guest.name() + "'s share", ex);
        }
    }
}
