package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.mad.Gsi;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QkeyTest
{
    @Test
    void shouldExplainARefusedPrivilegedQkey()
    {
        final VerbsException refused = new VerbsException("ibv_modify_qp", Errno.EPERM, "UD QP 17 on rxe0 RESET -> INIT");

        final VerbsException explained = Qkey.modifyFailure(refused, Gsi.QKEY);

        assertEquals("ibv_modify_qp", explained.call());
        assertEquals(Errno.EPERM, explained.errno());
        assertSame(refused, explained.getCause());
        assertEquals("ibv_modify_qp failed: errno 1 EPERM: UD QP 17 on rxe0 RESET -> INIT: the kernel refused the privileged"
            + " Q_Key 0x80010000 (bit 31 set): setting it needs CAP_NET_RAW, or the kernel's privileged-qkey mode on for every"
            + " user: `rdma system set privileged-qkey on` (Linux 6.7, or a kernel with its backport, and an rdma tool newer"
            + " than iproute2 6.1's, which does not know the setting)", explained.getMessage());
    }

    @Test
    void shouldLeaveOtherModifyFailuresAlone()
    {
        final VerbsException eperm = new VerbsException("ibv_modify_qp", Errno.EPERM, "x");
        final VerbsException einval = new VerbsException("ibv_modify_qp", Errno.EINVAL, "x");

        assertSame(eperm, Qkey.modifyFailure(eperm, 0x1234));
        assertSame(einval, Qkey.modifyFailure(einval, Gsi.QKEY));
    }

    @Test
    void shouldTreatBit31AsPrivileged()
    {
        assertTrue(Qkey.isPrivileged(Gsi.QKEY));
        assertTrue(Qkey.isPrivileged(0x8000_0000L));
        assertFalse(Qkey.isPrivileged(0x7fff_ffffL));
    }
}
