package dev.rdmacm.ucma;

import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.ucma.abi.CommandHeader;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.EventsReportedResponse;
import dev.rdmacm.ucma.abi.IdResponse;
import dev.rdmacm.ucma.abi.QueryAddrResponse;
import dev.rdmacm.ucma.abi.QueryPathResponse;
import dev.rdmacm.ucma.abi.UcmAccept;
import dev.rdmacm.ucma.abi.UcmConnect;
import dev.rdmacm.ucma.abi.UcmGetEvent;
import dev.rdmacm.ucma.abi.UcmaCommand;
import dev.rdmacm.ucma.abi.UcmaConstants;
import dev.rdmacm.ucma.abi.UverbsQpAttr;
import org.agrona.concurrent.ManyToManyConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One open {@code /dev/infiniband/rdma_cm}: an event channel of the kernel's RDMA CM. Every id made on
 * it belongs to it, its events come out of it in order, and closing it destroys them all. Each command
 * is one {@code write(2)} of the header and the command's struct from a native buffer, the struct's
 * {@code response} pointing at a second native buffer that the kernel fills before the write returns
 * (a {@link CommandSlot}'s two):
 * <pre>
 *   command segment   [ cmd_hdr | struct ........ response ]
 *                                                  |
 *   response segment  [ the command's response <--+ ]   returned as a flyweight view
 * </pre>
 * <b>Errors.</b> A refused command throws {@link UcmaException} naming the command and the kernel's
 * errno; a write that returns less than it was given is ENODATA, as in librdmacm. Nothing is retried.
 * <p>
 * <b>Events.</b> The descriptor is opened {@code O_NONBLOCK}, so GET_EVENT never blocks inside the
 * kernel: {@link #getEvent} writes it, and on EAGAIN waits in {@code poll(2)} for POLLIN, up to the
 * timeout. The event side has its own buffers and errno capture, so one thread may wait for events
 * while another issues commands.
 * <p>
 * <b>Threads.</b> Commands of different threads are written at once, each from a {@link CommandSlot} the
 * channel lends it for the command, as librdmacm's callers write theirs: the kernel orders them. Events are
 * taken under one lock. A response view stays valid until its slot is lent again, i.e. until the next
 * command on this channel: a caller that shares the channel with other threads reads a response inside
 * {@link #answer}, which keeps its slot until it returns, and keeps only what it read. An event view
 * stays valid until the next event. {@link #close} after the threads that use it stopped.
 */
public final class UcmaChannel implements AutoCloseable
{
    /** The device node, from module {@code rdma_ucm}. */
    public static final Path DEVICE = Path.of("/dev/infiniband/rdma_cm");
    /** Where the kernel publishes the ABI version ({@link UcmaConstants#ABI_VERSION}). */
    public static final Path ABI_VERSION_FILE = Path.of("/sys/class/misc/rdma_cm/abi_version");
    /** The paths QUERY PATH makes room for: librdmacm's 6, more than an id holds (primary and alternate). */
    public static final int QUERY_PATHS = 6;

    /** The most command slots a channel makes: more threads than this at once wait for one to come back. */
    static final int SLOTS = 16;
    /** Room for SET_OPTION's value: {@link #QUERY_PATHS} path records, as a slot's option buffer holds. */
    private static final int LARGEST_OPTION = QueryPathResponse.lengthFor(QUERY_PATHS);

    private final String device;
    private final Arena arena;
    private final int fd;
    /** The {@code open(2)} call's state, the {@code close(2)}'s too. */
    private final Libc.CallState openState;
    private final Object eventLock = new Object();
    private volatile boolean closed;

    // the command side: a slot a command (or an answer) at a time, lent to any thread
    private final ManyToManyConcurrentArrayQueue<CommandSlot> idle = new ManyToManyConcurrentArrayQueue<>(SLOTS);
    private final AtomicInteger slotsMade = new AtomicInteger();
    /** Commands and answers between their lease and their release: {@link #close} waits for none to be left. */
    private final AtomicInteger users = new AtomicInteger();
    /** The slot the current thread's {@link #answer} holds, which the commands inside it take. */
    private final ThreadLocal<CommandSlot> answering = new ThreadLocal<>();

    // the event side
    private final Libc.CallState eventState;
    private final MemorySegment eventCommandSegment;
    private final MemorySegment eventSegment;
    private final UnsafeBuffer eventBuffer;
    private final MemorySegment pollfd;
    private final EventResponse event = new EventResponse();

    private UcmaChannel(final String device, final Arena arena, final Libc.CallState openState, final int fd)
    {
        this.device = device;
        this.arena = arena;
        this.fd = fd;
        this.openState = openState;
        this.eventState = new Libc.CallState(arena);
        this.eventCommandSegment = arena.allocate(CommandHeader.LENGTH + UcmGetEvent.LENGTH, 8);
        this.eventSegment = arena.allocate(EventResponse.LENGTH, 8);
        this.eventBuffer = new UnsafeBuffer(eventSegment.address(), (int)eventSegment.byteSize());
        this.pollfd = arena.allocate(Libc.POLLFD_SIZE, 4);
        event.wrap(eventBuffer, 0);
        final UnsafeBuffer getEvent = new UnsafeBuffer(eventCommandSegment.address(), (int)eventCommandSegment.byteSize());
        new CommandHeader().wrap(getEvent, 0).cmd(UcmaCommand.GET_EVENT.number()).in(UcmGetEvent.LENGTH).out(EventResponse.LENGTH);
        new UcmGetEvent().wrap(getEvent, CommandHeader.LENGTH).response(eventSegment.address());
        pollfd.set(ValueLayout.JAVA_INT, Libc.POLLFD_FD_OFFSET, fd);
        pollfd.set(ValueLayout.JAVA_SHORT, Libc.POLLFD_EVENTS_OFFSET, Libc.POLLIN);
    }

    /** Opens {@link #DEVICE}. */
    public static UcmaChannel open()
    {
        return open(DEVICE, ABI_VERSION_FILE);
    }

    /**
     * Opens {@code device} ({@code O_RDWR | O_NONBLOCK | O_CLOEXEC}) after checking the ABI version in
     * {@code abiVersionFile}; a missing version file is taken as version 4, as librdmacm takes it.
     *
     * @throws UcmaException ENOENT when the node does not exist (rdma_ucm not loaded), EACCES/EPERM
     *                       without permission, EPROTONOSUPPORT for an ABI version other than 4.
     */
    public static UcmaChannel open(final Path device, final Path abiVersionFile)
    {
        requireAbi(abiVersionFile);
        final Arena arena = Arena.ofShared();
        final Libc.CallState state = new Libc.CallState(arena);
        final String path = device.toString();
        try
        {
            final int fd = Libc.open(state, arena.allocateFrom(path), path, Libc.O_RDWR | Libc.O_NONBLOCK | Libc.O_CLOEXEC);
            return new UcmaChannel(path, arena, state, fd);
        }
        catch (final NativeCallException ex)
        {
            arena.close();
            throw new UcmaException("cannot open " + path + switch (ex.errno())
            {
                case Errno.ENOENT -> " (no such node: the rdma_ucm module is not loaded, or devtmpfs did not create it)";
                case Errno.EACCES, Errno.EPERM -> " (it needs read and write access)";
                case Errno.ENODEV, Errno.ENXIO -> " (the rdma_ucm driver is going away)";
                default -> "";
            }, ex.errno(), ex);
        }
        catch (final RuntimeException | Error ex)
        {
            arena.close();
            throw ex;
        }
    }

    private static void requireAbi(final Path file)
    {
        final String text;
        try
        {
            text = Files.readString(file).strip();
        }
        catch (final NoSuchFileException ex)
        {
            return;
        }
        catch (final IOException ex)
        {
            throw new UcmaException("cannot read the RDMA CM's ABI version from " + file + ": " + ex, Errno.EIO, ex);
        }
        if (!text.equals(Integer.toString(UcmaConstants.ABI_VERSION)))
        {
            throw new UcmaException("the kernel's RDMA CM speaks ABI version '" + text + "' (" + file + "); this binding speaks " +
                UcmaConstants.ABI_VERSION + " only", Errno.EPROTONOSUPPORT, null);
        }
    }

    /** The device's descriptor, readable (POLLIN) while an event is queued. */
    public int fd()
    {
        return fd;
    }

    /** The device's path, as errors name it. */
    public String device()
    {
        return device;
    }

    /**
     * Runs {@code commands} on one command slot of this thread's, so that the response views they get stay theirs
     * until they return: no other command, of this thread or another, writes that slot's response buffer meanwhile.
     * Other threads' commands go on at once, on slots of their own. An answer inside an answer takes the outer one's
     * slot. {@code commands} returns what it read, never a view.
     */
    public <T> T answer(final Function<UcmaChannel, T> commands)
    {
        if (answering.get() != null)
        {
            return commands.apply(this);
        }
        final CommandSlot slot = lend(null);
        slot.answering = true;
        answering.set(slot);
        try
        {
            return commands.apply(this);
        }
        finally
        {
            answering.remove();
            slot.answering = false;
            release(slot);
        }
    }

    /** The slot for one command of this thread's: its answer's, or one {@link #lend} gives. */
    private CommandSlot lease(final UcmaCommand command)
    {
        final CommandSlot held = answering.get();
        if (held != null)
        {
            requireOpen(command);
            return held;
        }
        return lend(command);
    }

    /**
     * A slot from {@link #idle}, or a new one while fewer than {@link #SLOTS} exist, else one waited for.
     *
     * @param command the command, for the error of a closed channel; null for an answer's slot.
     */
    private CommandSlot lend(final UcmaCommand command)
    {
        // counted before closed is read, and close sets closed before it reads the count: one of them sees the other
        users.incrementAndGet();
        if (closed)
        {
            users.decrementAndGet();
            requireOpen(command);
        }
        CommandSlot slot;
        while ((slot = idle.poll()) == null)
        {
            final int made = slotsMade.get();
            if (made < SLOTS && slotsMade.compareAndSet(made, made + 1))
            {
                return new CommandSlot(arena, fd, device);
            }
            Thread.onSpinWait();
        }
        return slot;
    }

    /** Gives back what {@link #lease} lent, unless an answer holds it: that answer gives it back. */
    private void release(final CommandSlot slot)
    {
        if (slot.answering)
        {
            return;
        }
        idle.offer(slot);
        users.decrementAndGet();
    }

    /**
     * CREATE_ID: a new id in {@code portSpace} ({@link UcmaConstants#RDMA_PS_TCP} ...); {@code qpType}
     * counts only for {@link UcmaConstants#RDMA_PS_IB}.
     *
     * @param uid what every event of the id will carry; not 0, or the kernel would drop them.
     * @return the kernel's handle of the id.
     */
    public int createId(final long uid, final int portSpace, final int qpType)
    {
        if (uid == 0)
        {
            throw new IllegalArgumentException("uid 0: the kernel drops every event of an id whose uid is 0");
        }
        final CommandSlot s = lease(UcmaCommand.CREATE_ID);
        try
        {
            s.begin(s.createId).uid(uid).ps(portSpace).qpType(qpType);
            s.execute(UcmaCommand.CREATE_ID, IdResponse.LENGTH);
            return s.idResponse.id();
        }
        finally
        {
            release(s);
        }
    }

    /**
     * DESTROY_ID: the id and its undelivered events go.
     *
     * @return how many events of the id the kernel handed out through {@link #getEvent}.
     */
    public long destroyId(final int id)
    {
        final CommandSlot s = lease(UcmaCommand.DESTROY_ID);
        try
        {
            s.begin(s.destroyId).id(id);
            s.execute(UcmaCommand.DESTROY_ID, EventsReportedResponse.LENGTH);
            return s.eventsReported.eventsReported();
        }
        finally
        {
            release(s);
        }
    }

    /** BIND: {@code rdma_bind_addr}, for any family (AF_IB included). */
    public void bind(final int id, final RdmaSockaddr address)
    {
        final CommandSlot s = lease(UcmaCommand.BIND);
        try
        {
            s.begin(s.bind).id(id).address(address);
            s.execute(UcmaCommand.BIND, 0);
        }
        finally
        {
            release(s);
        }
    }

    /** RESOLVE_ADDR: {@code rdma_resolve_addr}; {@code source} may be null. The result is an event. */
    public void resolveAddr(final int id, final RdmaSockaddr source, final RdmaSockaddr destination, final int timeoutMs)
    {
        final CommandSlot s = lease(UcmaCommand.RESOLVE_ADDR);
        try
        {
            s.begin(s.resolveAddr).id(id).timeoutMs(timeoutMs).source(source).destination(destination);
            s.execute(UcmaCommand.RESOLVE_ADDR, 0);
        }
        finally
        {
            release(s);
        }
    }

    /** RESOLVE_ROUTE: {@code rdma_resolve_route}. The result is an event. */
    public void resolveRoute(final int id, final int timeoutMs)
    {
        final CommandSlot s = lease(UcmaCommand.RESOLVE_ROUTE);
        try
        {
            s.begin(s.resolveRoute).id(id).timeoutMs(timeoutMs);
            s.execute(UcmaCommand.RESOLVE_ROUTE, 0);
        }
        finally
        {
            release(s);
        }
    }

    /** QUERY ADDR: the id's device, port, P_Key and addresses; valid until the next command. */
    public QueryAddrResponse queryAddr(final int id)
    {
        return queryAddress(id, UcmaConstants.RDMA_USER_CM_QUERY_ADDR);
    }

    /** QUERY GID: the id's source and destination GIDs, as {@code sockaddr_ib}s; valid until the next command. */
    public QueryAddrResponse queryGid(final int id)
    {
        return queryAddress(id, UcmaConstants.RDMA_USER_CM_QUERY_GID);
    }

    private QueryAddrResponse queryAddress(final int id, final int option)
    {
        final CommandSlot s = lease(UcmaCommand.QUERY);
        try
        {
            s.begin(s.query).id(id).option(option);
            s.responseBuffer.setMemory(0, QueryAddrResponse.LENGTH, (byte)0);
            s.queryAddrResponse.ibdevIndex(QueryAddrResponse.NO_IBDEV_INDEX);
            s.execute(UcmaCommand.QUERY, QueryAddrResponse.LENGTH);
            return s.queryAddrResponse;
        }
        finally
        {
            release(s);
        }
    }

    /** QUERY PATH: the id's paths (room for {@link #QUERY_PATHS}); valid until the next command. */
    public QueryPathResponse queryPath(final int id)
    {
        final CommandSlot s = lease(UcmaCommand.QUERY);
        try
        {
            s.begin(s.query).id(id).option(UcmaConstants.RDMA_USER_CM_QUERY_PATH);
            final int room = QueryPathResponse.lengthFor(QUERY_PATHS);
            s.responseBuffer.setMemory(0, room, (byte)0);
            s.execute(UcmaCommand.QUERY, room);
            return s.queryPathResponse;
        }
        finally
        {
            release(s);
        }
    }

    /**
     * SET_OPTION with {@code value}'s bytes (a u8 for TOS and ACK_TIMEOUT, a host-order int for
     * REUSEADDR and AFONLY, {@code ib_path_rec_data} records for {@link UcmaConstants#RDMA_OPTION_IB_PATH}).
     */
    public void setOption(final int id, final int level, final int name, final byte[] value)
    {
        if (value.length > LARGEST_OPTION)
        {
            throw new IllegalArgumentException("option " + level + "/" + name + ": " + value.length + " bytes, at most " +
                LARGEST_OPTION + " (" + QUERY_PATHS + " path records)");
        }
        final CommandSlot s = lease(UcmaCommand.SET_OPTION);
        try
        {
            MemorySegment.copy(value, 0, s.optionSegment, ValueLayout.JAVA_BYTE, 0, value.length);
            s.begin(s.setOption).id(id).level(level).optname(name).optlen(value.length)
                .optval(s.optionSegment.address());
            s.execute(UcmaCommand.SET_OPTION, 0);
        }
        finally
        {
            release(s);
        }
    }

    /** LISTEN with {@code backlog} (0 or below: the kernel's maximum). */
    public void listen(final int id, final int backlog)
    {
        final CommandSlot s = lease(UcmaCommand.LISTEN);
        try
        {
            s.begin(s.listen).id(id).backlog(backlog);
            s.execute(UcmaCommand.LISTEN, 0);
        }
        finally
        {
            release(s);
        }
    }

    /**
     * CONNECT: {@code parameters} fills the command (cleared, its id set) before it is sent, e.g.
     * {@code c -> c.connParam().qpNum(qpn).responderResources(1).initiatorDepth(1).retryCount(7).valid(1)}.
     */
    public void connect(final int id, final Consumer<UcmConnect> parameters)
    {
        final CommandSlot s = lease(UcmaCommand.CONNECT);
        try
        {
            parameters.accept(s.begin(s.connect).id(id));
            s.execute(UcmaCommand.CONNECT, 0);
        }
        finally
        {
            release(s);
        }
    }

    /** ACCEPT: {@code parameters} fills the command (cleared, its id set): its uid, and {@code conn_param}. */
    public void accept(final int id, final Consumer<UcmAccept> parameters)
    {
        final CommandSlot s = lease(UcmaCommand.ACCEPT);
        try
        {
            parameters.accept(s.begin(s.accept).id(id));
            s.execute(UcmaCommand.ACCEPT, 0);
        }
        finally
        {
            release(s);
        }
    }

    /** REJECT with {@code reason} (0: the consumer's) and private data. */
    public void reject(final int id, final int reason, final byte[] privateData)
    {
        final CommandSlot s = lease(UcmaCommand.REJECT);
        try
        {
            s.begin(s.reject).id(id).reason(reason).privateData(privateData);
            s.execute(UcmaCommand.REJECT, 0);
        }
        finally
        {
            release(s);
        }
    }

    /** DISCONNECT: a DREQ, or the DREP to one received. */
    public void disconnect(final int id)
    {
        final CommandSlot s = lease(UcmaCommand.DISCONNECT);
        try
        {
            s.begin(s.disconnect).id(id);
            s.execute(UcmaCommand.DISCONNECT, 0);
        }
        finally
        {
            release(s);
        }
    }

    /** INIT_QP_ATTR: the attributes that move the id's QP to {@code qpState}; valid until the next command. */
    public UverbsQpAttr initQpAttr(final int id, final int qpState)
    {
        final CommandSlot s = lease(UcmaCommand.INIT_QP_ATTR);
        try
        {
            s.begin(s.initQpAttr).id(id).qpState(qpState);
            s.responseBuffer.setMemory(0, UverbsQpAttr.LENGTH, (byte)0);
            s.execute(UcmaCommand.INIT_QP_ATTR, UverbsQpAttr.LENGTH);
            return s.qpAttr;
        }
        finally
        {
            release(s);
        }
    }

    /** NOTIFY: {@link UcmaConstants#IBV_EVENT_COMM_EST} or {@link UcmaConstants#IBV_EVENT_PATH_MIG}. */
    public void notify(final int id, final int ibvEvent)
    {
        final CommandSlot s = lease(UcmaCommand.NOTIFY);
        try
        {
            s.begin(s.notify).id(id).event(ibvEvent);
            s.execute(UcmaCommand.NOTIFY, 0);
        }
        finally
        {
            release(s);
        }
    }

    /**
     * MIGRATE_ID: moves {@code id} from {@code from} to this channel, with its queued events.
     *
     * @return how many events of the id {@code from} had handed out.
     */
    public long migrateId(final int id, final UcmaChannel from)
    {
        final CommandSlot s = lease(UcmaCommand.MIGRATE_ID);
        try
        {
            s.begin(s.migrateId).id(id).fd(from.fd);
            s.execute(UcmaCommand.MIGRATE_ID, EventsReportedResponse.LENGTH);
            return s.eventsReported.eventsReported();
        }
        finally
        {
            release(s);
        }
    }

    /**
     * JOIN_MCAST: {@code rdma_join_multicast_ex} of {@code id} to {@code group}; MULTICAST_JOIN or MULTICAST_ERROR
     * follows, carrying {@code uid} and the handle returned here (not the id's: the kernel numbers memberships apart).
     *
     * @param joinFlags {@link UcmaConstants#RDMA_MC_JOIN_FLAG_FULLMEMBER} or
     *                  {@link UcmaConstants#RDMA_MC_JOIN_FLAG_SENDONLY_FULLMEMBER}.
     * @return the kernel's handle of the membership, for {@link #leaveMulticast}.
     */
    public int joinMulticast(final int id, final long uid, final RdmaSockaddr group, final int joinFlags)
    {
        final CommandSlot s = lease(UcmaCommand.JOIN_MCAST);
        try
        {
            s.begin(s.joinMcast).uid(uid).id(id).address(group).joinFlags(joinFlags);
            s.execute(UcmaCommand.JOIN_MCAST, IdResponse.LENGTH);
            return s.idResponse.id();
        }
        finally
        {
            release(s);
        }
    }

    /**
     * JOIN_IP_MCAST: the join before JOIN_MCAST (IPv4 and IPv6, full member), as librdmacm sends it to a kernel
     * without AF_IB support.
     *
     * @return the kernel's handle of the membership, for {@link #leaveMulticast}.
     */
    public int joinIpMulticast(final int id, final long uid, final RdmaSockaddr group)
    {
        final CommandSlot s = lease(UcmaCommand.JOIN_IP_MCAST);
        try
        {
            s.begin(s.joinIpMcast).uid(uid).id(id).address(group);
            s.execute(UcmaCommand.JOIN_IP_MCAST, IdResponse.LENGTH);
            return s.idResponse.id();
        }
        finally
        {
            release(s);
        }
    }

    /**
     * LEAVE_MCAST: the membership {@code handle} ends, and its events not yet handed out go.
     *
     * @return how many events of the membership the kernel handed out through {@link #getEvent}.
     */
    public long leaveMulticast(final int handle)
    {
        final CommandSlot s = lease(UcmaCommand.LEAVE_MCAST);
        try
        {
            s.begin(s.destroyId).id(handle);
            s.execute(UcmaCommand.LEAVE_MCAST, EventsReportedResponse.LENGTH);
            return s.eventsReported.eventsReported();
        }
        finally
        {
            release(s);
        }
    }

    /**
     * GET_EVENT: the next event of any id of this channel, waiting up to {@code timeout} for one (0: do
     * not wait; negative: wait as long as it takes). The view is valid until the next call.
     *
     * @return the event, or null when none came in time.
     */
    public EventResponse getEvent(final long timeout, final TimeUnit unit)
    {
        // no clock read for a call that does not wait (the conductor's, per event): in a TCG guest each is a
        // system call (the hpet clock source)
        final long deadline = timeout <= 0 ? Long.MAX_VALUE : System.nanoTime() + unit.toNanos(timeout);
        synchronized (eventLock)
        {
            while (true)
            {
                requireOpen(UcmaCommand.GET_EVENT);
                eventBuffer.setMemory(0, EventResponse.LENGTH, (byte)0);
                final long length = CommandHeader.LENGTH + UcmGetEvent.LENGTH;
                final long written;
                try
                {
                    written = Libc.writeUnlessWouldBlock(eventState, fd, eventCommandSegment, length,
                        UcmaCommand.GET_EVENT.cName());
                }
                catch (final NativeCallException ex)
                {
                    throw new UcmaException(UcmaCommand.GET_EVENT, ex.errno(), device);
                }
                if (written < 0)
                {
                    // EAGAIN: no event queued
                    if (timeout == 0)
                    {
                        return null;
                    }
                    final long left = timeout < 0 ? TimeUnit.DAYS.toNanos(1) : deadline - System.nanoTime();
                    if (left <= 0)
                    {
                        return null;
                    }
                    waitReadable(left);
                    continue;
                }
                if (written != length)
                {
                    throw new UcmaException(UcmaCommand.GET_EVENT, Errno.ENODATA, device);
                }
                return event;
            }
        }
    }

    /** Polls for POLLIN up to {@code nanos} (a wait of a day stands for "as long as it takes"). */
    private void waitReadable(final long nanos)
    {
        final int ms = (int)Math.min(TimeUnit.NANOSECONDS.toMillis(nanos + 999_999), TimeUnit.DAYS.toMillis(1));
        try
        {
            Libc.poll(eventState, pollfd, 1, ms);
        }
        catch (final NativeCallException ex)
        {
            throw new UcmaException(UcmaCommand.GET_EVENT, ex.errno(), device);
        }
    }

    /** @param command the command refused, or null for an {@link #answer}'s commands. */
    private void requireOpen(final UcmaCommand command)
    {
        if (closed)
        {
            throw command == null ? new UcmaException(device + " is closed", Errno.EBADF, null) :
                new UcmaException(command, Errno.EBADF, device + " (the channel is closed)");
        }
    }

    /**
     * Closes the descriptor, which destroys every id still on it, and frees the buffers, once the commands already
     * under way have ended (a command after this one is refused with EBADF).
     */
    @Override
    public void close()
    {
        synchronized (eventLock)
        {
            if (closed)
            {
                return;
            }
            closed = true;
            while (users.get() != 0)
            {
                Thread.onSpinWait();
            }
            try
            {
                Libc.close(openState, fd);
            }
            catch (final NativeCallException ex)
            {
                throw new UcmaException("closing " + device, ex.errno(), ex);
            }
            finally
            {
                arena.close();
            }
        }
    }
}
