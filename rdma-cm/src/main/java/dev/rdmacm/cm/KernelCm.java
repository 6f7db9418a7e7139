package dev.rdmacm.cm;

import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.cm.diagnostics.KernelDifference;
import dev.rdmacm.libc.Errno;
import dev.rdmacm.protocol.Gid;
import dev.rdmacm.resolver.RdmaPortBinding;
import dev.rdmacm.ucma.UcmaChannel;
import dev.rdmacm.ucma.UcmaException;
import dev.rdmacm.ucma.abi.EventResponse;
import dev.rdmacm.ucma.abi.UcmaEventType;
import org.agrona.collections.Int2ObjectHashMap;
import dev.rdmacm.verbs.sysfs.SysfsDevices;
import dev.rdmacm.verbs.sysfs.SysfsFormatException;
import org.agrona.collections.Long2ObjectHashMap;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The kernel's RDMA CM as one {@link RdmaCm}'s back-end ({@link ConnectionManager#KERNEL}): one
 * {@link UcmaChannel} for all its kernel ids, whose descriptor is in the conductor's poll set, so the
 * conductor reads every event ({@link #onReadable}) on its own thread, as it reads each port's umad
 * descriptor for the userspace CM. No thread of its own, none per id.
 * <p>
 * Every kernel id belongs to one {@link KernelConnection}: found by the kernel's handle for its events, and
 * a listener's also by its uid, which the kernel puts in CONNECT_REQUEST (whose handle is the new id's); or to
 * one id's {@link KernelMemberships}, whose groups' events are found by the membership's handle.
 * The maps are the conductor's only, but {@code byHandle}, in which a caller's {@code rdma_connect} registers the
 * kernel id it made on its own thread ({@link CallerKernelCm}). The channel serialises the commands of every thread (the conductor's, and
 * those of the application threads that move their QPs, {@link KernelQpMoves}, or send the RTU): one lock, its
 * own. A command's answer (QUERY, INIT_QP_ATTR) is a view of the channel's one response buffer, so a command
 * whose answer is read after it returns runs in {@link #answer}, which holds that lock until the reading is done.
 */
final class KernelCm implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger(KernelCm.class.getName());
    /** How many events one readiness takes before the duty cycle goes on. */
    private static final int EVENT_LIMIT = 64;

    private final UcmaChannel channel;
    private final RdmaCm cm;
    private final Function<RdmaCmId, IdContext> contexts;
    /** Under its own monitor: a caller's {@code rdma_connect} registers its kernel id ({@link CallerKernelCm}). */
    private final Int2ObjectHashMap<KernelConnection> byHandle = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<KernelConnection> listenersByUid = new Long2ObjectHashMap<>();
    /** Multicast memberships by the kernel's handle, which it numbers apart from ids (its {@code multicast_table}). */
    private final Int2ObjectHashMap<IdMulticast> groupsByHandle = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<String> deviceByGuid = new Long2ObjectHashMap<>();

    private KernelCm(final RdmaCm cm, final UcmaChannel channel, final Function<RdmaCmId, IdContext> contexts)
    {
        this.cm = cm;
        this.channel = channel;
        this.contexts = contexts;
    }

    /**
     * Opens {@code device} ({@link UcmaChannel#DEVICE} but in a test) after reading the ABI version in
     * {@code abiVersionFile} ({@link UcmaChannel#ABI_VERSION_FILE}).
     *
     * @throws RdmaCmException naming {@code call} and the errno (ENOENT: rdma_ucm not loaded; EPROTONOSUPPORT:
     *                         an ABI this binding does not speak).
     */
    static KernelCm open(final RdmaCm cm, final Function<RdmaCmId, IdContext> contexts, final String call, final Path device,
        final Path abiVersionFile) throws RdmaCmException
    {
        try
        {
            return new KernelCm(cm, UcmaChannel.open(device, abiVersionFile), contexts);
        }
        catch (final UcmaException ex)
        {
            // the call's message names the errno once: the device's reason without the errno it ends with
            final String errno = ": " + Errno.name(ex.errno()) + " (" + Errno.description(ex.errno()) + ")";
            final String why = ex.getMessage().endsWith(errno) ? ex.getMessage().substring(0, ex.getMessage().length() - errno.length())
                : ex.getMessage();
            throw new RdmaCmException(call, ex.errno(), "the kernel's RDMA CM: " + why, true);
        }
    }

    RdmaCm cm()
    {
        return cm;
    }

    /** {@return the channel's descriptor, for the conductor's poll set} */
    int fd()
    {
        return channel.fd();
    }

    /**
     * Runs {@code commands} on the channel and reads their answers, on one command slot the channel lends this thread
     * until they return ({@link UcmaChannel#answer}): an answer is a view of that slot's response buffer, which the
     * next command to take the slot overwrites, so {@code commands} returns what it read of it, never the view.
     *
     * @throws dev.rdmacm.ucma.UcmaException a command the kernel refused, naming it and the errno.
     */
    <T> T answer(final Function<UcmaChannel, T> commands)
    {
        return channel.answer(commands);
    }

    /**
     * Runs {@code commands}, whose answers are not read (or are values a command returns): each takes a command slot
     * of the channel's for itself, and other threads' commands do not wait for it.
     *
     * @throws dev.rdmacm.ucma.UcmaException a command the kernel refused, naming it and the errno.
     */
    void command(final Consumer<UcmaChannel> commands)
    {
        commands.accept(channel);
    }

    IdContext context(final RdmaCmId id)
    {
        return contexts.apply(id);
    }

    /** Before the kernel id's first command that brings an event: the conductor may read it at once. */
    void register(final int handle, final KernelConnection connection)
    {
        synchronized (byHandle)
        {
            byHandle.put(handle, connection);
        }
    }

    void listening(final long uid, final KernelConnection connection)
    {
        listenersByUid.put(uid, connection);
    }

    /** JOIN_MCAST answered {@code handle}: the membership's MULTICAST_JOIN and MULTICAST_ERROR go to {@code mc}. */
    void joined(final int handle, final IdMulticast mc)
    {
        groupsByHandle.put(handle, mc);
    }

    /** The membership {@code handle} is left: its events, if any still come, find no one. */
    void left(final int handle)
    {
        groupsByHandle.remove(handle);
    }

    /** The kernel id is gone (destroyed, or never made): its events, if any still come, find no one. */
    void forget(final int handle, final long listenerUid)
    {
        synchronized (byHandle)
        {
            byHandle.remove(handle);
        }
        if (listenerUid != 0)
        {
            listenersByUid.remove(listenerUid);
        }
    }

    /** A command refused by the kernel, as the call that made it reports it. */
    static RdmaCmException refused(final String call, final UcmaException ex)
    {
        // the errno is the exception's own: the detail names the command and the device (the channel's, as the
        // exception ends with it: "CMD: ERRNO (text) on DEVICE") once
        if (ex.command() == null)
        {
            return new RdmaCmException(call, ex.errno(), "the kernel's RDMA CM: " + ex.getMessage(), true);
        }
        final int on = ex.getMessage().indexOf(") on ");
        final String device = on < 0 ? UcmaChannel.DEVICE.toString() : ex.getMessage().substring(on + ") on ".length());
        return new RdmaCmException(call, ex.errno(), "the kernel's RDMA CM refused " + ex.command().cName() + " on " + device, true);
    }

    void difference(final RdmaCmId id, final String field, final String ours, final String kernels)
    {
        final KernelDifference difference = new KernelDifference(id, field, ours, kernels);
        LOG.log(System.Logger.Level.DEBUG, difference::toString);
        cm.options().kernelDifferences().onDifference(difference);
    }

    /** The conductor's poll set found the descriptor readable: every queued event, up to a limit, on this thread. */
    int onReadable(final int fd, final int revents)
    {
        int work = 0;
        while (work < EVENT_LIMIT)
        {
            final EventResponse event;
            try
            {
                event = channel.getEvent(0, TimeUnit.MILLISECONDS);
            }
            catch (final UcmaException ex)
            {
                LOG.log(System.Logger.Level.ERROR, "the kernel's RDMA CM events: " + ex.getMessage());
                return work + 1;
            }
            if (event == null)
            {
                return work;
            }
            work++;
            try
            {
                dispatch(event);
            }
            catch (final RuntimeException ex)
            {
                // one event that cannot be taken must not stop the conductor, nor the events after it
                LOG.log(System.Logger.Level.ERROR, "the kernel's RDMA CM: event " + event.event() + " of kernel id " + event.id() +
                    ": " + ex, ex);
            }
        }
        return work;
    }

    /**
     * One event, still in the channel's buffer: read as its id's kind (RC or UD) asks, then handed to its connection,
     * or a membership's to its group ({@link MulticastPhase#onKernelEvent}).
     */
    private void dispatch(final EventResponse event)
    {
        if (event.event() == UcmaEventType.MULTICAST_JOIN.number() || event.event() == UcmaEventType.MULTICAST_ERROR.number())
        {
            final IdMulticast mc = groupsByHandle.get(event.id());
            if (mc != null)
            {
                final KernelEvent taken = KernelEvent.copyOf(event, true);
                synchronized (mc.id.id.guard)
                {
                    MulticastPhase.onKernelEvent(mc, taken);
                }
            }
            return;
        }
        if (event.event() == UcmaEventType.CONNECT_REQUEST.number())
        {
            final KernelConnection listener = listenersByUid.get(event.uid());
            if (listener == null)
            {
                destroyQuietly(event.id());
                return;
            }
            final KernelEvent request = KernelEvent.copyOf(event, listener.isUd());
            synchronized (listener.guard())
            {
                listener.onRequest(request);
            }
            return;
        }
        final KernelConnection connection;
        synchronized (byHandle)
        {
            connection = byHandle.get(event.id());
        }
        if (connection != null)
        {
            final KernelEvent taken = KernelEvent.copyOf(event, connection.isUd());
            synchronized (connection.guard())
            {
                connection.onEvent(taken);
            }
        }
    }

    /** DESTROY_ID, its failure only logged: the id is gone for the application either way. */
    void destroyQuietly(final int handle)
    {
        try
        {
            command(channel -> channel.destroyId(handle));
        }
        catch (final UcmaException ex)
        {
            if (ex.errno() != Errno.EBADF)
            {
                LOG.log(System.Logger.Level.WARNING, "the kernel's RDMA CM: " + ex.getMessage());
            }
        }
    }

    /**
     * The RDMA device whose node GUID the kernel answered (QUERY ADDR's {@code node_guid}), from the devices of
     * the GID tables; the GUID as text when none has it.
     */
    String deviceOf(final long nodeGuid)
    {
        final String known = deviceByGuid.get(nodeGuid);
        if (known != null)
        {
            return known;
        }
        for (final RdmaPortBinding port : cm.options().gids().ports())
        {
            try
            {
                final long guid = SysfsDevices.nodeGuid(SysfsDevices.root(System.getenv()), port.device());
                deviceByGuid.put(guid, port.device());
            }
            catch (final SysfsFormatException ex)
            {
                LOG.log(System.Logger.Level.DEBUG, "node GUID of " + port.device() + ": " + ex.getMessage());
            }
        }
        final String found = deviceByGuid.get(nodeGuid);
        return found != null ? found : String.format("node GUID %016x", nodeGuid);
    }

    /** The GID entry {@code sgid} of the device's port, or the port's first entry, or null when the tables have no such port. */
    RdmaPortBinding binding(final String device, final int port, final Gid sgid)
    {
        for (final RdmaPortBinding first : cm.options().gids().ports())
        {
            if (first.device().equals(device) && first.port() == port)
            {
                final Optional<RdmaPortBinding> entry = first.netdev() != null ?
                    cm.options().gids().findRoceGid(sgid, first.netdev()) : cm.options().gids().findInfinibandGid(sgid);
                return entry.filter(b -> b.device().equals(device) && b.port() == port).orElse(first);
            }
        }
        return null;
    }

    /** {@return the socket address as text, for a trace} */
    static String text(final RdmaSockaddr address)
    {
        return address == null ? "none" : address.toText();
    }

    /** After the conductor ended: closing the descriptor destroys every kernel id still on it (REJ, DREQ as the kernel sends them). */
    @Override
    public void close()
    {
        try
        {
            channel.close();
        }
        catch (final UcmaException ex)
        {
            LOG.log(System.Logger.Level.WARNING, "closing the kernel's RDMA CM: " + ex.getMessage());
        }
    }
}
