package dev.rdmacm.netlink;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.netlink.wire.NetlinkMessageHeader;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.NLMSG_DONE;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.NLMSG_ERROR;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.NLMSG_NOOP;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.NLM_F_MULTI;
import static dev.rdmacm.netlink.wire.NetlinkMessageHeader.ORDER;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A long-lived NETLINK_ROUTE socket in the network namespace of the thread that opened it, with its
 * own native send and receive buffers and sequence numbers. Turns on extended acknowledgements (so
 * errors carry the kernel's text), capped acknowledgements and strict checking of requests.
 * <p>
 * Not thread-safe: one thread owns it (the resolver's event loop, or a test thread).
 */
public final class NetlinkSocket implements AutoCloseable
{
    public static final int NETLINK_ROUTE = 0;
    public static final int SOL_NETLINK = 270;
    public static final int NETLINK_ADD_MEMBERSHIP = 1;
    public static final int NETLINK_CAP_ACK = 10;
    public static final int NETLINK_EXT_ACK = 11;
    public static final int NETLINK_GET_STRICT_CHK = 12;

    public static final int RTNLGRP_LINK = 1;
    public static final int RTNLGRP_NEIGH = 3;
    public static final int RTNLGRP_TC = 4;
    public static final int RTNLGRP_IPV4_IFADDR = 5;
    public static final int RTNLGRP_IPV4_ROUTE = 7;
    public static final int RTNLGRP_IPV6_IFADDR = 9;
    public static final int RTNLGRP_IPV4_RULE = 8;
    public static final int RTNLGRP_IPV6_ROUTE = 11;
    public static final int RTNLGRP_IPV6_RULE = 19;
    public static final int RTNLGRP_IPV4_NETCONF = 24;
    public static final int RTNLGRP_IPV6_NETCONF = 25;
    public static final int RTNLGRP_NEXTHOP = 32;

    /** {@code struct sockaddr_nl}: u16 family, u16 pad, u32 pid, u32 groups. */
    private static final int SOCKADDR_NL_LENGTH = 12;
    private static final int SOCKADDR_NL_PID_OFFSET = 4;
    private static final int SEND_CAPACITY = 1024;
    /** Large enough for any single datagram of a dump (the kernel's NLMSG_GOODSIZE is at most 8 KiB). */
    private static final int RECEIVE_CAPACITY = 64 * 1024;

    private final Arena arena;
    private final Libc.CallState callState;
    private final int fd;
    private final long portId;
    private final MemorySegment sendSegment;
    private final MemorySegment receiveSegment;
    private final MemorySegment scratch;
    private final UnsafeBuffer sendBuffer;
    private final UnsafeBuffer receiveBuffer;
    private final NetlinkMessageHeader header = new NetlinkMessageHeader();
    private final NetlinkErrorMessage error = new NetlinkErrorMessage();
    private long sequence;
    private boolean closed;

    private NetlinkSocket(final Arena arena, final Libc.CallState callState, final int fd) throws NativeCallException
    {
        this.arena = arena;
        this.callState = callState;
        this.fd = fd;
        this.sendSegment = arena.allocate(SEND_CAPACITY, 8);
        this.receiveSegment = arena.allocate(RECEIVE_CAPACITY, 8);
        this.scratch = arena.allocate(16, 8);
        this.sendBuffer = new UnsafeBuffer(sendSegment.address(), SEND_CAPACITY);
        this.receiveBuffer = new UnsafeBuffer(receiveSegment.address(), RECEIVE_CAPACITY);
        setFlag(NETLINK_EXT_ACK, "NETLINK_EXT_ACK");
        setFlag(NETLINK_CAP_ACK, "NETLINK_CAP_ACK");
        setFlag(NETLINK_GET_STRICT_CHK, "NETLINK_GET_STRICT_CHK");
        final MemorySegment address = arena.allocate(SOCKADDR_NL_LENGTH, 4);
        address.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 0, (short)Libc.AF_NETLINK);
        Libc.bind(callState, fd, address, SOCKADDR_NL_LENGTH);
        scratch.set(JAVA_INT, 0, SOCKADDR_NL_LENGTH);
        Libc.getsockname(callState, fd, address, scratch);
        this.portId = address.get(JAVA_INT, SOCKADDR_NL_PID_OFFSET) & 0xffff_ffffL;
        this.sequence = System.nanoTime() & 0x7fff_ffffL;
    }

    /** Opens a NETLINK_ROUTE socket in the calling thread's network namespace. */
    public static NetlinkSocket open() throws NativeCallException
    {
        final Arena arena = Arena.ofShared();
        final Libc.CallState callState = new Libc.CallState(arena);
        int fd = -1;
        try
        {
            fd = Libc.socket(callState, Libc.AF_NETLINK, Libc.SOCK_RAW | Libc.SOCK_CLOEXEC, NETLINK_ROUTE);
            return new NetlinkSocket(arena, callState, fd);
        }
        catch (final RuntimeException ex)
        {
            if (fd >= 0)
            {
                closeQuietly(callState, fd);
            }
            arena.close();
            throw ex;
        }
    }

    public int fd()
    {
        return fd;
    }

    public long portId()
    {
        return portId;
    }

    /** Subscribes to a multicast group such as {@link #RTNLGRP_NEIGH}. */
    public void joinGroup(final int group, final String groupName) throws NativeCallException
    {
        scratch.set(JAVA_INT, 0, group);
        Libc.setsockopt(callState, fd, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP,
            "NETLINK_ADD_MEMBERSHIP " + groupName, scratch, 4);
    }

    /**
     * Whether the socket {@code otherFd} has a datagram queued for reading: a poll that does not wait,
     * made with this socket's own native memory, so a thread may ask it of a socket another thread reads.
     */
    public boolean hasQueued(final int otherFd) throws NativeCallException
    {
        scratch.set(JAVA_INT, Libc.POLLFD_FD_OFFSET, otherFd);
        scratch.set(JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
        scratch.set(JAVA_SHORT, Libc.POLLFD_REVENTS_OFFSET, (short)0);
        return Libc.poll(callState, scratch, 1, 0) > 0
            && (scratch.get(JAVA_SHORT, Libc.POLLFD_REVENTS_OFFSET) & Libc.POLLIN) != 0;
    }

    /**
     * SO_RCVBUF: how many bytes of notifications the kernel queues before it drops them and reports
     * ENOBUFS ({@link #drain}); the kernel doubles the value and enforces a minimum of its own.
     */
    public void receiveBufferSize(final int bytes) throws NativeCallException
    {
        scratch.set(JAVA_INT, 0, bytes);
        Libc.setsockopt(callState, fd, Libc.SOL_SOCKET, Libc.SO_RCVBUF, "SO_RCVBUF", scratch, 4);
    }

    /** The buffer a request is encoded into, starting at offset 0 with its nlmsghdr. */
    public UnsafeBuffer requestBuffer()
    {
        return sendBuffer;
    }

    public int requestCapacity()
    {
        return SEND_CAPACITY;
    }

    /** The next sequence number; write it into the request's header. */
    public long nextSequence()
    {
        sequence = (sequence + 1) & 0xffff_ffffL;
        return sequence;
    }

    /**
     * Sends the request of {@code length} bytes in {@link #requestBuffer()} and hands every reply
     * message (all parts of a multipart dump) to {@code handler}; returns when the reply is complete.
     *
     * @throws NetlinkException  when the kernel answers NLMSG_ERROR with a non-zero errno.
     * @throws NativeCallException when sending or receiving fails.
     */
    public void transact(final int length, final String requestName, final NetlinkMessageHandler handler)
        throws IOException
    {
        transact(length, requestName, handler, null);
    }

    /**
     * As {@link #transact(int, String, NetlinkMessageHandler)} on a socket that also receives events:
     * every other message read meanwhile (a group's notification) goes to {@code unsolicited}, in the
     * order the kernel queued it, instead of being skipped.
     *
     * @param unsolicited null to skip messages that do not answer the request.
     * @throws NativeCallException with ENOBUFS when the kernel dropped events meanwhile.
     */
    public void transact(final int length, final String requestName, final NetlinkMessageHandler handler,
        final NetlinkMessageHandler unsolicited) throws IOException
    {
        header.wrap(sendBuffer, 0);
        header.length(length);
        final long requestSequence = header.sequence();
        Libc.sendto(callState, fd, sendSegment, length, 0, MemorySegment.NULL, 0, requestName);
        boolean complete = false;
        while (!complete)
        {
            final int received = (int)Libc.recvfrom(callState, fd, receiveSegment, RECEIVE_CAPACITY, 0, requestName);
            complete = dispatchReply(received, requestSequence, requestName, handler, unsolicited);
        }
    }

    /**
     * Reads every datagram already queued (an event socket), without blocking; returns how many
     * messages were handed over. Returns -1 when the kernel dropped events because the socket's
     * buffer overflowed (ENOBUFS): the caller must re-check what it waits for.
     */
    public int drain(final NetlinkMessageHandler handler) throws NativeCallException
    {
        int messages = 0;
        while (true)
        {
            final long received;
            try
            {
                received = Libc.recvfrom(callState, fd, receiveSegment, RECEIVE_CAPACITY, Libc.MSG_DONTWAIT, "events");
            }
            catch (final NativeCallException ex)
            {
                if (ex.errno() == Errno.ENOBUFS)
                {
                    return -1;
                }
                throw ex;
            }
            if (received < 0)
            {
                return messages;
            }
            int offset = 0;
            while (offset + NetlinkMessageHeader.LENGTH <= received)
            {
                header.wrap(receiveBuffer, offset, (int)received - offset);
                final int messageLength = (int)header.length();
                if (messageLength < NetlinkMessageHeader.LENGTH || messageLength > received - offset)
                {
                    break;
                }
                handler.onMessage(header, receiveBuffer, offset + messageLength);
                messages++;
                offset += NetlinkMessageHeader.align(messageLength);
            }
        }
    }

    private boolean dispatchReply(
        final int received, final long requestSequence, final String requestName, final NetlinkMessageHandler handler,
        final NetlinkMessageHandler unsolicited) throws NetlinkException
    {
        boolean complete = false;
        int offset = 0;
        while (offset + NetlinkMessageHeader.LENGTH <= received)
        {
            header.wrap(receiveBuffer, offset, received - offset);
            final int messageLength = (int)header.length();
            if (messageLength < NetlinkMessageHeader.LENGTH || messageLength > received - offset)
            {
                throw new NetlinkException(requestName + " (reply truncated: length " + messageLength + " at offset " +
                    offset + " of a " + received + "-byte datagram)", Errno.EPROTO, null);
            }
            final int end = offset + messageLength;
            // A reply to an earlier request that timed out or failed half-way is not ours: skip it.
            if (header.sequence() == requestSequence && header.portId() == portId)
            {
                final int type = header.type();
                if (type == NLMSG_ERROR)
                {
                    error.wrap(receiveBuffer, header.bodyOffset(), end, header.flags());
                    if (error.errno() != 0)
                    {
                        throw new NetlinkException(requestName, error.errno(), error.extendedAckMessage());
                    }
                    complete = true;
                }
                else if (type == NLMSG_DONE)
                {
                    complete = true;
                }
                else if (type != NLMSG_NOOP)
                {
                    handler.onMessage(header, receiveBuffer, end);
                    if ((header.flags() & NLM_F_MULTI) == 0)
                    {
                        complete = true;
                    }
                }
            }
            else if (unsolicited != null && header.portId() == 0)
            {
                unsolicited.onMessage(header, receiveBuffer, end);
            }
            offset += NetlinkMessageHeader.align(messageLength);
        }
        return complete;
    }

    private void setFlag(final int option, final String name) throws NativeCallException
    {
        scratch.set(JAVA_INT, 0, 1);
        Libc.setsockopt(callState, fd, SOL_NETLINK, option, name, scratch, 4);
    }

    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        closeQuietly(callState, fd);
        arena.close();
    }

    private static void closeQuietly(final Libc.CallState callState, final int fd)
    {
        try
        {
            Libc.close(callState, fd);
        }
        catch (final NativeCallException ignored)
        {
            // close(2) of a socket we own only fails with EBADF, which would be our bug, not the user's
        }
    }

    @Override
    public String toString()
    {
        return "NetlinkSocket{fd=" + fd + ", portId=" + portId + ", byteOrder=" + ORDER + "}";
    }
}
