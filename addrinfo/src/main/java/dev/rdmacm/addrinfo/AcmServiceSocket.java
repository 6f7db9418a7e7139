package dev.rdmacm.addrinfo;

import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * librdmacm 44's socket to the ACM service ({@code ucma_ib_init}'s {@code sock}), nonblocking, over
 * libc: opened once per client, to the {@link AcmServiceAddress} of that moment, and closed when the
 * client gives it up. Both ACM clients move their {@link AcmResolveMessage} through it: the blocking
 * {@link AcmSocketClient} waits on it with {@link #await}, the CM conductor polls its {@link #fd()}
 * with its other descriptors.
 * <p>
 * The connect does not block: a unix socket connects at once or fails (EAGAIN when the listener's
 * backlog is full, which a blocking connect would wait out); TCP on loopback may still be under way,
 * and is complete once the socket is writable ({@link #finishConnect}, SO_ERROR). A request is sent
 * whole or the connection is broken: one question at a time, and its 16 to 232 bytes go to a send
 * buffer that the previous exchange emptied, so a short send or EAGAIN means a service that stopped
 * reading.
 * <p>
 * Not thread-safe: one owner at a time (a lock, or the conductor's thread).
 */
public final class AcmServiceSocket implements AutoCloseable
{
    private static final int SOCKET_FLAGS = Libc.SOCK_NONBLOCK | Libc.SOCK_CLOEXEC;
    private static final int SEND_FLAGS = Libc.MSG_DONTWAIT | Libc.MSG_NOSIGNAL;

    private final AcmServiceAddress address;
    private final Arena arena = Arena.ofShared();
    private final Libc.CallState state = new Libc.CallState(arena);
    private final MemorySegment pollFd = arena.allocate(Libc.POLLFD_SIZE, 8);
    private final MemorySegment option = arena.allocate(JAVA_INT);
    private final MemorySegment optionLength = arena.allocate(JAVA_INT);
    private final int fd;
    private boolean connected;
    private boolean closed;

    private AcmServiceSocket(final AcmServiceAddress address) throws NativeCallException
    {
        this.address = address;
        int opened = -1;
        try
        {
            opened = Libc.socket(state, address.family(), Libc.SOCK_STREAM | SOCKET_FLAGS, 0);
            final MemorySegment sockaddr = address.sockaddr(arena);
            connected = Libc.connect(state, opened, sockaddr, (int)sockaddr.byteSize(), "ACM service " + address);
        }
        catch (final RuntimeException ex)
        {
            if (opened >= 0)
            {
                closeQuietly(opened);
            }
            arena.close();
            throw ex;
        }
        this.fd = opened;
    }

    /**
     * {@code ucma_ib_init}'s connect, without waiting: the connection, connected or under way.
     *
     * @throws NativeCallException      when there is no service there (ENOENT, ECONNREFUSED, EAGAIN, ...).
     * @throws IllegalArgumentException when the unix socket's path is too long for {@code sun_path}.
     */
    public static AcmServiceSocket open(final AcmServiceAddress address) throws NativeCallException
    {
        return new AcmServiceSocket(address);
    }

    public int fd()
    {
        return fd;
    }

    /** Whether the connect has completed; false while a TCP connect is under way. */
    public boolean connected()
    {
        return connected;
    }

    /**
     * After the socket polled writable (or with an error): whether the connect completed.
     *
     * @throws NativeCallException with the connect's errno (SO_ERROR) when it failed.
     */
    public boolean finishConnect() throws NativeCallException
    {
        if (connected)
        {
            return true;
        }
        option.set(JAVA_INT, 0, 0);
        optionLength.set(JAVA_INT, 0, (int)JAVA_INT.byteSize());
        Libc.getsockopt(state, fd, Libc.SOL_SOCKET, Libc.SO_ERROR, "SO_ERROR", option, optionLength);
        final int error = option.get(JAVA_INT, 0);
        if (error != 0)
        {
            throw new NativeCallException("connect(ACM service " + address + ")", error);
        }
        connected = pollOnce(Libc.POLLOUT, 0);
        return connected;
    }

    /** Sends the first {@code length} bytes of {@code message}; false when they did not all go (give up). */
    public boolean send(final AcmResolveMessage message, final int length) throws NativeCallException
    {
        return Libc.sendto(state, fd, message.segment(), length, SEND_FLAGS, MemorySegment.NULL, 0, "ACM request") == length;
    }

    /**
     * librdmacm's one {@code recv} of at most {@link dev.rdmacm.protocol.acm.AcmMessage#MAX_LENGTH}
     * bytes into {@code message}, which is zeroed first.
     *
     * @return the bytes received, 0 when the service closed the connection, -1 when nothing is there yet.
     */
    public int receive(final AcmResolveMessage message) throws NativeCallException
    {
        message.clearForReply();
        final MemorySegment buffer = message.segment();
        return (int)Libc.recvfrom(state, fd, buffer, buffer.byteSize(), Libc.MSG_DONTWAIT, "ACM reply");
    }

    /**
     * Blocks until the socket is ready for {@code events} ({@link Libc#POLLIN}, {@link Libc#POLLOUT}) or
     * reports an error or a hang-up, at most {@code timeoutMs}; false when the time passed.
     */
    public boolean await(final short events, final int timeoutMs) throws NativeCallException
    {
        return pollOnce(events, timeoutMs);
    }

    private boolean pollOnce(final short events, final int timeoutMs) throws NativeCallException
    {
        pollFd.set(JAVA_INT, Libc.POLLFD_FD_OFFSET, fd);
        pollFd.set(JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, events);
        pollFd.set(JAVA_SHORT, Libc.POLLFD_REVENTS_OFFSET, (short)0);
        return Libc.poll(state, pollFd, 1, timeoutMs) > 0;
    }

    /** {@code ucma_ib_cleanup}'s close. Idempotent. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        closeQuietly(fd);
        arena.close();
    }

    private void closeQuietly(final int descriptor)
    {
        try
        {
            Libc.close(state, descriptor);
        }
        catch (final NativeCallException ignored)
        {
            // closing a socket that failed: nothing more to release
        }
    }

    @Override
    public String toString()
    {
        return "AcmServiceSocket{" + address + (connected ? ", connected" : ", connecting") + (closed ? ", closed" : "") + "}";
    }
}
