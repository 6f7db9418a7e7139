package dev.rdmacm.resolver.engine;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.netlink.NetlinkException;
import dev.rdmacm.netlink.Rtnetlink;
import dev.rdmacm.resolver.NeighbourTriggerMode;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteOrder;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Makes the kernel start neighbour resolution (the kernel's {@code neigh_event_send}): NTF_USE over
 * rtnetlink when permitted, else a UDP datagram, which makes the IP stack queue it and send ARP/ND.
 * The sockets live in the network namespace of the thread that created this object.
 */
public final class NeighbourTrigger implements AutoCloseable
{
    /** The discard service: nobody is expected to answer; only the ARP/ND it causes matters. */
    static final int DISCARD_PORT = 9;
    private static final int SOCKADDR_IN_LENGTH = 16;
    private static final int SOCKADDR_IN6_LENGTH = 28;
    private static final int SIN_PORT_OFFSET = 2;
    private static final int SIN_ADDR_OFFSET = 4;
    private static final int SIN6_ADDR_OFFSET = 8;
    private static final int SIN6_SCOPE_ID_OFFSET = 24;

    /** Ports are in network byte order in a sockaddr; the family is in host order. */
    private static final ValueLayout.OfShort NETWORK_SHORT = JAVA_SHORT.withOrder(ByteOrder.BIG_ENDIAN);

    private final Rtnetlink rtnetlink;
    private final Arena arena = Arena.ofShared();
    private final Libc.CallState callState = new Libc.CallState(arena);
    private final MemorySegment address = arena.allocate(SOCKADDR_IN6_LENGTH, 4);
    private final MemorySegment payload = arena.allocate(1);
    private boolean useNtfUse;
    private int udp4 = -1;
    private int udp6 = -1;

    /**
     * A trigger that asks as {@code mode} says.
     *
     * @param rtnetlink the socket an NTF_USE request goes on.
     * @param mode      NTF_USE first, or the UDP datagram only.
     */
    public NeighbourTrigger(final Rtnetlink rtnetlink, final NeighbourTriggerMode mode)
    {
        this.rtnetlink = rtnetlink;
        this.useNtfUse = mode == NeighbourTriggerMode.NTF_USE_ELSE_UDP;
    }

    /** Starts resolution of {@code nextHop} on {@code ifindex}; returns how, for the trace. */
    String trigger(final int ifindex, final InetAddress nextHop) throws IOException
    {
        if (useNtfUse)
        {
            try
            {
                rtnetlink.triggerNeighbourResolution(ifindex, nextHop);
                return "RTM_NEWNEIGH NTF_USE";
            }
            catch (final NetlinkException ex)
            {
                if (ex.errno() != Errno.EPERM)
                {
                    throw ex;
                }
                useNtfUse = false;
            }
        }
        return sendDatagram(ifindex, nextHop);
    }

    private String sendDatagram(final int ifindex, final InetAddress nextHop) throws NativeCallException
    {
        address.fill((byte)0);
        final boolean v4 = nextHop instanceof Inet4Address;
        if (v4 ? udp4 < 0 : udp6 < 0)
        {
            final int fd = Libc.socket(callState, v4 ? Libc.AF_INET : Libc.AF_INET6,
                Libc.SOCK_DGRAM | Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC, 0);
            if (v4)
            {
                udp4 = fd;
            }
            else
            {
                udp6 = fd;
            }
        }
        final int fd = v4 ? udp4 : udp6;
        address.set(JAVA_SHORT, 0, (short)(v4 ? Libc.AF_INET : Libc.AF_INET6));
        address.set(NETWORK_SHORT, SIN_PORT_OFFSET, (short)DISCARD_PORT);
        final byte[] bytes = nextHop.getAddress();
        MemorySegment.copy(bytes, 0, address, JAVA_BYTE, v4 ? SIN_ADDR_OFFSET : SIN6_ADDR_OFFSET, bytes.length);
        if (!v4)
        {
            address.set(JAVA_INT, SIN6_SCOPE_ID_OFFSET, ifindex);
        }
        final int length = v4 ? SOCKADDR_IN_LENGTH : SOCKADDR_IN6_LENGTH;
        try
        {
            Libc.sendto(callState, fd, payload, 1, Libc.MSG_DONTWAIT, address, length, "UDP to " + nextHop.getHostAddress());
            return "UDP datagram to port " + DISCARD_PORT;
        }
        catch (final NativeCallException ex)
        {
            // The datagram only exists to start ARP/ND; a full queue or an ICMP error from an earlier one
            // does not stop the neighbour state machine, and the outcome arrives as a neighbour event.
            return "UDP datagram to port " + DISCARD_PORT + " (" + ex.getMessage() + ")";
        }
    }

    @Override
    public void close()
    {
        for (final int fd : new int[]{udp4, udp6})
        {
            if (fd >= 0)
            {
                try
                {
                    Libc.close(callState, fd);
                }
                catch (final NativeCallException ignored)
                {
                    // only EBADF is possible for a descriptor we own
                }
            }
        }
        arena.close();
    }
}
