package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER_NETDEV;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER_NETDEV;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): whatever is created on
 * {@code rxe10}, and however it ends (closed one by one, closed with its context, or half-made by a
 * call the kernel refused), the kernel's counts in {@code rdma resource show} return to what they
 * were before the test opened the device, and no object of this JVM is left in the per-type lists.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class ResourceCleanupInGuest
{
    private static final long QKEY = 0x2222_2222L;

    private Map<String, Long> baseline;
    private VerbsContext context;

    @BeforeEach
    void countBeforeOpening()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        baseline = RdmaResources.counts(SENDER);
        context = Verbs.open(SENDER);
    }

    @AfterEach
    void closeTheDevice()
    {
        if (context != null)
        {
            context.close();
        }
    }

    @Test
    void shouldReturnToTheBaselineAfterClosingEveryResourceInTurn()
    {
        final Resources all = createEverything();
        assertEquals(baseline.get("qp") + 1, RdmaResources.counts(SENDER).get("qp"), "the QP is counted while open");

        all.ah().close();
        all.qp().close();
        all.cq().close();
        all.channel().close();
        all.mr().close();
        all.pd().close();
        context.close();

        assertNothingLeft();
    }

    @Test
    void shouldReturnToTheBaselineWhenTheContextClosesWithEverythingOpen()
    {
        createEverything();

        context.close();

        assertNothingLeft();
    }

    @Test
    void shouldReturnToTheBaselineAfterTheKernelRefusesAQueuePair()
    {
        final ProtectionDomain pd = context.allocateProtectionDomain();
        final CompletionQueue cq = context.createCompletionQueue(16, null);
        final int tooMany = context.queryDevice().maxQpWr() + 1;

        final VerbsException ex = assertThrows(VerbsException.class,
            () -> pd.createUdQueuePair(cq, cq, new QueuePairCapabilities(tooMany, 16, 1, 1, 0)));
        assertEquals(Errno.EINVAL, ex.errno(), ex.getMessage());
        assertEquals(baseline.get("qp"), RdmaResources.counts(SENDER).get("qp"), "no QP after the refusal");
        context.close();

        assertNothingLeft();
    }

    @Test
    void shouldReturnToTheBaselineAfterTheKernelRefusesAModify()
    {
        final CompletionQueue cq = context.createCompletionQueue(16, null);
        final UdQueuePair qp = context.allocateProtectionDomain().createUdQueuePair(cq, cq, QueuePairCapabilities.forMads());
        final int missingPort = new SysfsPort(SENDER, PORT).portCount() + 1;

        assertThrows(VerbsException.class, () -> qp.init(missingPort, 0, QKEY));
        context.close();

        assertNothingLeft();
    }

    @Test
    void shouldReturnToTheBaselineAfterTheKernelRefusesAnAddressHandle()
    {
        final ProtectionDomain pd = context.allocateProtectionDomain();
        final SysfsPort port = new SysfsPort(SENDER, PORT);
        final int sgidIndex = port.gidIndex(new GuestNetdev(SENDER_NETDEV).ipv4Gid().toLongForm(), GidType.ROCE_V2.text());
        // a GID of the receiver's netdev that nobody answers ARP for
        final Gid unanswered = Gid.ipv4Mapped(new GuestNetdev(RECEIVER_NETDEV).ipv4Gid().ipv4Address() + 100);

        final VerbsException ex = assertThrows(VerbsException.class,
            () -> pd.createAddressHandle(AddressVector.global(PORT, 0, 0, unanswered, sgidIndex, 64)));
        assertEquals("ibv_create_ah", ex.call(), ex.getMessage());
        assertEquals(Errno.ETIMEDOUT, ex.errno(), "the kernel's answer when ARP goes unanswered: " + ex.getMessage());
        context.close();

        assertNothingLeft();
    }

    @Test
    void shouldFreeAProtectionDomainWhoseDeallocationFailedWhenTheContextCloses()
    {
        final ProtectionDomain pd = context.allocateProtectionDomain();
        final CompletionQueue cq = context.createCompletionQueue(16, null);
        pd.createUdQueuePair(cq, cq, QueuePairCapabilities.forMads());

        final VerbsException busy = assertThrows(VerbsException.class, pd::close);
        assertEquals(Errno.EBUSY, busy.errno(), busy.getMessage());
        assertEquals(1, RdmaResources.ours("pd", SENDER).size(), "the PD is still there");
        context.close();

        assertNothingLeft();
    }

    private Resources createEverything()
    {
        final ProtectionDomain pd = context.allocateProtectionDomain();
        final MemoryRegion mr = pd.allocateMemoryRegion(4096, IbvConstants.IBV_ACCESS_LOCAL_WRITE);
        final CompletionChannel channel = context.createCompletionChannel();
        final CompletionQueue cq = context.createCompletionQueue(16, channel);
        final UdQueuePair qp = pd.createUdQueuePair(cq, cq, QueuePairCapabilities.forMads()).activate(PORT, 0, QKEY);
        final SysfsPort port = new SysfsPort(SENDER, PORT);
        final GuestNetdev sender = new GuestNetdev(SENDER_NETDEV);
        final int sgidIndex = port.gidIndex(sender.ipv4Gid().toLongForm(), GidType.ROCE_V2.text());
        final AddressHandle ah = pd.createAddressHandle(
            AddressVector.global(PORT, 0, 0, new GuestNetdev(RECEIVER_NETDEV).ipv4Gid(), sgidIndex, 64));
        return new Resources(pd, mr, channel, cq, qp, ah);
    }

    private record Resources(ProtectionDomain pd, MemoryRegion mr, CompletionChannel channel, CompletionQueue cq, UdQueuePair qp,
        AddressHandle ah)
    {
    }

    private void assertNothingLeft()
    {
        final RdmaResources.Snapshot after = RdmaResources.snapshot(SENDER);

        assertEquals(baseline, after.counts(), "rdma resource show " + SENDER + ": before opening vs after closing");
        for (final String type : RdmaResources.TYPES)
        {
            assertEquals(List.of(), after.ours().get(type), "rdma resource show " + type + " of this JVM");
        }
    }
}
