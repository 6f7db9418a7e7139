package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.RdmaResources.number;
import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): a UD QP on {@code rxe10} moved
 * RESET -> INIT -> RTR -> RTS, each state read back with {@code ibv_query_qp} and compared with the
 * QP the kernel lists in {@code rdma resource show qp}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class QueuePairStatesInGuest
{
    private static final long QKEY = 0x1234_5678L;
    private static final int SQ_PSN = 0xabcdef;

    private VerbsContext context;
    private UdQueuePair qp;

    @BeforeEach
    void createAQueuePair()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        context = Verbs.open(SENDER);
        final CompletionQueue cq = context.createCompletionQueue(16, null);
        qp = context.allocateProtectionDomain().createUdQueuePair(cq, cq, QueuePairCapabilities.forMads());
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
    void shouldCreateAUdQueuePairTheKernelListsInReset()
    {
        final Map<String, Object> listed = RdmaResources.ourOnly("qp", SENDER);

        assertEquals(qp.qpNumber(), number(listed, "lqpn"));
        assertEquals("UD", listed.get("type"));
        assertEquals("RESET", listed.get("state"));
        assertEquals(QpState.RESET, qp.query().state());
    }

    @Test
    void shouldMoveToInitWithThePortPkeyIndexAndQkey()
    {
        qp.init(PORT, 0, QKEY);
        final Map<String, Object> listed = RdmaResources.ourOnly("qp", SENDER);

        assertEquals("INIT", listed.get("state"));
        assertEquals(new QueuePairAttributes(QpState.INIT, QKEY, 0, PORT, (int)number(listed, "sq-psn")), qp.query());
    }

    @Test
    void shouldMoveToReadyToReceive()
    {
        qp.init(PORT, 0, QKEY).readyToReceive();

        assertEquals(QpState.RTR, qp.query().state());
        assertEquals("RTR", RdmaResources.ourOnly("qp", SENDER).get("state"));
    }

    @Test
    void shouldMoveToReadyToSendWithTheSendPsn()
    {
        qp.init(PORT, 0, QKEY).readyToReceive().readyToSend(SQ_PSN);
        final Map<String, Object> listed = RdmaResources.ourOnly("qp", SENDER);

        assertEquals(new QueuePairAttributes(QpState.RTS, QKEY, 0, PORT, SQ_PSN), qp.query());
        assertEquals("RTS", listed.get("state"));
        assertEquals(SQ_PSN, number(listed, "sq-psn"));
    }

    @Test
    void shouldStayInResetWhenTheKernelRefusesAPortTheDeviceLacks()
    {
        final int missingPort = new SysfsPort(SENDER, PORT).portCount() + 1;

        final VerbsException ex = assertThrows(VerbsException.class, () -> qp.init(missingPort, 0, QKEY));

        assertEquals(Errno.EINVAL, ex.errno(), ex.getMessage());
        assertEquals(QpState.RESET, qp.state());
        assertEquals(QpState.RESET, qp.query().state());
        assertEquals("RESET", RdmaResources.ourOnly("qp", SENDER).get("state"));
    }
}
