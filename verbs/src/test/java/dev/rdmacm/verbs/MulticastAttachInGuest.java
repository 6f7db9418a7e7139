package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.testing.Peers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static dev.rdmacm.verbs.SoftRoceGuest.PORT;
import static dev.rdmacm.verbs.SoftRoceGuest.SENDER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Run inside the soft-RoCE guest (the conformance module's {@code SoftRoceGuestsTest}): {@code ibv_attach_mcast}
 * and {@code ibv_detach_mcast} of a UD QP on {@code rxe10}, against the kernel's {@code ib_attach_mcast} rules
 * (a multicast GID; on RoCE any LID) and rxe's group table.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class MulticastAttachInGuest
{
    /** The MGID cma_iboe_set_mgid makes for 239.1.2.3 under RoCE v2 (measured: {@code joined dgid: ::ffff:239.1.2.3}). */
    private static final Gid GROUP = Gid.parse("::ffff:239.1.2.3");

    private VerbsContext context;
    private UdQueuePair qp;

    @BeforeEach
    void createAQueuePair()
    {
        Peers.require(!Verbs.listDevices().isEmpty(), "no RDMA device in the guest: " + Verbs.listDevices().whyNone().orElse(""));
        context = Verbs.open(SENDER);
        final CompletionQueue cq = context.createCompletionQueue(16, null);
        qp = context.allocateProtectionDomain().createUdQueuePair(cq, cq, QueuePairCapabilities.forMads())
            .activate(PORT, 0, 0x0123_4567L);
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
    void shouldAttachAndDetachAMulticastGroup()
    {
        qp.attachMulticast(GROUP, 0);

        qp.detachMulticast(GROUP, 0);
    }

    @Test
    void shouldAcceptASecondAttachOfTheSameGroup()
    {
        qp.attachMulticast(GROUP, 0);

        qp.attachMulticast(GROUP, 0);
        qp.detachMulticast(GROUP, 0);
    }

    @Test
    void shouldRefuseAUnicastGidWithEinval()
    {
        final VerbsException ex = assertThrows(VerbsException.class,
            () -> qp.attachMulticast(Gid.parse("::ffff:10.9.0.2"), 0));

        assertEquals(Errno.EINVAL, ex.errno());
    }

    @Test
    void shouldRefuseToDetachAGroupNeverAttachedWithEinval()
    {
        final VerbsException ex = assertThrows(VerbsException.class, () -> qp.detachMulticast(GROUP, 0));

        assertEquals(Errno.EINVAL, ex.errno());
    }
}
