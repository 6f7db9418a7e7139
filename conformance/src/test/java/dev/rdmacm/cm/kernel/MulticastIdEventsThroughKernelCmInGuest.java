package dev.rdmacm.cm.kernel;

import dev.rdmacm.cm.CmEvent;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.cm.EventChannel;
import dev.rdmacm.cm.MulticastJoinFlag;
import dev.rdmacm.cm.RdmaCm;
import dev.rdmacm.cm.RdmaCmId;
import dev.rdmacm.cm.kernel.KernelConnectionManagerInGuest.Resources;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.RunningPeer;
import dev.rdmacm.testing.guest.LibrdmacmProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The events of a multicast id joined through the kernel's CM ({@link ConnectionManager#KERNEL}:
 * {@code KernelMemberships}' kernel id holds the membership) that are not the join's own, against librdmacm's id
 * joined the same way in the same guest ({@code join_until_removed.c}): the events each gets after its
 * MULTICAST_JOIN, then its leave's errno and its destroy.
 * <ul>
 *   <li>{@code rdma link delete} under the joined id: each side has a fresh rxe device on a veth of this class's
 *       own, so the removal waits for that side alone;</li>
 *   <li>a failover of {@link KernelCmGuest#ACTIVE_BOND} ({@code fail_over_mac active}, its MAC changes) under an id
 *       bound to its address and joined (ADDR_CHANGE, as {@code BondFailoverAgainstKernelCmInGuest} shows for ids
 *       that are not joined).</li>
 * </ul>
 * The kernel id's own events find no id of ours (the id hears them from this stack's watch, as every id does);
 * these cases show that the application sees what librdmacm's does, and that the kernel id behind it neither
 * blocks the removal nor stays counted by {@code rdma resource}.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class MulticastIdEventsThroughKernelCmInGuest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String OWN = "198.19.34.1";
    private static final String PEER = "198.19.34.2";
    private static final String GROUP = "239.1.34.7";
    /** How long each side waits for a further event after ADDR_CHANGE: none comes, in the kernel or here. */
    private static final Duration QUIET = Duration.ofSeconds(3);

    /** The librdmacm side, compiled into the guest's share on the host while the guest boots (KernelGuestSuite). */
    public static final LibrdmacmProgram LIBRDMACM = LibrdmacmProgram.of(MulticastIdEventsThroughKernelCmInGuest.class, "join_until_removed", "-lrdmacm");

    private static Path program;

    @BeforeAll
    static void find()
    {
        program = LIBRDMACM.inGuest();
    }

    @Test
    void shouldPostDeviceRemovalToAKernelJoinedIdAsLibrdmacmsGetsIt() throws Exception
    {
        final Resources before = Resources.settled();
        sh("ip link add kma type veth peer name kmb && ip address add " + OWN + "/24 dev kma && ip address add " + PEER
            + "/24 dev kmb && ip link set kma up && ip link set kmb up");
        final List<String> theirs;
        final List<String> ours;
        try
        {
            theirs = librdmacm("rxe80");
            ours = ours("rxe81");
        }
        finally
        {
            HostCommand.run(WAIT, null, List.of("rdma", "link", "delete", "rxe80"));
            HostCommand.run(WAIT, null, List.of("rdma", "link", "delete", "rxe81"));
            sh("ip link delete kma");
        }
        System.out.println("device removal under a joined multicast id: librdmacm " + theirs + ", ours through the kernel's CM " + ours);
        assertTrue(theirs.contains("event DEVICE_REMOVAL status 0"), "librdmacm's: " + theirs);
        assertEquals(afterRemoval(theirs), afterRemoval(ours), "ours through the kernel's CM against librdmacm's: " + ours + " " + theirs);
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    /**
     * The lines with the leave's errno after DEVICE_REMOVAL as the kernel allows it: 0 or ENXIO (6). On that event
     * ucma queues the id's close (ucma_close_id), which drops the context's last reference; a LEAVE_MCAST that comes
     * after it finds none (refcount_inc_not_zero fails: ENXIO), one that comes before it is served. Which comes first
     * is the kernel's race, for librdmacm's id as for ours (seen both ways for librdmacm in this guest).
     */
    private static List<String> afterRemoval(final List<String> lines)
    {
        return lines.stream().map(line -> line.equals("leave errno 0") || line.equals("leave errno 6") ? "leave errno 0 or ENXIO" : line)
            .toList();
    }

    /** librdmacm's id on a fresh {@code device}: joined, then the device removed under it. */
    private static List<String> librdmacm(final String device) throws Exception
    {
        sh("rdma link add " + device + " type rxe netdev kma");
        try (RunningPeer peer = RunningPeer.start(program.toString(), OWN, GROUP, Long.toString(WAIT.toSeconds()),
            Long.toString(WAIT.toSeconds())))
        {
            peer.await(line -> line.equals("joined") || line.contains("errno"), WAIT);
            final CompletableFuture<HostCommand.Outcome> removal = remove(device);
            assertEquals(0, peer.exitStatus(WAIT), peer.toString());
            removal.get(WAIT.toSeconds() * 2, TimeUnit.SECONDS).orFail("rdma link delete " + device);
            return peer.lines();
        }
    }

    @Test
    void shouldPostAddrChangeToAKernelJoinedIdOnABondFailoverAsLibrdmacmsGetsIt() throws Exception
    {
        final Resources before = Resources.settled();
        final List<String> theirs;
        try (RunningPeer peer = RunningPeer.start(program.toString(), KernelCmGuest.ACTIVE_BOND_OWN_IPV4, GROUP,
            Long.toString(WAIT.toSeconds()), Long.toString(QUIET.toSeconds())))
        {
            peer.await(line -> line.equals("joined") || line.contains("errno"), WAIT);
            failOver();
            assertEquals(0, peer.exitStatus(WAIT), peer.toString());
            theirs = peer.lines();
        }
        final List<String> ours = ours(KernelCmGuest.ACTIVE_BOND_OWN_IPV4, null,
            MulticastIdEventsThroughKernelCmInGuest::failOver, QUIET);
        System.out.println("bond failover under a joined multicast id: librdmacm " + theirs + ", ours through the kernel's CM " + ours);
        assertTrue(theirs.contains("event ADDR_CHANGE status 0"), "librdmacm's: " + theirs);
        assertEquals(theirs, ours, "ours through the kernel's CM against librdmacm's");
        assertEquals(before, Resources.backTo(before), "rdma resource: CM ids and QPs after");
    }

    /** The bond's other slave made active: its MAC, and so the bond's, changes ({@code fail_over_mac active}). */
    private static void failOver() throws Exception
    {
        final String active = java.nio.file.Files.readString(Path.of("/sys/class/net/" + KernelCmGuest.ACTIVE_BOND + "/bonding/active_slave"))
            .strip();
        final String next = active.equals(KernelCmGuest.ACTIVE_BOND_FIRST_SLAVE) ? KernelCmGuest.ACTIVE_BOND_SECOND_SLAVE
            : KernelCmGuest.ACTIVE_BOND_FIRST_SLAVE;
        HostCommand.run(WAIT, "ip", "link", "set", KernelCmGuest.ACTIVE_BOND, "type", "bond", "active_slave", next)
            .orFail("ip link set " + KernelCmGuest.ACTIVE_BOND + " active_slave " + next);
    }

    /** Ours on a fresh {@code device}, through the kernel's CM: joined, then the device removed under it. */
    private static List<String> ours(final String device) throws Exception
    {
        sh("rdma link add " + device + " type rxe netdev kma");
        final CompletableFuture<Void> joined = new CompletableFuture<>();
        final CompletableFuture<HostCommand.Outcome> removal = joined.thenCompose(nothing -> remove(device));
        final List<String> lines = ours(OWN, device, () -> joined.complete(null), WAIT);
        removal.get(WAIT.toSeconds() * 2, TimeUnit.SECONDS).orFail("rdma link delete " + device);
        return lines;
    }

    /** What happens to a joined id: the bond's failover, the device's removal. */
    @FunctionalInterface
    private interface Change
    {
        void make() throws Exception;
    }

    /**
     * Ours through the kernel's CM, written as the program writes its lines: an id bound to {@code own} (on
     * {@code device}, when named), joined, then {@code change} under it; its events until DEVICE_REMOVAL or none within
     * {@code quiet} (the first within {@link #WAIT}), its leave's errno and its destroy.
     */
    private static List<String> ours(final String own, final String device, final Change change, final Duration quiet)
        throws Exception
    {
        final List<String> lines = new ArrayList<>();
        try (RdmaCm cm = RdmaCm.open(RdmaCm.Options.builder().connectionManager(ConnectionManager.KERNEL).build());
            EventChannel channel = cm.createEventChannel())
        {
            final RdmaCmId id = cm.createId(channel, PortSpace.UDP);
            final InetAddress group = InetAddress.getByName(GROUP);
            id.bindAddr(InetAddress.getByName(own));
            if (device != null)
            {
                assertEquals(device, id.binding().device());
            }
            id.join(group, MulticastJoinFlag.FULL_MEMBER, null);
            lines.add(event(channel.getEvent(WAIT)));
            lines.add("joined");
            change.make();
            String last = event(channel.getEvent(WAIT));
            lines.add(last);
            while (!last.equals("no event") && !last.startsWith("event DEVICE_REMOVAL"))
            {
                last = event(channel.getEvent(quiet));
                lines.add(last);
            }
            lines.add("leave errno " + MulticastAgainstKernelCmInGuest.leave(id, group));
            id.destroy();
            lines.add("destroyed");
        }
        return lines;
    }

    private static String event(final CmEvent event)
    {
        if (event == null)
        {
            return "no event";
        }
        event.ack();
        return "event " + event.type().name() + " status " + event.status();
    }

    /** {@code rdma link delete}, which returns only once every process has let go of the device. */
    private static CompletableFuture<HostCommand.Outcome> remove(final String device)
    {
        return CompletableFuture.supplyAsync(() -> HostCommand.run(WAIT.multipliedBy(2), null, List.of("rdma", "link", "delete", device)));
    }

    private static String sh(final String script)
    {
        return HostCommand.run(WAIT, null, List.of("sh", "-c", script)).orFail(script).output();
    }
}
