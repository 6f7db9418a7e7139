package dev.rdmacm.conformance;

import dev.rdmacm.sa.testing.TestSaOverUmad;
import dev.rdmacm.sa.transport.verbs.SoftRoceLan;
import dev.rdmacm.sa.transport.verbs.VerbsTransportInGuest;
import dev.rdmacm.testing.guest.GuestJUnit;
import dev.rdmacm.testing.guest.GuestSpec;
import dev.rdmacm.verbs.DeviceQueriesInGuest;
import dev.rdmacm.verbs.PortQueriesInGuest;
import dev.rdmacm.verbs.PrivilegedQkeyInGuest;
import dev.rdmacm.verbs.QueuePairStatesInGuest;
import dev.rdmacm.verbs.ResourceCleanupInGuest;
import dev.rdmacm.verbs.ResourceCreationInGuest;
import dev.rdmacm.verbs.SoftRoceGuest;
import dev.rdmacm.verbs.UdTrafficInGuest;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The lower layers on real devices: the verbs binding ({@link SoftRoceGuest}'s pair) and the SA client's
 * verbs MAD transport ({@link SoftRoceLan}'s three ports on a bridge, with the umad SA test double
 * compiled here into the share), in one guest without a kernel CM, every {@code *InGuest} class run in
 * one guest JVM and replayed here under its own name.
 * <p>
 * Two boots cost 63 s and 61 s; one boot and one JVM start for both save what a boot and a JVM start
 * take under TCG (about 35 s). The two topologies use disjoint names; the LAN's routing rules (a table
 * per output interface ahead of the local table) leave the verbs pair's routes as they were, and its
 * {@code arp_ignore=1} lets each verbs address answer ARP on its own port, which the pair wants too.
 */
class LowerLayersOnSoftRoceTest
{
    /** The guest's JVM start takes seconds under TCG; both suites together about a minute and a half. */
    private static final Duration IN_GUEST_LIMIT = Duration.ofMinutes(5);

    @TestFactory
    @Timeout(value = 9, unit = TimeUnit.MINUTES)
    Stream<DynamicTest> shouldPassEveryVerbsAndVerbsTransportTestOnSoftRoce()
    {
        final List<String> modules = Stream.concat(SoftRoceGuest.MODULES.stream(), SoftRoceLan.MODULES.stream()).distinct().toList();
        final GuestSpec spec = GuestSpec.named("lower-layers").modules(modules)
            .topology(SoftRoceGuest.addTo(SoftRoceLan.topology()));
        return GuestJUnit.inNewGuest(spec, IN_GUEST_LIMIT, guest -> TestSaOverUmad.compile(guest.sharedDirectory()),
            DeviceQueriesInGuest.class,
            PortQueriesInGuest.class,
            ResourceCreationInGuest.class,
            QueuePairStatesInGuest.class,
            UdTrafficInGuest.class,
            PrivilegedQkeyInGuest.class,
            ResourceCleanupInGuest.class,
            VerbsTransportInGuest.class);
    }
}
