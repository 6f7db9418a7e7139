package dev.rdmacm.testing;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link KernelCmId} and {@link SoftRoceDevices#listens} on {@code rdma resource show cm_id} lines as iproute2 prints
 * them. The host has no RDMA device, so the lines are written from the tool's source, not captured: iproute2
 * {@code rdma/res-cmid.c} {@code res_cm_id_line} (the same at v6.1.0, the guest's Debian 12 tool, and at ee2a4a86, 6.19):
 * {@code print_link} {@code "link %s/%d "} or {@code "link %s/- "} when the id has no port, then {@code "cm-idn %u "},
 * {@code "lqpn %u "} and {@code "qp-type %s "} when present, {@code "state %s "}, {@code "ps %s "} (TCP, UDP, IPoIB or
 * ---), {@code "pid %u "}, {@code print_comm}'s {@code "comm %s "} (in brackets for a kernel id, which has no pid),
 * {@code print_ipaddr}'s {@code "src-addr"}, {@code " %s:"} (inet_ntop) and {@code "%u "}, then the same for dst-addr.
 */
final class KernelCmIdTest
{
    /** udaddy's server: RAI_PASSIVE without an address, so the IPv4 wildcard, RDMA_PS_UDP, port 7174; one per device. */
    private static final String UDADDY = "link rxe0/- cm-idn 4 state LISTEN ps UDP pid 301 comm udaddy src-addr 0.0.0.0:7174 ";
    /** The clash of 2026-12-06: a kernel {@code rping -s -a ADDR -p 7174} (RDMA_PS_TCP) on the wire's address. */
    private static final String RPING_ON_UDADDYS_PORT = "link rxew0/- cm-idn 7 state LISTEN ps TCP pid 288 comm rping src-addr 10.77.0.1:7174 ";
    /** A connected UD id of ours, udaddy's port as its destination. */
    private static final String CONNECTED_TO_7174 = "link rxe0/1 cm-idn 9 lqpn 17 qp-type UD state CONNECT ps UDP pid 400 comm java "
        + "src-addr 192.168.7.2:43210 dst-addr 192.168.7.2:7174 ";
    /** A kernel consumer's id: no pid, its name in brackets. */
    private static final String KERNEL_ID = "link rxe0/1 cm-idn 2 state LISTEN ps TCP comm [nvmet_rdma] src-addr 192.168.7.2:4420 ";
    private static final String IPV6_WILDCARD = "link rxe0/- cm-idn 5 state LISTEN ps TCP pid 500 comm rping src-addr :::7174 ";

    @Test
    @Timeout(10)
    void shouldReadStatePortSpaceAndSourceOfAListener() throws Exception
    {
        assertEquals(Optional.of(new KernelCmId("LISTEN", "UDP", Optional.of(new KernelCmId.Endpoint(InetAddress.getByName("0.0.0.0"), 7174)))),
            KernelCmId.parse(UDADDY));
        assertEquals(Optional.of(new KernelCmId("LISTEN", "TCP", Optional.of(new KernelCmId.Endpoint(InetAddress.getByName("192.168.7.2"), 4420)))),
            KernelCmId.parse(KERNEL_ID));
    }

    @Test
    @Timeout(10)
    void shouldTakeTheSourceNotTheDestinationOfAConnectedId() throws Exception
    {
        assertEquals(Optional.of(new KernelCmId("CONNECT", "UDP", Optional.of(new KernelCmId.Endpoint(InetAddress.getByName("192.168.7.2"), 43210)))),
            KernelCmId.parse(CONNECTED_TO_7174));
    }

    @Test
    @Timeout(10)
    void shouldSplitTheIpv6WildcardsPortAtTheLastColon() throws Exception
    {
        assertEquals(Optional.of(new KernelCmId.Endpoint(InetAddress.getByName("::"), 7174)), KernelCmId.parse(IPV6_WILDCARD).orElseThrow().source());
    }

    @Test
    @Timeout(10)
    void shouldReadNoIdFromALineWithoutStateOrPortSpace()
    {
        assertEquals(Optional.empty(), KernelCmId.parse(""));
        assertEquals(Optional.empty(), KernelCmId.parse("link rxe0/- cm-idn 4 state LISTEN pid 301 comm udaddy src-addr 0.0.0.0:7174 "));
    }

    @Test
    @Timeout(10)
    void shouldNotTakeAKernelRpingOnUdaddysPortForUdaddysListener() throws Exception
    {
        final InetAddress wildcard = InetAddress.getByName("0.0.0.0");
        // what the old wait (" state LISTEN " and ":7174 " on one line) went on with
        assertTrue(RPING_ON_UDADDYS_PORT.contains(" state LISTEN ") && RPING_ON_UDADDYS_PORT.contains(":7174 "));
        assertFalse(SoftRoceDevices.listens(RPING_ON_UDADDYS_PORT + "\n" + CONNECTED_TO_7174 + "\n", KernelCmId.PortSpace.UDP, wildcard, 7174));
        assertTrue(SoftRoceDevices.listens(RPING_ON_UDADDYS_PORT + "\n" + CONNECTED_TO_7174 + "\n" + UDADDY + "\n", KernelCmId.PortSpace.UDP,
            wildcard, 7174));
    }

    @Test
    @Timeout(10)
    void shouldMatchAListenerByPortSpaceAddressAndPort() throws Exception
    {
        final String listing = String.join("\n", UDADDY, RPING_ON_UDADDYS_PORT, KERNEL_ID, IPV6_WILDCARD) + "\n";
        assertTrue(SoftRoceDevices.listens(listing, KernelCmId.PortSpace.TCP, InetAddress.getByName("10.77.0.1"), 7174));
        assertFalse(SoftRoceDevices.listens(listing, KernelCmId.PortSpace.TCP, InetAddress.getByName("10.77.0.2"), 7174), "another address");
        assertFalse(SoftRoceDevices.listens(listing, KernelCmId.PortSpace.TCP, InetAddress.getByName("10.77.0.1"), 7173), "another port");
        assertTrue(SoftRoceDevices.listens(listing, KernelCmId.PortSpace.TCP, InetAddress.getByName("::"), 7174));
        assertFalse(SoftRoceDevices.listens(listing, KernelCmId.PortSpace.UDP, InetAddress.getByName("::"), 7174), "IPv6's wildcard is TCP's");
        assertFalse(SoftRoceDevices.listens("", KernelCmId.PortSpace.UDP, InetAddress.getByName("0.0.0.0"), 7174), "no ids");
    }
}
