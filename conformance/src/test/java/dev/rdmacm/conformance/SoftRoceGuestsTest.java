package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestJUnit;
import dev.rdmacm.testing.guest.GuestResult;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The suite's whole guest part: the two guests of {@link GuestPair}, booted at once on one wire. Each,
 * as soon as it is up, starts its side of the {@link SilentPeerAcrossTheWire} case (about 100 s of
 * REQs to nobody, on the wire devices the suites leave alone; the kernel guest also its
 * {@link KernelGuestSuite#BESIDE} classes, which wait as long on the kernel CM). The userspace guest then
 * runs its own suite ({@link UserspaceGuestSuite}: the fixture, verbs and the verbs MAD transport) and waits
 * for its silent-peer client; the kernel guest starts its own ({@link KernelGuestSuite}: every comparison with
 * the kernel CM and librdmacm) in its background too. Once the userspace guest is done, the cases across the
 * wire ({@link AcrossTheWire}) run while the kernel guest's background work still runs (their captures leave
 * out both silent peers' REQs); then the kernel guest's silent peer, {@code BESIDE} classes and suite are
 * collected, and the cases that must not run beside its suite run. Every outcome is replayed under its own
 * name.
 */
class SoftRoceGuestsTest
{
    @TestFactory
    @Timeout(value = GuestPair.LIMIT_MINUTES, unit = TimeUnit.MINUTES)
    Stream<DynamicTest> shouldPassEveryLayerOnSoftRoceInTwoGuestsJoinedByAWire()
    {
        final List<DynamicTest> tests = new ArrayList<>();
        final long userspacePid;
        final long kernelPid;
        final GuestWire wire = GuestWire.onFreePorts();
        final GuestPair.Started<Alone> started = GuestPair.start(
            new GuestPair.Side<>(GuestPair.forSuites(UserspaceGuestSuite.spec(wire)), share ->
            {
                UserspaceGuestSuite.prepare(share);
                // the in-guest JVMs' AOT cache, with this build's classes, trained on the host while the guests boot
                GuestJUnit.prepareJvm();
            }, guest ->
            {
                final GuestResult silentPeer = SilentPeerAcrossTheWire.startOurs(guest);
                final List<DynamicTest> suite = UserspaceGuestSuite.run(guest);
                final GuestResult silentRun = SilentPeerAcrossTheWire.finish(guest, silentPeer);
                // the silent peer's client was the training run: the later mains' AOT cache, made now, off the critical path
                GuestJavaMain.prepareCache(guest);
                // the JVMs that run the cases' mains (GuestMainDriver) start while this guest would idle; without them they
                // start JVMs of their own, only slower
                final GuestResult driver = GuestJavaMain.startDrivers(guest);
                if (!driver.succeeded())
                {
                    System.out.println("GuestMainDriver did not start, each main starts a JVM: " + driver.describe());
                }
                return new Alone(suite, silentRun, Optional.empty());
            }),
            new GuestPair.Side<>(GuestPair.forSuites(KernelGuestSuite.spec(wire)), share ->
            {
                KernelGuestSuite.prepare(share);
                AcrossTheWire.compileKernelPeers(share);
            }, guest ->
            {
                // all three in the guest's background, collected after the cases across the wire: a job that waited for
                // them here held the guest's job queue, and the cases waited for it (25 s on 2026-12-06, 10:41)
                final GuestResult silentPeer = SilentPeerAcrossTheWire.startKernel(guest);
                final GuestJUnit.Background beside = KernelGuestSuite.startBeside(guest);
                final GuestJUnit.Background suite = KernelGuestSuite.start(guest);
                return new Alone(List.of(), silentPeer, Optional.of(new Running(beside, suite)));
            }));
        try (GuestPair guests = started.guests())
        {
            userspacePid = guests.userspace().qemuPid();
            kernelPid = guests.kernel().qemuPid();
            tests.addAll(started.alone().userspace().done());
            tests.addAll(AcrossTheWire.besideKernelSuite(guests));
            final Running kernelRunning = started.alone().kernel().running().orElseThrow();
            tests.addAll(KernelGuestSuite.finishBeside(kernelRunning.beside()));
            tests.addAll(SilentPeerAcrossTheWire.checks(guests, started.alone().userspace().silentPeer(),
                SilentPeerAcrossTheWire.finish(guests.kernel(), started.alone().kernel().silentPeer())));
            tests.addAll(finish(kernelRunning.suite()));
            tests.addAll(AcrossTheWire.afterKernelSuite(guests));
        }
        final boolean stopped = Stream.of(userspacePid, kernelPid)
            .noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        tests.add(dynamicTest("shouldStopQemuWhenClosed()", () -> assertTrue(stopped, "QEMU pid " + userspacePid + " or "
            + kernelPid + " still runs")));
        return tests.stream();
    }

    /**
     * What a guest did on its own: the tests it has done, its silent-peer client's run (or, in the kernel guest, its start),
     * and what still runs in its background.
     */
    private record Alone(List<DynamicTest> done, GuestResult silentPeer, Optional<Running> running)
    {
    }

    /** The kernel guest's JVMs in its background: its {@link KernelGuestSuite#BESIDE} classes' and its suite's. */
    private record Running(GuestJUnit.Background beside, GuestJUnit.Background suite)
    {
    }

    private static List<DynamicTest> finish(final GuestJUnit.Background suite)
    {
        try
        {
            return KernelGuestSuite.finish(suite);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("reading " + suite.selection().guest().name() + "'s share", ex);
        }
    }
}
