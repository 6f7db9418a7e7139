package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER;
import static dev.rdmacm.verbs.SoftRoceGuest.RECEIVER_NETDEV;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER_NETDEV;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): an RC
 * pair between {@code rxe10} and {@code rxe11}, however it ends (closed in turn after traffic,
 * closed with its contexts, after the kernel refused a transition, after its QP went to error, or
 * after a CQ was closed before the QP using it), leaves the kernel's counts in
 * {@code rdma resource show} on both devices as they were before, and no object of this JVM listed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class RcResourceCleanupInGuest
{
    private static final QueuePairCapabilities CAPABILITIES = new QueuePairCapabilities(4, 4, 1, 1, 0);

    private Map<String, Long> senderBaseline;
    private Map<String, Long> receiverBaseline;
    private VerbsContext sender;
    private VerbsContext receiver;

    @BeforeEach
    void countBeforeOpening()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        senderBaseline = RdmaResources.counts(SENDER);
        receiverBaseline = RdmaResources.counts(RECEIVER);
        sender = Verbs.open(SENDER);
        receiver = Verbs.open(RECEIVER);
    }

    @AfterEach
    void closeTheDevices()
    {
        sender.close();
        receiver.close();
    }

    @Test
    void shouldReturnToTheBaselineAfterTrafficAndClosingInTurn()
    {
        final RcEndpoint a = new RcEndpoint(sender, SENDER_NETDEV, 8, CAPABILITIES, 4096, false);
        final RcEndpoint b = new RcEndpoint(receiver, RECEIVER_NETDEV, 8, CAPABILITIES, 4096, false);
        RcEndpoint.connect(a, 1, b, 2, 14, 7);
        try (ScatterGatherList sgl = new ScatterGatherList(1))
        {
            a.qp.postRdmaWrite(1, sgl.add(a.region, 0, 4096), b.region.address(), b.region.rkey(), true);
            assertEquals(CompletionStatus.SUCCESS.value(), Completion.awaitOne(a.cq).status());
        }
        assertEquals(senderBaseline.get("qp") + 1, RdmaResources.counts(SENDER).get("qp"), "the QP is counted while open");

        a.close();
        b.close();
        sender.close();
        receiver.close();

        assertNothingLeft();
    }

    @Test
    void shouldReturnToTheBaselineWhenTheContextsCloseWithConnectedQpsOpen()
    {
        RcEndpoint.connect(new RcEndpoint(sender, SENDER_NETDEV, 8, CAPABILITIES, 4096, true), 1,
            new RcEndpoint(receiver, RECEIVER_NETDEV, 8, CAPABILITIES, 4096, true), 2, 14, 7);

        sender.close();
        receiver.close();

        assertNothingLeft();
    }

    @Test
    void shouldNameTheStatesAndMaskWhenTheKernelRefusesAnRtrAndLeaveNothing()
    {
        final RcEndpoint a = new RcEndpoint(sender, SENDER_NETDEV, 8, CAPABILITIES, 4096, false);
        a.qp.init(PORT, 0, RcEndpoint.REMOTE_ACCESS);
        final int empty = new SysfsPort(SENDER, PORT).firstEmptyGidIndex();
        final AddressVector unusable = new AddressVector(PORT, 0, 0, 0, 0,
            Optional.of(new AddressVector.GlobalRoute(new GuestNetdev(RECEIVER_NETDEV).ipv4Gid(), empty, 64, 0, 0)));

        final VerbsException ex = assertThrows(VerbsException.class,
            () -> a.qp.readyToReceive(new RcReceiveParameters(unusable, MtuCode.MTU_1024, 0x11, 0, 1, 0)));

        assertEquals("ibv_modify_qp", ex.call());
        assertEquals(Errno.ENODATA, ex.errno(), "the kernel's answer for an SGID index without a GID: " + ex.getMessage());
        assertTrue(ex.detail().startsWith(a.qp + " INIT -> RTR, attr_mask 0x129181 (IBV_QP_STATE|IBV_QP_AV|IBV_QP_PATH_MTU|"
            + "IBV_QP_RQ_PSN|IBV_QP_MIN_RNR_TIMER|IBV_QP_MAX_DEST_RD_ATOMIC|IBV_QP_DEST_QPN): RcReceiveParameters[primaryPath="),
            ex.detail());
        assertEquals(QpState.INIT, a.qp.state(), "a refused transition leaves the state as it was");
        assertEquals(QpState.INIT, a.qp.query().state());
        sender.close();
        receiver.close();

        assertNothingLeft();
    }

    @Test
    void shouldReturnToTheBaselineAfterAQpEndedInError()
    {
        final RcEndpoint a = new RcEndpoint(sender, SENDER_NETDEV, 8, CAPABILITIES, 4096, false);
        final RcEndpoint b = new RcEndpoint(receiver, RECEIVER_NETDEV, 8, CAPABILITIES, 4096, false);
        RcEndpoint.connect(a, 1, b, 2, 14, 7);
        try (ScatterGatherList sgl = new ScatterGatherList(1))
        {
            a.qp.postRdmaRead(1, sgl.add(a.region, 0, 64), b.region.address(), b.region.rkey() ^ 0xff, true);
            assertEquals(CompletionStatus.REM_ACCESS_ERR.value(), Completion.awaitOne(a.cq).status());
        }

        a.close();
        b.close();
        sender.close();
        receiver.close();

        assertNothingLeft();
    }

    @Test
    void shouldKeepACompletionQueueItsQpUsesAndFreeItWithTheContext()
    {
        final RcEndpoint a = new RcEndpoint(sender, SENDER_NETDEV, 8, CAPABILITIES, 4096, false);

        final VerbsException busy = assertThrows(VerbsException.class, a.cq::close);

        assertEquals(Errno.EBUSY, busy.errno(), busy.getMessage());
        assertEquals(1, RdmaResources.ours("cq", SENDER).size(), "the CQ is still there");
        sender.close();
        receiver.close();
        assertNothingLeft();
    }

    private void assertNothingLeft()
    {
        for (final String device : List.of(SENDER, RECEIVER))
        {
            final RdmaResources.Snapshot after = RdmaResources.snapshot(device);
            assertEquals(device.equals(SENDER) ? senderBaseline : receiverBaseline, after.counts(),
                "rdma resource show " + device + ": before opening vs after closing");
            for (final String type : RdmaResources.TYPES)
            {
                assertEquals(List.of(), after.ours().get(type), "rdma resource show " + type + " of this JVM on " + device);
            }
        }
    }
}
