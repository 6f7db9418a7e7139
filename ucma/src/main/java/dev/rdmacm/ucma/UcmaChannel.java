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
import dev.rdmacm.ucma.abi.UcmBind;
import dev.rdmacm.ucma.abi.UcmConnect;
import dev.rdmacm.ucma.abi.UcmCreateId;
import dev.rdmacm.ucma.abi.UcmDestroyId;
import dev.rdmacm.ucma.abi.UcmDisconnect;
import dev.rdmacm.ucma.abi.UcmGetEvent;
import dev.rdmacm.ucma.abi.UcmInitQpAttr;
import dev.rdmacm.ucma.abi.UcmJoinIpMcast;
import dev.rdmacm.ucma.abi.UcmJoinMcast;
import dev.rdmacm.ucma.abi.UcmListen;
import dev.rdmacm.ucma.abi.UcmMigrateId;
import dev.rdmacm.ucma.abi.UcmNotify;
import dev.rdmacm.ucma.abi.UcmQuery;
import dev.rdmacm.ucma.abi.UcmReject;
import dev.rdmacm.ucma.abi.UcmResolveAddr;
import dev.rdmacm.ucma.abi.UcmResolveRoute;
import dev.rdmacm.ucma.abi.UcmSetOption;
import dev.rdmacm.ucma.abi.UcmaCommand;
import dev.rdmacm.ucma.abi.UcmaConstants;
import dev.rdmacm.ucma.abi.UcmaStruct;
import dev.rdmacm.ucma.abi.UverbsQpAttr;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One open {@code /dev/infiniband/rdma_cm}: an event channel of the kernel's RDMA CM. Every id made on
 * it belongs to it, its events come out of it in order, and closing it destroys them all. Each command
 * is one {@code write(2)} of the header and the command's struct from one native buffer, the struct's
 * {@code response} pointing at a second native buffer that the kernel fills before the write returns:
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
 * <b>Threads.</b> Commands are serialized on one lock and events on another. A response or event view
 * stays valid until the next command (or event) on this channel: a caller that shares the channel with
 * other threads reads a response inside {@link #answer}, which holds the command lock until it returns,
 * and keeps only what it read. {@link #close} after the threads that use it stopped.
 */
public final class UcmaChannel implements AutoCloseable
{
    /** The device node, from module {@code rdma_ucm}. */
    public static final Path DEVICE = Path.of("/dev/infiniband/rdma_cm");
    /** Where the kernel publishes the ABI version ({@link UcmaConstants#ABI_VERSION}). */
    public static final Path ABI_VERSION_FILE = Path.of("/sys/class/misc/rdma_cm/abi_version");
    /** The paths QUERY PATH makes room for: librdmacm's 6, more than an id holds (primary and alternate). */
    public static final int QUERY_PATHS = 6;

    private static final ByteOrder HOST = ByteOrder.nativeOrder();
    private static final int LARGEST_COMMAND = UcmAccept.LENGTH;
    private static final int LARGEST_RESPONSE = Math.max(QueryAddrResponse.LENGTH, QueryPathResponse.lengthFor(QUERY_PATHS));

    private final String device;
    private final Arena arena;
    private final int fd;
    private final Object commandLock = new Object();
    private final Object eventLock = new Object();
    private volatile boolean closed;

    // the command side
    private final Libc.CallState commandState;
    private final MemorySegment commandSegment;
    private final UnsafeBuffer commandBuffer;
    private final MemorySegment responseSegment;
    private final UnsafeBuffer responseBuffer;
    private final MemorySegment optionSegment;
    private final CommandHeader header = new CommandHeader();
    private final UcmCreateId createId = new UcmCreateId();
    private final UcmDestroyId destroyId = new UcmDestroyId();
    private final UcmBind bind = new UcmBind();
    private final UcmResolveAddr resolveAddr = new UcmResolveAddr();
    private final UcmResolveRoute resolveRoute = new UcmResolveRoute();
    private final UcmQuery query = new UcmQuery();
    private final UcmListen listen = new UcmListen();
    private final UcmConnect connect = new UcmConnect();
    private final UcmAccept accept = new UcmAccept();
    private final UcmReject reject = new UcmReject();
    private final UcmDisconnect disconnect = new UcmDisconnect();
    private final UcmInitQpAttr initQpAttr = new UcmInitQpAttr();
    private final UcmSetOption setOption = new UcmSetOption();
    private final UcmNotify notify = new UcmNotify();
    private final UcmMigrateId migrateId = new UcmMigrateId();
    private final UcmJoinIpMcast joinIpMcast = new UcmJoinIpMcast();
    private final UcmJoinMcast joinMcast = new UcmJoinMcast();
    private final IdResponse idResponse = new IdResponse();
    private final EventsReportedResponse eventsReported = new EventsReportedResponse();
    private final QueryAddrResponse queryAddrResponse = new QueryAddrResponse();
    private final QueryPathResponse queryPathResponse = new QueryPathResponse();
    private final UverbsQpAttr qpAttr = new UverbsQpAttr();

    // the event side
    private final Libc.CallState eventState;
    private final MemorySegment eventCommandSegment;
    private final MemorySegment eventSegment;
    private final UnsafeBuffer eventBuffer;
    private final MemorySegment pollfd;
    private final EventResponse event = new EventResponse();

    private UcmaChannel(final String device, final Arena arena, final Libc.CallState commandState, final int fd)
    {
        this.device = device;
        this.arena = arena;
        this.fd = fd;
        this.commandState = commandState;
        this.commandSegment = arena.allocate(CommandHeader.LENGTH + LARGEST_COMMAND, 8);
        this.commandBuffer = new UnsafeBuffer(commandSegment.address(), (int)commandSegment.byteSize());
        this.responseSegment = arena.allocate(LARGEST_RESPONSE, 8);
        this.responseBuffer = new UnsafeBuffer(responseSegment.address(), (int)responseSegment.byteSize());
        this.optionSegment = arena.allocate(QueryPathResponse.lengthFor(QUERY_PATHS), 8);
        this.eventState = new Libc.CallState(arena);
        this.eventCommandSegment = arena.allocate(CommandHeader.LENGTH + UcmGetEvent.LENGTH, 8);
        this.eventSegment = arena.allocate(EventResponse.LENGTH, 8);
        this.eventBuffer = new UnsafeBuffer(eventSegment.address(), (int)eventSegment.byteSize());
        this.pollfd = arena.allocate(Libc.POLLFD_SIZE, 4);
        header.wrap(commandBuffer, 0);
        queryAddrResponse.wrap(responseBuffer, 0);
        queryPathResponse.wrap(responseBuffer, 0);
        idResponse.wrap(responseBuffer, 0);
        eventsReported.wrap(responseBuffer, 0);
        qpAttr.wrap(responseBuffer, 0);
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
     * Runs {@code commands} holding the command lock, so that the response views they get stay theirs until they
     * return: another thread's command, which would overwrite the one response buffer, waits. The lock is reentrant:
     * each command inside takes it again. {@code commands} returns what it read, never a view.
     */
    public <T> T answer(final Function<UcmaChannel, T> commands)
    {
        synchronized (commandLock)
        {
            return commands.apply(this);
        }
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
        synchronized (commandLock)
        {
            begin(UcmaCommand.CREATE_ID, createId).uid(uid).ps(portSpace).qpType(qpType);
            execute(UcmaCommand.CREATE_ID, IdResponse.LENGTH);
            return idResponse.id();
        }
    }

    /**
     * DESTROY_ID: the id and its undelivered events go.
     *
     * @return how many events of the id the kernel handed out through {@link #getEvent}.
     */
    public long destroyId(final int id)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.DESTROY_ID, destroyId).id(id);
            execute(UcmaCommand.DESTROY_ID, EventsReportedResponse.LENGTH);
            return eventsReported.eventsReported();
        }
    }

    /** BIND: {@code rdma_bind_addr}, for any family (AF_IB included). */
    public void bind(final int id, final RdmaSockaddr address)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.BIND, bind).id(id).address(address);
            execute(UcmaCommand.BIND, 0);
        }
    }

    /** RESOLVE_ADDR: {@code rdma_resolve_addr}; {@code source} may be null. The result is an event. */
    public void resolveAddr(final int id, final RdmaSockaddr source, final RdmaSockaddr destination, final int timeoutMs)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.RESOLVE_ADDR, resolveAddr).id(id).timeoutMs(timeoutMs).source(source).destination(destination);
            execute(UcmaCommand.RESOLVE_ADDR, 0);
        }
    }

    /** RESOLVE_ROUTE: {@code rdma_resolve_route}. The result is an event. */
    public void resolveRoute(final int id, final int timeoutMs)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.RESOLVE_ROUTE, resolveRoute).id(id).timeoutMs(timeoutMs);
            execute(UcmaCommand.RESOLVE_ROUTE, 0);
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
        synchronized (commandLock)
        {
            begin(UcmaCommand.QUERY, query).id(id).option(option);
            responseBuffer.setMemory(0, QueryAddrResponse.LENGTH, (byte)0);
            queryAddrResponse.ibdevIndex(QueryAddrResponse.NO_IBDEV_INDEX);
            execute(UcmaCommand.QUERY, QueryAddrResponse.LENGTH);
            return queryAddrResponse;
        }
    }

    /** QUERY PATH: the id's paths (room for {@link #QUERY_PATHS}); valid until the next command. */
    public QueryPathResponse queryPath(final int id)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.QUERY, query).id(id).option(UcmaConstants.RDMA_USER_CM_QUERY_PATH);
            final int room = QueryPathResponse.lengthFor(QUERY_PATHS);
            responseBuffer.setMemory(0, room, (byte)0);
            execute(UcmaCommand.QUERY, room);
            return queryPathResponse;
        }
    }

    /**
     * SET_OPTION with {@code value}'s bytes (a u8 for TOS and ACK_TIMEOUT, a host-order int for
     * REUSEADDR and AFONLY, {@code ib_path_rec_data} records for {@link UcmaConstants#RDMA_OPTION_IB_PATH}).
     */
    public void setOption(final int id, final int level, final int name, final byte[] value)
    {
        if (value.length > optionSegment.byteSize())
        {
            throw new IllegalArgumentException("option " + level + "/" + name + ": " + value.length + " bytes, at most " +
                optionSegment.byteSize() + " (" + QUERY_PATHS + " path records)");
        }
        synchronized (commandLock)
        {
            MemorySegment.copy(value, 0, optionSegment, ValueLayout.JAVA_BYTE, 0, value.length);
            begin(UcmaCommand.SET_OPTION, setOption).id(id).level(level).optname(name).optlen(value.length)
                .optval(optionSegment.address());
            execute(UcmaCommand.SET_OPTION, 0);
        }
    }

    /** LISTEN with {@code backlog} (0 or below: the kernel's maximum). */
    public void listen(final int id, final int backlog)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.LISTEN, listen).id(id).backlog(backlog);
            execute(UcmaCommand.LISTEN, 0);
        }
    }

    /**
     * CONNECT: {@code parameters} fills the command (cleared, its id set) before it is sent, e.g.
     * {@code c -> c.connParam().qpNum(qpn).responderResources(1).initiatorDepth(1).retryCount(7).valid(1)}.
     */
    public void connect(final int id, final Consumer<UcmConnect> parameters)
    {
        synchronized (commandLock)
        {
            parameters.accept(begin(UcmaCommand.CONNECT, connect).id(id));
            execute(UcmaCommand.CONNECT, 0);
        }
    }

    /** ACCEPT: {@code parameters} fills the command (cleared, its id set): its uid, and {@code conn_param}. */
    public void accept(final int id, final Consumer<UcmAccept> parameters)
    {
        synchronized (commandLock)
        {
            parameters.accept(begin(UcmaCommand.ACCEPT, accept).id(id));
            execute(UcmaCommand.ACCEPT, 0);
        }
    }

    /** REJECT with {@code reason} (0: the consumer's) and private data. */
    public void reject(final int id, final int reason, final byte[] privateData)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.REJECT, reject).id(id).reason(reason).privateData(privateData);
            execute(UcmaCommand.REJECT, 0);
        }
    }

    /** DISCONNECT: a DREQ, or the DREP to one received. */
    public void disconnect(final int id)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.DISCONNECT, disconnect).id(id);
            execute(UcmaCommand.DISCONNECT, 0);
        }
    }

    /** INIT_QP_ATTR: the attributes that move the id's QP to {@code qpState}; valid until the next command. */
    public UverbsQpAttr initQpAttr(final int id, final int qpState)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.INIT_QP_ATTR, initQpAttr).id(id).qpState(qpState);
            responseBuffer.setMemory(0, UverbsQpAttr.LENGTH, (byte)0);
            execute(UcmaCommand.INIT_QP_ATTR, UverbsQpAttr.LENGTH);
            return qpAttr;
        }
    }

    /** NOTIFY: {@link UcmaConstants#IBV_EVENT_COMM_EST} or {@link UcmaConstants#IBV_EVENT_PATH_MIG}. */
    public void notify(final int id, final int ibvEvent)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.NOTIFY, notify).id(id).event(ibvEvent);
            execute(UcmaCommand.NOTIFY, 0);
        }
    }

    /**
     * MIGRATE_ID: moves {@code id} from {@code from} to this channel, with its queued events.
     *
     * @return how many events of the id {@code from} had handed out.
     */
    public long migrateId(final int id, final UcmaChannel from)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.MIGRATE_ID, migrateId).id(id).fd(from.fd);
            execute(UcmaCommand.MIGRATE_ID, EventsReportedResponse.LENGTH);
            return eventsReported.eventsReported();
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
        synchronized (commandLock)
        {
            begin(UcmaCommand.JOIN_MCAST, joinMcast).uid(uid).id(id).address(group).joinFlags(joinFlags);
            execute(UcmaCommand.JOIN_MCAST, IdResponse.LENGTH);
            return idResponse.id();
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
        synchronized (commandLock)
        {
            begin(UcmaCommand.JOIN_IP_MCAST, joinIpMcast).uid(uid).id(id).address(group);
            execute(UcmaCommand.JOIN_IP_MCAST, IdResponse.LENGTH);
            return idResponse.id();
        }
    }

    /**
     * LEAVE_MCAST: the membership {@code handle} ends, and its events not yet handed out go.
     *
     * @return how many events of the membership the kernel handed out through {@link #getEvent}.
     */
    public long leaveMulticast(final int handle)
    {
        synchronized (commandLock)
        {
            begin(UcmaCommand.LEAVE_MCAST, destroyId).id(handle);
            execute(UcmaCommand.LEAVE_MCAST, EventsReportedResponse.LENGTH);
            return eventsReported.eventsReported();
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

    /** Wraps {@code struct} over the command segment after the header and clears it. */
    private <T extends UcmaStruct<T>> T begin(final UcmaCommand command, final T struct)
    {
        requireOpen(command);
        return struct.wrap(commandBuffer, CommandHeader.LENGTH).clear();
    }

    /** Writes the header and the struct {@link #begin} prepared, with {@code out} bytes of response room. */
    private void execute(final UcmaCommand command, final int out)
    {
        header.cmd(command.number()).in(command.inLength()).out(out);
        if (command.hasResponse())
        {
            commandBuffer.putLong(CommandHeader.LENGTH + command.responseOffset(), responseSegment.address(), HOST);
        }
        final long length = CommandHeader.LENGTH + command.inLength();
        final long written;
        try
        {
            written = Libc.write(commandState, fd, commandSegment, length, command.cName());
        }
        catch (final NativeCallException ex)
        {
            throw new UcmaException(command, ex.errno(), device);
        }
        if (written != length)
        {
            throw new UcmaException(command, Errno.ENODATA, device);
        }
    }

    private void requireOpen(final UcmaCommand command)
    {
        if (closed)
        {
            throw new UcmaException(command, Errno.EBADF, device + " (the channel is closed)");
        }
    }

    /** Closes the descriptor, which destroys every id still on it, and frees the buffers. */
    @Override
    public void close()
    {
        synchronized (commandLock)
        {
            synchronized (eventLock)
            {
                if (closed)
                {
                    return;
                }
                closed = true;
                try
                {
                    Libc.close(commandState, fd);
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
}
