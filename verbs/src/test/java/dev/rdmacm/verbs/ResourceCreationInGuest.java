package dev.rdmacm.verbs;

import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.RdmaResources.hexKey;
import static dev.rdmacm.verbs.RdmaResources.number;
import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER_NETDEV;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER_NETDEV;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): a PD, an MR, a CQ, a completion
 * channel and an address handle with a GRH on {@code rxe10}, each compared with what the kernel
 * reports for it: the objects in {@code rdma resource show} with their numbers and keys, the
 * channel's file descriptor, and the neighbour entry the kernel resolves for the AH's GID.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class ResourceCreationInGuest
{
    private static final int REGION_BYTES = 8192;

    private VerbsContext context;

    @BeforeEach
    void openTheDevice()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
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
    void shouldOpenAContextTheKernelLists()
    {
        assertEquals(1, RdmaResources.ours("ctx", SENDER).size());
    }

    @Test
    void shouldAllocateAProtectionDomainInThisContext()
    {
        context.allocateProtectionDomain();
        final Map<String, Object> pd = RdmaResources.ourOnly("pd", SENDER);

        assertEquals(number(RdmaResources.ourOnly("ctx", SENDER), "ctxn"), number(pd, "ctxn"));
    }

    @Test
    void shouldRegisterMemoryWithTheKeysAndLengthTheKernelLists()
    {
        final MemoryRegion region = context.allocateProtectionDomain().allocateMemoryRegion(REGION_BYTES,
            IbvConstants.IBV_ACCESS_LOCAL_WRITE);
        final Map<String, Object> mr = RdmaResources.ourOnly("mr", SENDER);

        assertEquals(hexKey(mr, "lkey"), region.lkey());
        assertEquals(hexKey(mr, "rkey"), region.rkey());
        assertEquals(number(mr, "mrlen"), region.memory().byteSize());
        assertEquals(number(RdmaResources.ourOnly("pd", SENDER), "pdn"), number(mr, "pdn"));
    }

    @Test
    void shouldCreateACompletionQueueWithTheCapacityTheKernelLists()
    {
        final CompletionQueue cq = context.createCompletionQueue(100, null);

        assertEquals(number(RdmaResources.ourOnly("cq", SENDER), "cqe"), cq.capacity());
    }

    @Test
    void shouldCreateACompletionChannelWhoseFdIsTheKernelsEventFile() throws IOException
    {
        final CompletionChannel channel = context.createCompletionChannel();

        // the name ib_uverbs gives the anonymous inode of every completion event file it creates
        assertEquals("anon_inode:[infinibandevent]", Files.readSymbolicLink(Path.of("/proc/self/fd/" + channel.fd())).toString());
    }

    @Test
    void shouldResolveTheDestinationMacWhenCreatingAnAddressHandleWithAGrh()
    {
        final GuestNetdev sender = new GuestNetdev(SENDER_NETDEV);
        final GuestNetdev receiver = new GuestNetdev(RECEIVER_NETDEV);
        final SysfsPort senderPort = new SysfsPort(SENDER, PORT);
        final int sgidIndex = senderPort.gidIndex(sender.ipv4Gid().toLongForm(), GidType.ROCE_V2.text());
        sender.flushNeighbours();

        context.allocateProtectionDomain().createAddressHandle(AddressVector.global(PORT, 0, 0, receiver.ipv4Gid(), sgidIndex, 64));

        assertEquals(receiver.mac(), sender.neighbourMac(receiver.ipv4Address()));
    }
}
