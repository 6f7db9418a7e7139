package dev.rdmacm.conformance;

import dev.rdmacm.cm.AttachQpInGuest;
import dev.rdmacm.cm.ConcurrentConnectionsInGuest;
import dev.rdmacm.cm.ConductorThreadsInGuest;
import dev.rdmacm.cm.DeviceRemovalInGuest;
import dev.rdmacm.cm.ListenBacklogInGuest;
import dev.rdmacm.sa.testing.TestSaOverUmad;
import dev.rdmacm.sa.transport.verbs.SoftRoceLan;
import dev.rdmacm.sa.transport.verbs.VerbsTransportInGuest;
import dev.rdmacm.testing.guest.GuestJUnit;
import dev.rdmacm.testing.guest.GuestResult;
import dev.rdmacm.testing.guest.GuestSpec;
import dev.rdmacm.testing.guest.GuestTestOutcome;
import dev.rdmacm.testing.guest.KernelGuest;
import dev.rdmacm.testing.guest.KernelPackage;
import dev.rdmacm.umad.UmadBesideKernelCmInGuest;
import dev.rdmacm.umad.UmadInGuest;
import dev.rdmacm.verbs.DeviceQueriesInGuest;
import dev.rdmacm.verbs.MulticastAttachInGuest;
import dev.rdmacm.verbs.PortQueriesInGuest;
import dev.rdmacm.verbs.PrivilegedQkeyInGuest;
import dev.rdmacm.verbs.QueuePairStatesInGuest;
import dev.rdmacm.verbs.RcPingpongInGuest;
import dev.rdmacm.verbs.RcRdmaInGuest;
import dev.rdmacm.verbs.RcResourceCleanupInGuest;
import dev.rdmacm.verbs.ResourceCleanupInGuest;
import dev.rdmacm.verbs.ResourceCreationInGuest;
import dev.rdmacm.verbs.SoftRoceGuest;
import dev.rdmacm.verbs.UdTrafficInGuest;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The guest without a kernel CM ({@code ib_cm} not loaded, so a userspace agent may register the CM
 * class on umad), and what runs in it:
 * <ul>
 *   <li>the fixture ({@code KernelGuest}, module test-support; {@link FixtureInGuest}): Debian's kernel boots with the
 *       topology asked for, a job's exit status and outputs come back, a job that outlives its limit
 *       is killed, a JUnit selection runs inside;</li>
 *   <li>the verbs binding ({@link SoftRoceGuest}'s pair) and the SA client's verbs MAD transport
 *       ({@link SoftRoceLan}'s three ports on a bridge, with the umad SA test double compiled here into
 *       the share), every {@code *InGuest} class run in one guest JVM and replayed under its own
 *       name;</li>
 *   <li>the umad transport ({@link UmadInGuest}) on the verbs pair: CM agents on both devices' umad
 *       ports, a REQ between them, a send that times out, registration conflicts, no leak;</li>
 *   <li>the CM's threads ({@link ConductorThreadsInGuest}): a wildcard listener over four rxe devices,
 *       and one thread for them all; {@code rdma_create_qp} on the caller's thread ({@link AttachQpInGuest});
 *       a listener's backlog under a flood of 10,000 REQs from a raw CM peer ({@link ListenBacklogInGuest});
 *       device removal under a connected id, a listener and a resolution, against the kernel CM loaded
 *       for it and unloaded after ({@link DeviceRemovalInGuest}); the public API from 8 threads with
 *       connections, {@code rdma resource} back to its baseline after ({@link ConcurrentConnectionsInGuest});
 *       then, last,
 *       ({@link UmadBesideKernelCmInGuest}) the kernel's ib_cm loaded and unloaded again, and what a CM
 *       agent gets beside it.</li>
 * </ul>
 * The two topologies use disjoint names; the LAN's routing rules (a table per output interface ahead
 * of the local table) leave the verbs pair's routes as they were, and its {@code arp_ignore=1} lets
 * each verbs address answer ARP on its own port, which the pair wants too. The wire's end
 * ({@link GuestWire#USERSPACE_CM}) joins it to the kernel guest.
 */
final class UserspaceGuestSuite
{
    /** The guest's JVM start takes seconds under TCG; the suites together about a minute and a half. */
    private static final Duration IN_GUEST_LIMIT = Duration.ofMinutes(9);
    private static final Duration JOB = Duration.ofSeconds(20);
    /** Every class this guest runs, in this order (a new {@code *InGuest} class of the userspace-CM guest goes here; GuestSuiteMembershipTest checks that none is left out). */
    static final List<Class<?>> IN_GUEST = List.of(FixtureInGuest.class, DeviceQueriesInGuest.class, PortQueriesInGuest.class,
        ResourceCreationInGuest.class, QueuePairStatesInGuest.class, UdTrafficInGuest.class, MulticastAttachInGuest.class,
        PrivilegedQkeyInGuest.class, ResourceCleanupInGuest.class, RcRdmaInGuest.class, RcPingpongInGuest.class,
        RcResourceCleanupInGuest.class, VerbsTransportInGuest.class, UmadInGuest.class, ConductorThreadsInGuest.class,
        AttachQpInGuest.class, ListenBacklogInGuest.class, ConcurrentConnectionsInGuest.class, DeviceRemovalInGuest.class,
        UmadBesideKernelCmInGuest.class);

    private UserspaceGuestSuite()
    {
    }

    static GuestSpec spec(final GuestWire wire)
    {
        final List<String> modules = Stream.of(SoftRoceGuest.MODULES, SoftRoceLan.MODULES, GuestWire.MODULES)
            .flatMap(List::stream).distinct().toList();
        return GuestSpec.named("userspace-cm").modules(modules)
            .topology(GuestWire.addTo(SoftRoceGuest.addTo(SoftRoceLan.topology()), GuestWire.USERSPACE_CM))
            .qemuArguments(wire.qemuArguments(GuestWire.USERSPACE_CM))
            .lifetime(GuestPair.LIFETIME);
    }

    /** What the in-guest classes need in the share, put there while the guest boots: the kernel's release, the umad SA test double, libibumad's device lookup. */
    static void prepare(final Path share)
    {
        try
        {
            Files.writeString(share.resolve(FixtureInGuest.RELEASE_FILE), KernelPackage.ofTheDay().release());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the kernel release into " + share, ex);
        }
        TestSaOverUmad.compile(share);
        UmadInGuest.compileProbe(share);
    }

    /** The fixture's checks and every in-guest class, as tests ({@link #prepare} done). */
    static List<DynamicTest> run(final KernelGuest guest)
    {
        final List<DynamicTest> tests = new ArrayList<>(fixtureChecks(guest));
        GuestJUnit.run(guest, IN_GUEST_LIMIT, IN_GUEST.toArray(Class<?>[]::new))
            .stream().map(GuestTestOutcome::dynamicTest).forEach(tests::add);
        return tests;
    }

    /** The fixture's own behaviours, each checked now and replayed as a test of its own. */
    private static List<DynamicTest> fixtureChecks(final KernelGuest guest)
    {
        final String release = KernelPackage.ofTheDay().release();
        final GuestResult uname = guest.run(JOB, "uname -r");
        final GuestResult link = guest.run(JOB, "rdma link show " + SoftRoceGuest.RECEIVER + "/1; ip -br address show v1");
        final GuestResult outputs = guest.run(JOB, "echo to-stdout; echo to-stderr >&2; exit 3");
        final GuestResult killed = guest.run(Duration.ofSeconds(1), "sleep 60");
        final GuestResult after = guest.run(JOB, "true");
        return List.of(
            dynamicTest("shouldBootDebiansKernelPackage()", () -> assertEquals(release + "\n", uname.stdout(), uname.toString())),
            dynamicTest("shouldBuildTheRequestedTopology()", () ->
            {
                assertTrue(link.stdout().startsWith("link " + SoftRoceGuest.RECEIVER + "/1 state ACTIVE physical_state LINK_UP netdev v1"),
                    link.stdout());
                assertTrue(link.stdout().contains("192.0.2.2/24"), link.stdout());
            }),
            dynamicTest("shouldReturnTheExitStatusAndBothOutputs()", () ->
            {
                assertEquals(3, outputs.exitStatus());
                assertEquals("to-stdout\n", outputs.stdout());
                assertEquals("to-stderr\n", outputs.stderr());
            }),
            dynamicTest("shouldKillAJobThatOutlivesItsLimit()", () ->
            {
                assertEquals(GuestResult.TIMED_OUT, killed.exitStatus());
                assertEquals(0, after.exitStatus(), after.toString());
            }));
    }
}
