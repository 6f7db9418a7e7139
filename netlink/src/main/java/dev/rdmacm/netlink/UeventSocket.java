package dev.rdmacm.netlink;

import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A NETLINK_KOBJECT_UEVENT socket on the kernel's multicast group 1: the device events that udev
 * also reads, here to learn that an RDMA device went away (6.1 has no RDMA netlink device
 * notifications). Non-blocking: {@link #drain} reads what is queued, {@link #fd} can be polled.
 */
public final class UeventSocket implements AutoCloseable
{
    public static final int NETLINK_KOBJECT_UEVENT = 15;
    /** The group the kernel sends its uevents to (udevd re-broadcasts on group 2). */
    public static final int KERNEL_GROUP = 1;
    private static final int SOCKADDR_NL_LENGTH = 12;
    private static final int SOCKADDR_NL_GROUPS_OFFSET = 8;
    /** UEVENT_BUFFER_SIZE in the kernel is 2048. */
    private static final int RECEIVE_CAPACITY = 8192;

    private final Arena arena;
    private final Libc.CallState callState;
    private final MemorySegment receive;
    private final byte[] datagram = new byte[RECEIVE_CAPACITY];
    private final int fd;

    private UeventSocket(final Arena arena, final Libc.CallState callState, final int fd)
    {
        this.arena = arena;
        this.callState = callState;
        this.fd = fd;
        this.receive = arena.allocate(RECEIVE_CAPACITY);
    }

    /** Opens the socket, bound to the kernel's group, in the calling thread's network namespace. */
    public static UeventSocket open() throws NativeCallException
    {
        final Arena arena = Arena.ofShared();
        final Libc.CallState callState = new Libc.CallState(arena);
        int fd = -1;
        try
        {
            fd = Libc.socket(callState, Libc.AF_NETLINK, Libc.SOCK_RAW | Libc.SOCK_CLOEXEC | Libc.SOCK_NONBLOCK,
                NETLINK_KOBJECT_UEVENT);
            final MemorySegment address = arena.allocate(SOCKADDR_NL_LENGTH);
            address.set(JAVA_SHORT, 0, (short)Libc.AF_NETLINK);
            address.set(JAVA_INT, SOCKADDR_NL_GROUPS_OFFSET, KERNEL_GROUP);
            Libc.bind(callState, fd, address, SOCKADDR_NL_LENGTH);
            return new UeventSocket(arena, callState, fd);
        }
        catch (final RuntimeException ex)
        {
            if (fd >= 0)
            {
                Libc.close(callState, fd);
            }
            arena.close();
            throw ex;
        }
    }

    public int fd()
    {
        return fd;
    }

    /** Hands every queued kernel uevent to {@code handler}; returns how many datagrams were read. */
    public int drain(final Consumer<Uevent> handler) throws NativeCallException
    {
        int count = 0;
        long length;
        while ((length = Libc.recvfrom(callState, fd, receive, RECEIVE_CAPACITY, Libc.MSG_DONTWAIT, "uevent socket")) >= 0)
        {
            count++;
            MemorySegment.copy(receive, JAVA_BYTE, 0, datagram, 0, (int)length);
            final Uevent event = Uevent.decode(datagram, (int)length);
            if (event != null)
            {
                handler.accept(event);
            }
        }
        return count;
    }

    @Override
    public void close()
    {
        try
        {
            Libc.close(callState, fd);
        }
        finally
        {
            arena.close();
        }
    }
}
