package dev.rdmacm.cm.kernel;

import dev.rdmacm.addrinfo.Ipv4Sockaddr;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.ucma.UcmaException;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.UcmaCommand;
import dev.rdmacm.ucma.abi.UcmaConstants;
import dev.rdmacm.ucma.abi.UcmaEventType;
import dev.rdmacm.ucma.abi.UdParam;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.rdmacm.cm.kernel.KernelCmGuest.OWN_IPV4;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The ucma module's multicast commands against the real kernel CM of the kernel guest (rxe0 on k0, RoCE v2):
 * JOIN_MCAST (send-only) and JOIN_IP_MCAST of two IPv4 groups on one RDMA_PS_UDP id bound to 10.20.0.1, each
 * answered with a membership handle that its MULTICAST_JOIN carries with the join's uid; LEAVE_MCAST of each,
 * which counts the events handed out, and of a handle already left, which the kernel refuses with ENOENT.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public class UcmaMulticastInGuest
{
    private static final long ID_UID = 0x0a0b_0c0dL;
    private static final long SEND_ONLY_UID = 0x1111_2222_3333_4444L;
    private static final long FULL_UID = 0x5555_6666_7777_8888L;
    /** rdma_cm's {@code RDMA_UDP_QKEY}. */
    private static final long RDMA_UDP_QKEY = 0x01234567L;
    /** The QP number a group is sent to. */
    private static final long MULTICAST_QPN = 0xff_ffff;

    private static Ipv4Sockaddr ipv4(final String text)
    {
        final String[] bytes = text.split("\\.");
        return new Ipv4Sockaddr(Integer.parseInt(bytes[0]) << 24 | Integer.parseInt(bytes[1]) << 16 |
            Integer.parseInt(bytes[2]) << 8 | Integer.parseInt(bytes[3]), 0);
    }

    /** MULTICAST_JOIN's uid, handle, QPN, Q_Key and the group's DGID. */
    private static List<Object> joined(final UcmaChannel channel)
    {
        final EventResponse event = channel.getEvent(30, TimeUnit.SECONDS);
        assertNotNull(event, "no MULTICAST_JOIN within 30 s");
        assertEquals(UcmaEventType.MULTICAST_JOIN, UcmaEventType.of(event.event()), "status " + event.status());
        assertEquals(0, event.status());
        final UdParam ud = event.ud();
        return List.of(event.uid(), event.id(), ud.qpNum(), ud.qkey(), HexFormat.of().formatHex(ud.ahAttr().dgid().toBytes()));
    }

    @Test
    void shouldJoinTwoGroupsAndLeaveThemByTheirMembershipHandles()
    {
        try (UcmaChannel channel = UcmaChannel.open())
        {
            final int id = channel.createId(ID_UID, UcmaConstants.RDMA_PS_UDP, UcmaConstants.IB_QPT_UD);
            channel.bind(id, ipv4(OWN_IPV4));

            final int sendOnly = channel.joinMulticast(id, SEND_ONLY_UID, ipv4("239.1.3.1"),
                UcmaConstants.RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER);
            assertEquals(List.of(SEND_ONLY_UID, sendOnly, MULTICAST_QPN, RDMA_UDP_QKEY, "00000000000000000000ffffef010301"),
                joined(channel));
            final int full = channel.joinIpMulticast(id, FULL_UID, ipv4("239.1.3.2"));
            assertEquals(List.of(FULL_UID, full, MULTICAST_QPN, RDMA_UDP_QKEY, "00000000000000000000ffffef010302"),
                joined(channel));

            assertEquals(1, channel.leaveMulticast(sendOnly), "events handed out");
            assertEquals(1, channel.leaveMulticast(full), "events handed out");
            final UcmaException gone = assertThrows(UcmaException.class, () -> channel.leaveMulticast(full));
            assertEquals(List.of(UcmaCommand.LEAVE_MCAST, Errno.ENOENT), List.of(gone.command(), gone.errno()), gone.getMessage());
            channel.destroyId(id);
        }
    }
}
