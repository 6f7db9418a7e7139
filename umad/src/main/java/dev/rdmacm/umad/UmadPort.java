package dev.rdmacm.umad;

import dev.rdmacm.protocol.mad.Gsi;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.protocol.mad.MadAddress;
import dev.rdmacm.protocol.mad.MadHeader;
import dev.rdmacm.protocol.mad.ManagementClass;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * An open umad file, {@code /dev/infiniband/umadN}: the MAD interface of one port through the
 * kernel's QP1 (GSI). Agents are registered on it ({@link #register}); {@link #send} writes one
 * {@code struct ib_user_mad} (the 64-byte {@link UserMadHeader} and the MAD) and {@link #receive}
 * reads one, a received MAD or a send whose response timed out.
 * <pre>
 *   write(2)/read(2) buffer     0                 64                        64 + length
 *                               +-----------------+-------------------------+
 *                               | ib_user_mad_hdr |  MAD (256 bytes, or 24  |
 *                               |                 |  for a timed-out send)  |
 *                               +-----------------+-------------------------+
 * </pre>
 * The file is opened {@code O_RDWR | O_NONBLOCK | O_CLOEXEC} and switched to the P_Key-index ABI
 * ({@code IB_USER_MAD_ENABLE_PKEY}) before any agent exists, so every header is 64 bytes, whatever
 * registered first. Agents register with {@code IB_USER_MAD_REGISTER_AGENT2} alone (docs/umad.md says
 * why not the first one).
 * <p>
 * <b>Poll.</b> {@link #fd} is readable (POLLIN) while a MAD is queued; an event loop waits on it
 * (the event-loop kit's {@code PollSet}) and then calls {@link #receive} until it returns {@link #NOTHING}. POLLERR means
 * the device went away.
 * <p>
 * <b>Threads.</b> Sends and receives each have their own native buffer and errno capture, so one
 * thread may send while another receives; neither may be called by two threads at once.
 * Registration and close are synchronized. Close only after the threads that send and receive stopped.
 * <p>
 * <b>No allocation per MAD:</b> send and receive copy through buffers allocated at open and read the
 * header through one flyweight; {@link #received} is a view that the next receive overwrites.
 */
public final class UmadPort implements AutoCloseable
{
    /** What {@link #receive} returns when nothing is queued. */
    public static final int NOTHING = -1;
    /** {@code IB_UMAD_MAX_AGENTS} in user_mad.c: agents per open file. */
    public static final int MAX_AGENTS = 32;

    private static final Path KERNEL_CM_MODULE = Path.of("/sys/module/ib_cm");
    private static final int MAX_RECEIVE_LENGTH = 1 << 20;

    private final UmadDevice device;
    private final Arena arena;
    private final int fd;
    private final int maxMadLength;
    private final Libc.CallState controlState;
    private final Libc.CallState sendState;
    private final Libc.CallState receiveState;
    private final MemorySegment sendSegment;
    private final MemorySegment receiveSegment;
    private final MemorySegment controlSegment;
    private final UnsafeBuffer sendBuffer;
    private final UnsafeBuffer receiveBuffer;
    private final UnsafeBuffer controlBuffer;
    private final UserMadHeader sendHeader = new UserMadHeader();
    private final UserMadHeader receivedHeader = new UserMadHeader();
    private final AgentRegistrationRequest request = new AgentRegistrationRequest();
    private final UmadAgent[] agents = new UmadAgent[MAX_AGENTS];
    /** Built once: the libc wrappers name the call in their exception. */
    private final String sendCall;
    private final String receiveCall;
    private volatile boolean closed;

    private UmadPort(final UmadDevice device, final int maxMadLength, final Arena arena, final Libc.CallState controlState,
        final int fd)
    {
        this.device = device;
        this.arena = arena;
        this.fd = fd;
        this.maxMadLength = maxMadLength;
        this.controlState = controlState;
        this.sendState = new Libc.CallState(arena);
        this.receiveState = new Libc.CallState(arena);
        this.sendSegment = arena.allocate(UserMadHeader.LENGTH + MadHeader.MAD_SIZE, 8);
        this.receiveSegment = arena.allocate(UserMadHeader.LENGTH + maxMadLength, 8);
        this.controlSegment = arena.allocate(AgentRegistrationRequest.LENGTH, 8);
        this.sendBuffer = new UnsafeBuffer(sendSegment.asByteBuffer());
        this.receiveBuffer = new UnsafeBuffer(receiveSegment.asByteBuffer());
        this.controlBuffer = new UnsafeBuffer(controlSegment.asByteBuffer());
        this.sendCall = "umad send on " + device.devicePath();
        this.receiveCall = "umad receive on " + device.devicePath();
    }

    /** Opens the umad device of {@code ibDevice} port {@code port}, for MADs of up to 256 bytes. */
    public static UmadPort open(final String ibDevice, final int port)
    {
        return open(UmadDevice.find(ibDevice, port));
    }

    /** Opens {@code device}, for MADs of up to 256 bytes (no RMPP reassembly into longer messages). */
    public static UmadPort open(final UmadDevice device)
    {
        return open(device, MadHeader.MAD_SIZE);
    }

    /**
     * Opens {@code device}; a received message may be up to {@code maxMadLength} bytes (more than 256
     * only for an agent with RMPP version 1, whose reassembled messages the kernel delivers whole).
     *
     * @throws UmadException naming the device: ENOENT no device node, EACCES/EPERM no permission,
     *                       ENXIO the device is going away.
     */
    public static UmadPort open(final UmadDevice device, final int maxMadLength)
    {
        if (maxMadLength < MadHeader.MAD_SIZE || maxMadLength > MAX_RECEIVE_LENGTH)
        {
            throw new IllegalArgumentException("maximum MAD length " + maxMadLength + ": must be from " + MadHeader.MAD_SIZE +
                " to " + MAX_RECEIVE_LENGTH);
        }
        final Arena arena = Arena.ofShared();
        final Libc.CallState state = new Libc.CallState(arena);
        final String path = device.devicePath().toString();
        final int fd;
        try
        {
            fd = Libc.open(state, arena.allocateFrom(path), path, Libc.O_RDWR | Libc.O_NONBLOCK | Libc.O_CLOEXEC);
        }
        catch (final NativeCallException ex)
        {
            arena.close();
            throw new UmadException("cannot open " + path + " (umad of " + device.ibDevice() + " port " + device.port() + "): " +
                switch (ex.errno())
                {
                    case Errno.ENOENT -> "no such device node (devtmpfs or udev did not create it)";
                    case Errno.EACCES, Errno.EPERM -> "it needs read and write access (root, or a udev rule that grants it)";
                    case Errno.ENXIO -> "the device is being removed";
                    default -> "open(2) failed";
                } + ": " + Errno.describe(ex.errno()), ex.errno(), ex);
        }
        try
        {
            Libc.ioctl(state, fd, UmadIoctl.ENABLE_PKEY, MemorySegment.NULL, "IB_USER_MAD_ENABLE_PKEY on " + path);
            return new UmadPort(device, maxMadLength, arena, state, fd);
        }
        catch (final RuntimeException ex)
        {
            closeQuietly(state, fd);
            arena.close();
            if (ex instanceof NativeCallException n)
            {
                throw new UmadException("cannot switch " + path + " to the P_Key-index header (ABI 5): " +
                    Errno.describe(n.errno()), n.errno(), n);
            }
            throw ex;
        }
    }

    public UmadDevice device()
    {
        return device;
    }

    /** The descriptor to poll for POLLIN; valid until {@link #close}. */
    public int fd()
    {
        return fd;
    }

    /** The longest MAD {@link #receive} delivers. */
    public int maxMadLength()
    {
        return maxMadLength;
    }

    /**
     * Registers an agent on QP1 ({@code IB_USER_MAD_REGISTER_AGENT2}).
     *
     * @throws AgentInUseException when another agent on the port holds one of the methods for this class
     *                             and version (EINVAL from the kernel); for the CM class while the
     *                             kernel's ib_cm is loaded, it says so.
     * @throws UmadException       for any other refusal, the errno explained (ENOMEM: 32 agents per file).
     */
    public synchronized UmadAgent register(final AgentRegistration registration)
    {
        requireOpen();
        request.wrap(controlBuffer, 0).encode(registration, Gsi.QPN);
        try
        {
            Libc.ioctl(controlState, fd, UmadIoctl.REGISTER_AGENT2, controlSegment,
                "IB_USER_MAD_REGISTER_AGENT2 on " + device.devicePath());
        }
        catch (final NativeCallException ex)
        {
            throw registrationFailure(registration, ex);
        }
        final int id = request.id();
        if (id < 0 || id >= MAX_AGENTS || agents[id] != null)
        {
            throw new IllegalStateException("the kernel returned agent id " + id + " for " + registration.describe() +
                " on " + this + ", which is out of range or already in use");
        }
        final UmadAgent agent = new UmadAgent(this, id, registration);
        agents[id] = agent;
        return agent;
    }

    synchronized void unregister(final UmadAgent agent)
    {
        if (closed || agents[agent.id()] != agent)
        {
            return;
        }
        agents[agent.id()] = null;
        agent.unregistered();
        unregisterId(agent);
    }

    /**
     * Sends a MAD that expects no response (a CM message: every one is a Send).
     *
     * @see #send(UmadAgent, MadAddress, DirectBuffer, int, int, Duration, int)
     */
    public void send(final UmadAgent agent, final MadAddress to, final DirectBuffer mad, final int offset, final int length)
    {
        send(agent, to, mad, offset, length, Duration.ZERO, 0);
    }

    /**
     * Sends {@code length} bytes of MAD (24 to 256; a shorter one is zero-padded by the kernel) from
     * {@code agent} to {@code to}. With a {@code responseTimeout} above zero the kernel's MAD layer waits
     * that long for a response with the same transaction ID, sends again up to {@code retries} times,
     * and when none came queues the send back with status ETIMEDOUT ({@link UserMadHeader#sendTimedOut}).
     * <p>
     * For a request (method without the response bit) the kernel replaces the upper 32 bits of the
     * transaction ID with the agent's own, so that it can route the response back; the receiver sees
     * that TID, and the timed-out send returns it.
     *
     * @throws IllegalArgumentException for a bad length, an agent of another port or no GRH on RoCE.
     * @throws IllegalStateException    when the agent was unregistered or the port closed.
     * @throws UmadException            when the kernel refuses the MAD, the errno explained.
     */
    public void send(final UmadAgent agent, final MadAddress to, final DirectBuffer mad, final int offset, final int length,
        final Duration responseTimeout, final int retries)
    {
        if (agent.port() != this)
        {
            throw new IllegalArgumentException(agent + " belongs to another port than " + this);
        }
        if (!agent.isRegistered())
        {
            throw new IllegalStateException(agent + " is unregistered");
        }
        if (length < MadHeader.LENGTH || length > MadHeader.MAD_SIZE)
        {
            throw new IllegalArgumentException("MAD length " + length + ": must be from " + MadHeader.LENGTH + " (the common header) to " +
                MadHeader.MAD_SIZE);
        }
        if (to.grh() == null && device.isEthernet())
        {
            throw new IllegalArgumentException("a MAD to " + to + " has no GRH, but " + device.ibDevice() + " port " + device.port() +
                " is RoCE (link layer Ethernet), which routes on the GRH's GID only");
        }
        final long timeoutMs = responseTimeout.toMillis();
        if (timeoutMs < 0 || timeoutMs > 0xffff_ffffL)
        {
            throw new IllegalArgumentException("response timeout " + responseTimeout + ": must be from 0 to 2^32-1 ms");
        }
        if (retries < 0)
        {
            throw new IllegalArgumentException("retries " + retries + ": must not be negative");
        }
        requireOpen();
        sendHeader.wrap(sendBuffer, 0).clear().agentId(agent.id()).timeoutMs(timeoutMs).retries(retries)
            .length(UserMadHeader.LENGTH + length);
        sendHeader.address(to);
        sendBuffer.putBytes(UserMadHeader.LENGTH, mad, offset, length);
        try
        {
            Libc.write(sendState, fd, sendSegment, UserMadHeader.LENGTH + length, sendCall);
        }
        catch (final NativeCallException ex)
        {
            throw sendFailure(agent, to, ex);
        }
    }

    /**
     * Reads the next queued MAD, if any: copies its bytes into {@code into} at {@code offset} (which must
     * have room for {@link #maxMadLength}) and leaves its header in {@link #received}.
     *
     * @return the MAD's length (24 for a send that timed out), or {@link #NOTHING}.
     * @throws UmadException EIO when the device went away, ENOSPC for an RMPP message longer than
     *                       {@link #maxMadLength} (the kernel keeps it queued: reopen with more).
     */
    public int receive(final MutableDirectBuffer into, final int offset)
    {
        if (offset < 0 || (long)offset + maxMadLength > into.capacity())
        {
            throw new IllegalArgumentException("receive buffer of " + into.capacity() + " bytes at offset " + offset +
                ": needs room for " + maxMadLength + " bytes, the longest MAD this port delivers");
        }
        requireOpen();
        final long count;
        try
        {
            count = Libc.read(receiveState, fd, receiveSegment, UserMadHeader.LENGTH + maxMadLength, receiveCall);
        }
        catch (final NativeCallException ex)
        {
            throw receiveFailure(ex);
        }
        if (count < 0)
        {
            return NOTHING;
        }
        final int madLength = (int)count - UserMadHeader.LENGTH;
        receivedHeader.wrap(receiveBuffer, 0, (int)count);
        into.putBytes(offset, receiveBuffer, UserMadHeader.LENGTH, madLength);
        return madLength;
    }

    /** The header of the MAD the last {@link #receive} returned: agent, status and address; overwritten by the next. */
    public UserMadHeader received()
    {
        return receivedHeader;
    }

    /**
     * Unregisters every agent still registered and closes the file; the kernel drops what was queued.
     * Idempotent.
     *
     * @throws UmadException when an unregistration or close(2) failed (everything is released all the same).
     */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        RuntimeException failure = null;
        for (int id = 0; id < MAX_AGENTS; id++)
        {
            final UmadAgent agent = agents[id];
            if (agent != null)
            {
                agents[id] = null;
                agent.unregistered();
                try
                {
                    unregisterId(agent);
                }
                catch (final RuntimeException ex)
                {
                    failure = failure == null ? ex : failure;
                }
            }
        }
        closed = true;
        try
        {
            Libc.close(controlState, fd);
        }
        catch (final NativeCallException ex)
        {
            failure = failure == null ? new UmadException("close(2) of " + device.devicePath() + " failed: " +
                Errno.describe(ex.errno()), ex.errno(), ex) : failure;
        }
        finally
        {
            arena.close();
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    @Override
    public String toString()
    {
        return device.devicePath() + " (" + device.ibDevice() + " port " + device.port() + ")";
    }

    private void unregisterId(final UmadAgent agent)
    {
        controlSegment.set(JAVA_INT, 0, agent.id());
        try
        {
            Libc.ioctl(controlState, fd, UmadIoctl.UNREGISTER_AGENT, controlSegment,
                "IB_USER_MAD_UNREGISTER_AGENT " + agent.id() + " on " + device.devicePath());
        }
        catch (final NativeCallException ex)
        {
            throw new UmadException("cannot unregister " + agent + ": " + Errno.describe(ex.errno()), ex.errno(), ex);
        }
    }

    private UmadException registrationFailure(final AgentRegistration registration, final NativeCallException ex)
    {
        final String what = "cannot register an agent for " + registration.describe() + " on " + this + ": ";
        final int errno = ex.errno();
        if (errno == Errno.EINVAL)
        {
            // AgentRegistration checked every other rule of ib_register_mad_agent: EINVAL is method_in_use
            final boolean kernelCm = registration.managementClass() == ManagementClass.COMM_MGT && Files.exists(KERNEL_CM_MODULE);
            final String holder = kernelCm ?
                "the kernel's ib_cm is loaded (" + KERNEL_CM_MODULE + ") and holds the CM class's Send method on every " +
                    "port; a userspace CM needs a host without ib_cm (modprobe -r ib_cm, with rdma_ucm and rdma_cm " +
                    "that use it)" :
                "another agent on this port already holds one of these methods for this class and version (the kernel " +
                    "gives each method of a class version to one agent per port, in this process or another)";
            return new AgentInUseException(what + holder + " (the kernel answered " + Errno.describe(errno) + ")", errno, ex,
                registration, kernelCm);
        }
        final String reason = switch (errno)
        {
            case Errno.ENOMEM -> "no free agent slot (" + MAX_AGENTS + " per open umad file) or no kernel memory";
            case Errno.EPROTONOSUPPORT -> "the port has no GSI (no QP1: not InfiniBand or RoCE)";
            case Errno.EPIPE -> "the device was removed";
            default -> "the kernel refused it";
        };
        return new UmadException(what + reason + ": " + Errno.describe(errno), errno, ex);
    }

    private UmadException sendFailure(final UmadAgent agent, final MadAddress to, final NativeCallException ex)
    {
        final int errno = ex.errno();
        final long tid = sendBuffer.getLong(UserMadHeader.LENGTH + MadHeader.TRANSACTION_ID_OFFSET, ByteOrder.BIG_ENDIAN);
        final String reason = switch (errno)
        {
            case Errno.EINVAL -> "a request with transaction ID 0x" + Long.toHexString(tid) + " of this class is still " +
                "outstanding on this file (user_mad.c's duplicate check), or the address is invalid (GID index, P_Key index)";
            case Errno.EIO -> "the kernel knows no agent " + agent.id() + " on this file";
            case Errno.ENOMEM -> "no kernel memory for the send";
            default -> "the kernel could not build an address handle or post the send";
        };
        return new UmadException("cannot send a MAD from " + agent + " to " + to + ": " + reason + ": " + Errno.describe(errno),
            errno, ex);
    }

    private UmadException receiveFailure(final NativeCallException ex)
    {
        final int errno = ex.errno();
        final String reason = switch (errno)
        {
            case Errno.EIO -> "the device went away (its agents are dead)";
            case Errno.ENOSPC -> "an RMPP message longer than " + maxMadLength + " bytes is queued (open the port with a " +
                "larger maximum MAD length)";
            default -> "read(2) failed";
        };
        return new UmadException("cannot receive on " + this + ": " + reason + ": " + Errno.describe(errno), errno, ex);
    }

    private void requireOpen()
    {
        if (closed)
        {
            throw new IllegalStateException(this + " is closed");
        }
    }

    private static void closeQuietly(final Libc.CallState state, final int fd)
    {
        try
        {
            Libc.close(state, fd);
        }
        catch (final NativeCallException ignored)
        {
            // the open's own failure is what the caller needs to see
        }
    }
}
