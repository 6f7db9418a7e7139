package dev.rdmacm.cm;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.testing.Peers;
import dev.rdmacm.verbs.CompletionQueue;
import dev.rdmacm.verbs.ProtectionDomain;
import dev.rdmacm.verbs.QpState;
import dev.rdmacm.verbs.QueuePairCapabilities;
import dev.rdmacm.verbs.RcQueuePair;
import dev.rdmacm.verbs.UdQueuePair;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdma_create_qp} on real QPs of a Soft-RoCE device, in the userspace-CM guest
 * ({@code UserspaceGuestSuite}, the verbs pair's {@code rxe10} on {@code v0}, 192.0.2.1): the checks
 * and the QP's moves happen on the caller's thread, as in librdmacm, so the call returns while the
 * conductor is busy, and a refused call leaves the QP as it was (RESET).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public class AttachQpInGuest
{
    private static final QueuePairCapabilities CAPABILITIES = new QueuePairCapabilities(1, 1, 1, 1, 0);

    private static RdmaCm cm;
    private static InetAddress sender;

    @BeforeAll
    static void open() throws Exception
    {
        Peers.require(System.getenv("RDMACM_GUEST_SHARE") != null,
            "RDMACM_GUEST_SHARE: this class runs inside a KernelGuest (UserspaceGuestSuite)");
        sender = InetAddress.getByName("192.0.2.1");
        cm = RdmaCm.open();
    }

    @AfterAll
    static void close()
    {
        if (cm != null)
        {
            cm.close();
        }
    }

    /** An id of {@code space} bound to the verbs pair's sender, so that it is on {@code rxe10}. */
    private static RdmaCmId boundId(final PortSpace space)
    {
        final RdmaCmId id = cm.createId(null, space);
        id.bindAddr(sender);
        assertEquals("rxe10", id.binding().device());
        return id;
    }

    @Test
    void shouldMoveAnRcQpToInitOnTheCallersThreadWhileTheConductorIsBusy() throws Exception
    {
        final RdmaCmId id = boundId(PortSpace.TCP);
        try (VerbsContext context = Verbs.open("rxe10"))
        {
            final ProtectionDomain pd = context.allocateProtectionDomain();
            final CompletionQueue cq = context.createCompletionQueue(2, null);
            final RcQueuePair qp = pd.createRcQueuePair(cq, cq, CAPABILITIES);
            try (HeldConductor held = HeldConductor.hold(cm))
            {
                id.attachQp(qp);

                assertEquals(QpState.INIT, qp.state());
            }
            final CompletableFuture<Void> drained = new CompletableFuture<>();
            assertTrue(cm.trySubmit(loop -> drained.complete(null)));
            drained.get();
        }
        finally
        {
            id.destroy();
        }
    }

    @Test
    void shouldSetAUdQpUpToRtsOnTheCallersThread() throws Exception
    {
        final RdmaCmId id = boundId(PortSpace.UDP);
        try (VerbsContext context = Verbs.open("rxe10"))
        {
            final CompletionQueue cq = context.createCompletionQueue(2, null);
            final UdQueuePair qp = context.allocateProtectionDomain().createUdQueuePair(cq, cq, CAPABILITIES);

            id.attachQp(qp);

            assertEquals(QpState.RTS, qp.state());
        }
        finally
        {
            id.destroy();
        }
    }

    @Test
    void shouldRefuseAQpOnADestroyedIdAndLeaveItInReset() throws Exception
    {
        final RdmaCmId id = boundId(PortSpace.TCP);
        id.destroy();
        try (VerbsContext context = Verbs.open("rxe10"))
        {
            final CompletionQueue cq = context.createCompletionQueue(2, null);
            final RcQueuePair qp = context.allocateProtectionDomain().createRcQueuePair(cq, cq, CAPABILITIES);

            final RdmaCmException refused = assertThrows(RdmaCmException.class, () -> id.attachQp(qp));

            assertEquals(Errno.EINVAL, refused.errno());
            assertEquals(QpState.RESET, qp.state());
        }
    }

    @Test
    void shouldRefuseAQpOnAnIdWithoutADeviceAndLeaveItInReset() throws Exception
    {
        try (RdmaCmId id = cm.createId(null); VerbsContext context = Verbs.open("rxe10"))
        {
            final CompletionQueue cq = context.createCompletionQueue(2, null);
            final RcQueuePair qp = context.allocateProtectionDomain().createRcQueuePair(cq, cq, CAPABILITIES);

            final RdmaCmException refused = assertThrows(RdmaCmException.class, () -> id.attachQp(qp));

            assertEquals(Errno.EINVAL, refused.errno());
            assertEquals(QpState.RESET, qp.state());
        }
    }

    @Test
    void shouldRefuseAQpOfTheOtherTypeThanThePortSpaces() throws Exception
    {
        try (RdmaCmId rc = boundId(PortSpace.TCP); RdmaCmId ud = boundId(PortSpace.UDP); RdmaCmId ipoib = boundId(PortSpace.IPOIB);
             VerbsContext context = Verbs.open("rxe10"))
        {
            final ProtectionDomain pd = context.allocateProtectionDomain();
            final CompletionQueue cq = context.createCompletionQueue(4, null);
            final RcQueuePair rcQp = pd.createRcQueuePair(cq, cq, CAPABILITIES);
            final UdQueuePair udQp = pd.createUdQueuePair(cq, cq, CAPABILITIES);

            assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, () -> ud.attachQp(rcQp)).errno());
            assertEquals(Errno.EINVAL, assertThrows(RdmaCmException.class, () -> rc.attachQp(udQp)).errno());
            assertEquals(Errno.EOPNOTSUPP, assertThrows(RdmaCmException.class, () -> ipoib.attachQp(udQp)).errno());
            assertEquals(QpState.RESET, rcQp.state());
            assertEquals(QpState.RESET, udQp.state());
        }
    }
}
