package dev.rdmacm.conformance;

import dev.rdmacm.testing.guest.GuestTopology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * The wire between the two conformance guests: a virtio NIC in each, joined by QEMU's UDP socket
 * netdev on the host's loopback, with a Soft-RoCE device on each NIC.
 * <pre>
 *   guest "userspace-cm" (no ib_cm)                                       guest "kernel" (the kernel's CM)
 *   rxew0 on eth0 172.31.60.1/24  &lt;-- UDP 127.0.0.1:A, 127.0.0.1:B --&gt;  rxew1 on eth0 172.31.60.2/24
 * </pre>
 * UDP, unlike the stream socket netdev, is symmetric: neither QEMU has to listen before the other
 * starts, so the two guests boot at once. Every frame stays on the host's loopback.
 */
record GuestWire(int userspacePort, int kernelPort)
{
    /** The NIC: {@code -nodefaults} leaves it the only one, so the guest names it eth0. */
    static final String NETDEV = "eth0";
    static final List<String> MODULES = List.of("virtio_net");

    /** One end of the wire, in one guest. */
    record End(String mac, String address, String rxe)
    {
        String cidr()
        {
            return address + "/24";
        }
    }

    static final End USERSPACE_CM = new End("52:54:00:60:00:01", "172.31.60.1", "rxew0");
    static final End KERNEL_CM = new End("52:54:00:60:00:02", "172.31.60.2", "rxew1");

    /** Two UDP ports that were free on the loopback a moment ago. */
    static GuestWire onFreePorts()
    {
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            DatagramSocket b = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))
        {
            return new GuestWire(a.getLocalPort(), b.getLocalPort());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("no free UDP port on the loopback for the guests' wire", ex);
        }
    }

    /** QEMU's arguments for the NIC of {@code end}. */
    String[] qemuArguments(final End end)
    {
        final boolean userspace = end.equals(USERSPACE_CM);
        final int local = userspace ? userspacePort : kernelPort;
        final int remote = userspace ? kernelPort : userspacePort;
        return new String[] {
            "-netdev", "socket,id=wire,udp=127.0.0.1:" + remote + ",localaddr=127.0.0.1:" + local,
            "-device", "virtio-net-pci,netdev=wire,mac=" + end.mac()};
    }

    /** The NIC up with its address, and its rxe device. */
    static GuestTopology addTo(final GuestTopology topology, final End end)
    {
        return topology.command("ip link set " + NETDEV + " up").address(NETDEV, end.cidr()).rxe(end.rxe(), NETDEV);
    }
}
