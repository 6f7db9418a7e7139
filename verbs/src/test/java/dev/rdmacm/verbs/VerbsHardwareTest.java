package dev.rdmacm.verbs;

import dev.rdmacm.verbs.sysfs.SysfsDevices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The binding against a real RDMA device: port and GID queries compared with sysfs, and a UD
 * datagram looped back to its own QP.
 * <p>
 * Runs only where {@code /dev/infiniband/uverbs*} exists, and skips elsewhere <b>even with
 * CI=true</b>, because no CI machine has RDMA hardware. To run it on a machine with an HCA, or with
 * soft-RoCE ({@code modprobe rdma_rxe; rdma link add rxe0 type rxe netdev eth0}):
 * <pre>
 *   RDMACM_VERBS_DEVICE=rxe0 RDMACM_VERBS_PORT=1 mvn -B -pl verbs -am verify \
 *       -Dtest=VerbsHardwareTest -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 * (device defaults to the first one libibverbs lists, port to 1).
 */
class VerbsHardwareTest
{
    static final String HOW_TO_RUN = "RDMACM_VERBS_DEVICE=<dev> RDMACM_VERBS_PORT=<port> mvn -B -pl verbs -am verify "
        + "-Dtest=VerbsHardwareTest -Dsurefire.failIfNoSpecifiedTests=false";
    private static final long TEST_QKEY = 0x1111_1111L;
    private static final int PAYLOAD = 256;
    private static final int GRH = IbvConstants.GRH_LENGTH;

    private VerbsContext context;
    private int port;

    @BeforeEach
    void openTheDevice()
    {
        Assumptions.assumeTrue(hasUverbsDevice(), "skipped: no RDMA hardware (no /dev/infiniband/uverbs*). This test skips "
            + "even with CI=true because no CI machine has RDMA hardware; on a machine with an HCA or soft-RoCE run: " + HOW_TO_RUN);
        final DeviceListing listing = Verbs.listDevices();
        assertFalse(listing.isEmpty(), "uverbs device present but libibverbs lists none: " + listing.whyNone().orElse(""));
        final String name = System.getenv().getOrDefault("RDMACM_VERBS_DEVICE", listing.devices().get(0).name());
        port = Integer.parseInt(System.getenv().getOrDefault("RDMACM_VERBS_PORT", "1"));
        context = Verbs.open(name);
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
    void shouldDescribeTheDeviceAsSysfsDoes()
    {
        final RdmaDevice sysfs = SysfsDevices.read().device(context.deviceName()).orElseThrow();

        assertEquals(sysfs, context.describe());
    }

    @Test
    void shouldQueryThePortThroughTheExtendedContext()
    {
        final PortAttributes attributes = context.queryPort(port);
        final RdmaPort sysfs = SysfsDevices.read().device(context.deviceName()).orElseThrow().ports().get(port - 1);

        assertTrue(context.ops().hasExtendedQueryPort());
        assertEquals(sysfs.state(), attributes.portState());
        assertEquals(sysfs.lid(), attributes.lid());
        assertEquals(sysfs.smLid(), attributes.smLid());
        assertEquals(sysfs.linkLayer(), attributes.linkLayerType());
        assertEquals(sysfs.rate(), attributes.rateText());
    }

    @Test
    void shouldReadEachGidLikeTheGidTable()
    {
        final List<GidEntry> table = context.gidTable(port);

        assertFalse(table.isEmpty());
        for (final GidEntry entry : table)
        {
            assertEquals(entry, context.queryGid(port, entry.index()));
        }
    }

    @Test
    void shouldLoopAUdDatagramBackToItsOwnQp()
    {
        final PortAttributes attributes = context.queryPort(port);
        Assumptions.assumeTrue(attributes.portState() == PortState.ACTIVE, "port " + port + " is not ACTIVE");
        final ProtectionDomain pd = context.allocateProtectionDomain();
        final CompletionChannel channel = context.createCompletionChannel();
        final CompletionQueue cq = context.createCompletionQueue(16, channel);
        final UdQueuePair qp = pd.createUdQueuePair(cq, cq, QueuePairCapabilities.forMads()).activate(port, 0, TEST_QKEY);
        final MemoryRegion region = pd.allocateMemoryRegion(4096, IbvConstants.IBV_ACCESS_LOCAL_WRITE);
        final AddressHandle self = pd.createAddressHandle(selfAddress(attributes));
        final MemorySegment payload = region.memory().asSlice(1024, PAYLOAD);
        for (int i = 0; i < PAYLOAD; i++)
        {
            payload.set(JAVA_BYTE, i, (byte)i);
        }

        qp.postReceive(1, region, 0, GRH + PAYLOAD);
        cq.requestNotification(false);
        qp.postSend(2, region, 1024, PAYLOAD, self, qp.qpNumber(), TEST_QKEY, true);

        try (WorkCompletions completions = new WorkCompletions(4))
        {
            int seen = 0;
            long receivedBytes = -1;
            int sourceQp = -1;
            while (seen < 2)
            {
                if (cq.poll(completions) == 0)
                {
                    assertEquals(cq, channel.awaitEvent());
                    cq.requestNotification(false);
                    continue;
                }
                assertEquals(IbvConstants.IBV_WC_SUCCESS, completions.status(0), "completion status");
                if (completions.opcode(0) == IbvConstants.IBV_WC_RECV)
                {
                    receivedBytes = completions.byteLength(0);
                    sourceQp = completions.sourceQp(0);
                }
                seen++;
            }
            assertEquals(GRH + PAYLOAD, receivedBytes);
            assertEquals(qp.qpNumber(), sourceQp);
            assertArrayEquals(payload.toArray(JAVA_BYTE), region.memory().asSlice(GRH, PAYLOAD).toArray(JAVA_BYTE));
        }
    }

    @Test
    void shouldSetTheSaQkeyOrSayWhichPrivilegeIsMissing()
    {
        final ProtectionDomain pd = context.allocateProtectionDomain();
        final CompletionQueue cq = context.createCompletionQueue(4, null);
        final UdQueuePair qp = pd.createUdQueuePair(cq, cq, QueuePairCapabilities.forMads());
        try
        {
            qp.init(port, 0, Qkey.GSI_QKEY);
            assertEquals(QpState.INIT, qp.state());
        }
        catch (final VerbsException ex)
        {
            assertEquals(Errno.EPERM, ex.errno());
            assertTrue(ex.getMessage().contains("CAP_NET_RAW") && ex.getMessage().contains("rdma system set privileged-qkey on"),
                ex.getMessage());
        }
    }

    private AddressVector selfAddress(final PortAttributes attributes)
    {
        if (attributes.linkLayerType() == LinkLayer.INFINIBAND && attributes.lid() != 0)
        {
            return AddressVector.lid(port, attributes.lid(), 0);
        }
        final GidEntry source = context.gidTable(port).stream()
            .filter(g -> g.type() == GidType.ROCE_V2).findFirst()
            .orElseGet(() -> context.gidTable(port).get(0));
        return AddressVector.global(port, attributes.lid(), 0, source.gid(), source.index(), 64);
    }

    private static boolean hasUverbsDevice()
    {
        final Path dir = Path.of("/dev/infiniband");
        if (!Files.isDirectory(dir))
        {
            return false;
        }
        try (Stream<Path> entries = Files.list(dir))
        {
            return entries.anyMatch(p -> p.getFileName().toString().startsWith("uverbs"));
        }
        catch (final IOException ex)
        {
            return false;
        }
    }
}
