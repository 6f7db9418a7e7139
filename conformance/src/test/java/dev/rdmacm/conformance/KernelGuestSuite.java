package dev.rdmacm.conformance;

import dev.rdmacm.acm.AcmAcceptEnfileInGuest;
import dev.rdmacm.addrinfo.GetAddrInfoOnRealDevicesInGuest;
import dev.rdmacm.cli.AcmServerDeviceRemovalInGuest;
import dev.rdmacm.cli.AcmServerGuest;
import dev.rdmacm.cli.AcmServerOnSoftRoceInGuest;
import dev.rdmacm.cli.DevicesCommandInGuest;
import dev.rdmacm.cli.DevicesGuest;
import dev.rdmacm.cm.VerbsGidDirectoryInGuest;
import dev.rdmacm.cm.kernel.AcmRouteAgainstKernelCmInGuest;
import dev.rdmacm.cm.kernel.AddrinfoAgainstLibrdmacmInGuest;
import dev.rdmacm.cm.kernel.AfIbResolveAgainstLibrdmacmInGuest;
import dev.rdmacm.cm.kernel.AddrinfoOracle;
import dev.rdmacm.cm.kernel.BondFailoverAgainstKernelCmInGuest;
import dev.rdmacm.cm.kernel.CmTimeAgainstKernelCmInGuest;
import dev.rdmacm.cm.kernel.CmtimeThroughKernelCmInGuest;
import dev.rdmacm.cm.kernel.DeviceRemovalAgainstKernelCmInGuest;
import dev.rdmacm.cm.kernel.KernelCmGuest;
import dev.rdmacm.cm.kernel.KernelCmOracle;
import dev.rdmacm.cm.kernel.KernelCmPeersInGuest;
import dev.rdmacm.cm.kernel.KernelCmSilentPeerInGuest;
import dev.rdmacm.cm.kernel.KernelConnectionManagerInGuest;
import dev.rdmacm.cm.kernel.KernelIdOptionsInGuest;
import dev.rdmacm.cm.kernel.McKeyThroughKernelCmInGuest;
import dev.rdmacm.cm.kernel.MulticastAgainstKernelCmInGuest;
import dev.rdmacm.cm.kernel.MulticastIdEventsThroughKernelCmInGuest;
import dev.rdmacm.cm.kernel.ResolutionAgainstKernelCmInGuest;
import dev.rdmacm.cm.kernel.ResolutionThroughKernelCmInGuest;
import dev.rdmacm.cm.kernel.UcmaAgainstLibrdmacmInGuest;
import dev.rdmacm.cm.kernel.UcmaChannelInGuest;
import dev.rdmacm.cm.kernel.UcmaConnectionInGuest;
import dev.rdmacm.cm.kernel.UcmaMigrateIdInGuest;
import dev.rdmacm.cm.kernel.UcmaMulticastInGuest;
import dev.rdmacm.cm.kernel.UdaddyThroughKernelCmInGuest;
import dev.rdmacm.cm.kernel.UidRangeAgainstKernelCmInGuest;
import dev.rdmacm.resolver.engine.RouteDifferentialVrfInGuest;
import dev.rdmacm.testing.guest.GuestJUnit;
import dev.rdmacm.testing.guest.GuestSpec;
import dev.rdmacm.testing.guest.GuestTestOutcome;
import dev.rdmacm.testing.guest.KernelGuest;
import org.junit.jupiter.api.DynamicTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One kernel guest (Debian's 6.1 with Soft-RoCE and the kernel's own CM; {@link KernelCmGuest}'s
 * topology plus {@link DevicesGuest}'s and {@link AcmServerGuest}'s) for every comparison of an upper
 * layer with the real kernel: the resolver's address and route matrix and its cmtime figures against
 * the kernel CM through librdmacm, the route differential's VRF case against {@code ip route get} (the
 * host's kernel has no VRF device), rdma_getaddrinfo on real devices, rdma-core HEAD's
 * rdma_resolve_addrinfo family against Debian sid's librdmacm 65, acm-server as the ibacm of real
 * librdmacm programs and rping, acm-server beside the real ibacm when its device is removed, and {@code rdmacm devices} against ibv_devinfo and sysfs
 * (last, as it changes an MTU and adds an address). The oracles are compiled here
 * into the guest's share; the {@code *InGuest} classes run in one guest JVM and are replayed under
 * their own names. One boot for all of them keeps the suite's guest part within its budget. The wire's
 * end ({@link GuestWire#KERNEL_CM}) joins it to the userspace-CM guest.
 */
final class KernelGuestSuite
{
    /**
     * The in-guest classes took 351 s in the clean-clone CI of 2026-12-06 at 03:54 (115e75e), 104 s of it the
     * kernel-CM silent peer's wait, which now runs {@link #BESIDE} them; 278 s in the one at 06:51 (e4cadb5). Since the
     * cases across the wire run beside them, they share the host's cores with the userspace guest's work too: 511 s
     * on 2026-12-06 at 07:36, the machine at load 13 to 25 (docs/testing.md). 12 minutes leaves room for a machine
     * busier still; a hung JVM is killed there.
     */
    private static final Duration IN_GUEST_LIMIT = Duration.ofMinutes(12);
    /**
     * The silent peer's case waits 100 s for the kernel CM (180 s at most, 210 s on a loaded host), the ENFILE case 30 to
     * 65 s and more (killed at the 5 minutes this limit was, 2026-12-06, 11:15); their JVM starts beside the suite's.
     * Nothing waits for it before the cases across the wire have run, so a longer limit costs nothing but for a JVM
     * that hangs.
     */
    private static final Duration BESIDE_LIMIT = Duration.ofMinutes(8);
    /** Every class this guest runs, in this order (a new {@code *InGuest} class of the kernel guest goes here; GuestSuiteMembershipTest checks that none is left out). */
    static final List<Class<?>> IN_GUEST = List.of(
        ResolutionAgainstKernelCmInGuest.class, ResolutionThroughKernelCmInGuest.class, AcmRouteAgainstKernelCmInGuest.class,
        CmTimeAgainstKernelCmInGuest.class,
        RouteDifferentialVrfInGuest.class, UidRangeAgainstKernelCmInGuest.class,
        GetAddrInfoOnRealDevicesInGuest.class, AddrinfoAgainstLibrdmacmInGuest.class, MulticastAgainstKernelCmInGuest.class,
        DeviceRemovalAgainstKernelCmInGuest.class, BondFailoverAgainstKernelCmInGuest.class,
        UcmaChannelInGuest.class, UcmaAgainstLibrdmacmInGuest.class, UcmaConnectionInGuest.class,
        KernelConnectionManagerInGuest.class, KernelIdOptionsInGuest.class, KernelCmPeersInGuest.class, CmtimeThroughKernelCmInGuest.class,
        McKeyThroughKernelCmInGuest.class, MulticastIdEventsThroughKernelCmInGuest.class, UcmaMulticastInGuest.class, UcmaMigrateIdInGuest.class,
        UdaddyThroughKernelCmInGuest.class, AfIbResolveAgainstLibrdmacmInGuest.class,
        AcmServerOnSoftRoceInGuest.class, AcmServerDeviceRemovalInGuest.class,
        VerbsGidDirectoryInGuest.class, DevicesCommandInGuest.class);
    /**
     * What this guest runs beside {@link #IN_GUEST}, in a JVM of its own started as soon as the guest is up: cases
     * that wait on the kernel CM's timeouts rather than on the guest's CPU, on the wire's device that the suite leaves
     * alone (GuestSuiteMembershipTest counts these as listed). The ENFILE case goes last: its few seconds with
     * {@code fs.file-max} lowered then fall after UidRangeAgainstKernelCmInGuest, whose processes without
     * CAP_SYS_ADMIN the limit would fail (root's it lets past); it also waits until no such process runs. First, beside
     * the suite's start, it failed (its back-off's tries counted on a guest that busy, 2026-12-06, 11:27).
     */
    static final List<Class<?>> BESIDE = List.of(KernelCmSilentPeerInGuest.class, AcmAcceptEnfileInGuest.class);

    private KernelGuestSuite()
    {
    }

    static GuestSpec spec(final GuestWire wire)
    {
        return GuestSpec.named("kernel").modules(Stream.concat(GuestSpec.KERNEL_CM_MODULES.stream(), GuestWire.MODULES.stream()).toList())
            .topology(GuestWire.addTo(AcmServerGuest.addTo(DevicesGuest.addTo(KernelCmGuest.topology())), GuestWire.KERNEL_CM))
            .qemuArguments(wire.qemuArguments(GuestWire.KERNEL_CM))
            .lifetime(GuestPair.LIFETIME);
    }

    /** The oracles, compiled into the share while the guest boots. */
    static void prepare(final Path share)
    {
        KernelCmOracle.compile(share);
        MulticastAgainstKernelCmInGuest.compile(share);
        AddrinfoOracle.compileIfAvailable(share);
        GetAddrInfoOnRealDevicesInGuest.compileHarness(share);
        KernelIdOptionsInGuest.LIBRDMACM.compile(share);
        MulticastIdEventsThroughKernelCmInGuest.LIBRDMACM.compile(share);
        AfIbResolveAgainstLibrdmacmInGuest.LIBRDMACM.compile(share);
    }

    /** Starts {@link #BESIDE} in the guest's background ({@link #prepare} done), for {@link #finishBeside}. */
    static GuestJUnit.Background startBeside(final KernelGuest guest)
    {
        return GuestJUnit.start(guest, BESIDE_LIMIT, BESIDE.toArray(Class<?>[]::new));
    }

    /** {@link #BESIDE}'s tests, once their JVM has ended. */
    static List<DynamicTest> finishBeside(final GuestJUnit.Background beside)
    {
        return GuestJUnit.finish(beside).stream().map(GuestTestOutcome::dynamicTest).toList();
    }

    /**
     * Starts every in-guest class in one JVM in the guest's background ({@link #prepare} done), for {@link #finish}: the guest's
     * jobs stay free meanwhile for the cases across the wire ({@link AcrossTheWire}), which run beside it.
     */
    static GuestJUnit.Background start(final KernelGuest guest)
    {
        return GuestJUnit.start(guest, IN_GUEST_LIMIT, IN_GUEST.toArray(Class<?>[]::new));
    }

    /**
     * Every in-guest class {@link #start started}, as tests, once their JVM has ended; cmtime's and the addrinfo oracle's
     * reports go to the build log. Then the kernel CM's MADs are captured ({@link KernelCmMadsCaptured}).
     */
    static List<DynamicTest> finish(final GuestJUnit.Background suite) throws IOException
    {
        final KernelGuest guest = suite.selection().guest();
        final List<GuestTestOutcome> outcomes = GuestJUnit.finish(suite);
        final Path report = guest.sharedDirectory().resolve(CmTimeAgainstKernelCmInGuest.REPORT);
        if (Files.exists(report))
        {
            System.out.print(Files.readString(report));
        }
        final Path addrinfo = guest.sharedDirectory().resolve(AddrinfoAgainstLibrdmacmInGuest.REPORT);
        if (Files.exists(addrinfo))
        {
            System.out.println(Files.readString(addrinfo).lines().findFirst().orElse(""));
        }
        final List<DynamicTest> tests = new ArrayList<>(outcomes.stream().map(GuestTestOutcome::dynamicTest).toList());
        tests.addAll(KernelCmMadsCaptured.checks(guest));
        return tests;
    }
}
