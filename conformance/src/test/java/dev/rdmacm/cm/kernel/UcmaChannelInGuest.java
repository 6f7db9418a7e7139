package dev.rdmacm.cm.kernel;

import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.testing.HostCommand;
import dev.rdmacm.testing.OpenDescriptors;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.ucma.UcmaException;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.QueryAddrResponse;
import dev.rdmacm.ucma.abi.QueryPathResponse;
import dev.rdmacm.ucma.abi.UcmaCommand;
import dev.rdmacm.ucma.abi.UcmaConstants;
import dev.rdmacm.ucma.abi.UcmaEventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.PEER_IPV4;
import static dev.rdmacm.cm.kernel.KernelCmGuest.UNCONFIGURED_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The ucma module's channel against the real kernel CM of the kernel guest ({@link KernelCmGuest}'s
 * rxe0 on k0, 10.20.0.1, its peer 10.20.0.2; {@code ib_cm} loaded): the first slice of an id's life
 * (create, bind, resolve address and route, query, destroy) with what each event and answer carries,
 * the kernel's refusals named by command and errno, the waits for events, and that closing the channel
 * leaves no descriptor and no id of this process ({@code rdma resource show cm_id}).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class UcmaChannelInGuest
{
    private static final long UID = 0x0102_0304_0506_0708L;
    /** The task a line of {@code rdma resource show cm_id} names. */
    private static final Pattern PID = Pattern.compile(" pid (\\d+) ");

    private static RdmaSockaddr own(final int port)
    {
        return ipv4(OWN_IPV4, port);
    }

    private static RdmaSockaddr ipv4(final String text, final int port)
    {
        final String[] bytes = text.split("\\.");
        return new Ipv4Sockaddr(Integer.parseInt(bytes[0]) << 24 | Integer.parseInt(bytes[1]) << 16 |
            Integer.parseInt(bytes[2]) << 8 | Integer.parseInt(bytes[3]), port);
    }

    private static EventResponse awaitEvent(final UcmaChannel channel, final UcmaEventType expected, final int id)
    {
        final EventResponse event = channel.getEvent(30, TimeUnit.SECONDS);
        assertNotNull(event, "no " + expected + " within 30 s");
        assertEquals(expected, UcmaEventType.of(event.event()), "status " + event.status());
        assertEquals(0, event.status());
        assertEquals(UID, event.uid(), "the uid given at CREATE_ID, echoed");
        assertEquals(id, event.id());
        return event;
    }

    @Test
    void shouldResolveAnIdBoundToTheRxeAddressAndAnswerItsQueries() throws IOException
    {
        try (UcmaChannel channel = UcmaChannel.open())
        {
            final int id = channel.createId(UID, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);
            channel.bind(id, own(20101));
            channel.resolveAddr(id, null, ipv4(PEER_IPV4, 7471), 2000);
            awaitEvent(channel, UcmaEventType.ADDR_RESOLVED, id);

            final QueryAddrResponse addr = channel.queryAddr(id);
            assertEquals(Files.readString(Path.of("/sys/class/infiniband/rxe0/node_guid")).strip(),
                String.format("%04x:%04x:%04x:%04x", addr.nodeGuid() >>> 48, addr.nodeGuid() >>> 32 & 0xffff,
                    addr.nodeGuid() >>> 16 & 0xffff, addr.nodeGuid() & 0xffff));
            assertEquals(1, addr.portNum());
            assertEquals(own(20101), addr.source());
            assertEquals(ipv4(PEER_IPV4, 7471), addr.destination());

            channel.resolveRoute(id, 2000);
            awaitEvent(channel, UcmaEventType.ROUTE_RESOLVED, id);
            final QueryPathResponse paths = channel.queryPath(id);
            assertEquals(1, paths.numPaths());
            assertEquals(IbvPathData.FLAG_GMP | IbvPathData.FLAG_PRIMARY | IbvPathData.FLAG_BIDIRECTIONAL,
                paths.path(0, new IbvPathData()).flags());

            assertEquals(2, channel.destroyId(id), "DESTROY_ID's events_reported: ADDR_RESOLVED and ROUTE_RESOLVED");
        }
    }

    @Test
    void shouldNameTheCommandAndTheErrnoTheKernelRefusesItWith()
    {
        try (UcmaChannel channel = UcmaChannel.open())
        {
            final int id = channel.createId(UID, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);

            final UcmaException unconfigured = assertThrows(UcmaException.class, () -> channel.bind(id, ipv4(UNCONFIGURED_IPV4, 0)));
            final UcmaException noAddress = assertThrows(UcmaException.class, () -> channel.resolveRoute(id, 2000));
            final UcmaException unknown = assertThrows(UcmaException.class, () -> channel.destroyId(id + 1_000_000));

            assertEquals("RDMA_USER_CM_CMD_BIND: EADDRNOTAVAIL (Cannot assign requested address) on /dev/infiniband/rdma_cm",
                unconfigured.getMessage());
            assertEquals(UcmaCommand.RESOLVE_ROUTE, noAddress.command());
            assertEquals(Errno.EINVAL, noAddress.errno(), noAddress.getMessage());
            assertEquals("RDMA_USER_CM_CMD_DESTROY_ID: ENOENT (No such file or directory) on /dev/infiniband/rdma_cm",
                unknown.getMessage());
            assertEquals(0, channel.destroyId(id));
        }
    }

    @Test
    void shouldReturnNoEventWhenNoneIsQueuedWithinTheWait()
    {
        try (UcmaChannel channel = UcmaChannel.open())
        {
            channel.createId(UID, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);

            assertNull(channel.getEvent(0, TimeUnit.MILLISECONDS));
            assertNull(channel.getEvent(50, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void shouldLeaveNoDescriptorAndNoIdWhenClosedWithIdsOpen() throws IOException
    {
        final OpenDescriptors descriptors = OpenDescriptors.now();
        assertEquals(0, cmIdsOfThisProcess(), () -> "before: " + lastListing);

        final UcmaChannel channel = UcmaChannel.open();
        final int resolved = channel.createId(UID, UcmaConstants.RDMA_PS_TCP, UcmaConstants.IB_QPT_RC);
        channel.createId(UID + 1, UcmaConstants.RDMA_PS_UDP, UcmaConstants.IB_QPT_UD);
        channel.resolveAddr(resolved, own(20102), ipv4(PEER_IPV4, 7472), 2000);
        awaitEvent(channel, UcmaEventType.ADDR_RESOLVED, resolved);
        assertEquals(1, cmIdsOfThisProcess(), () -> "the id bound to rxe0 while the channel is open: " + lastListing);
        channel.close();

        assertEquals(0, cmIdsOfThisProcess(), () -> "after closing with two ids left: " + lastListing);
        assertEquals(List.of(), OpenDescriptors.openedSince(descriptors), "descriptors of this process left open");
    }

    /**
     * The kernel's CM ids of this process, as {@code rdma resource show cm_id} lists them (one line each).
     * The kernel names the task that made the id: the writing thread's id, not the process's, so a line
     * is ours when its pid is one of this process's threads ({@code /proc/self/task}).
     */
    private static long cmIdsOfThisProcess() throws IOException
    {
        final Set<String> threads;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task")))
        {
            threads = tasks.map(task -> task.getFileName().toString()).collect(Collectors.toSet());
        }
        final String listing = HostCommand.run(Duration.ofSeconds(30), "rdma", "resource", "show", "cm_id")
            .orFail("rdma resource show cm_id").output();
        lastListing = listing;
        return listing.lines().filter(line -> PID.matcher(line).results().anyMatch(m -> threads.contains(m.group(1)))).count();
    }

    /** What {@link #cmIdsOfThisProcess} read last, for the failure message. */
    private static String lastListing = "";
}
