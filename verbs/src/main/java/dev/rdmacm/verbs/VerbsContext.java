package dev.rdmacm.verbs;

import dev.rdmacm.libc.Libc;
import dev.rdmacm.libc.NativeCallException;
import dev.rdmacm.protocol.Gid;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static dev.rdmacm.verbs.IbvLayouts.BE16;
import static dev.rdmacm.verbs.IbvLayouts.BE64;
import static dev.rdmacm.verbs.IbvLayouts.IBV_CONTEXT;
import static dev.rdmacm.verbs.IbvLayouts.IBV_DEVICE;
import static dev.rdmacm.verbs.IbvLayouts.IBV_DEVICE_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.IBV_GID_ENTRY;
import static dev.rdmacm.verbs.IbvLayouts.IBV_PORT_ATTR;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * An open device ({@code struct ibv_context}): queries, and the factory and owner of every resource
 * created on it. Closing it closes every resource still open, newest first, then the device.
 * <p>
 * Not thread-safe: use a context and its resources from one thread at a time.
 */
public final class VerbsContext implements AutoCloseable
{
    static final long DEVICE_OFFSET = offset(IBV_CONTEXT, "device");
    static final long GID_ENTRY_GID_OFFSET = offset(IBV_GID_ENTRY, "gid");
    static final long GID_ENTRY_GID_INDEX_OFFSET = offset(IBV_GID_ENTRY, "gid_index");
    static final long GID_ENTRY_PORT_NUM_OFFSET = offset(IBV_GID_ENTRY, "port_num");
    static final long GID_ENTRY_GID_TYPE_OFFSET = offset(IBV_GID_ENTRY, "gid_type");
    static final long GID_ENTRY_NDEV_IFINDEX_OFFSET = offset(IBV_GID_ENTRY, "ndev_ifindex");

    private final MemorySegment context;
    private final String deviceName;
    private final ContextOps ops;
    private final ResourceRegistry registry;

    VerbsContext(final MemorySegment context, final String deviceName)
    {
        this.context = context.reinterpret(IBV_CONTEXT.byteSize());
        this.deviceName = deviceName;
        this.ops = new ContextOps(context);
        this.registry = new ResourceRegistry(deviceName);
    }

    public String deviceName()
    {
        return deviceName;
    }

    /** {@code ibv_query_device}. */
    public DeviceAttributes queryDevice()
    {
        requireOpen("ibv_query_device");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IBV_DEVICE_ATTR);
            LibIbverbs.check("ibv_query_device", deviceName,
                errno -> (int)LibIbverbs.Contexts.QUERY_DEVICE.invokeExact(errno, context, attr));
            return DeviceAttributes.read(attr);
        }
    }

    /**
     * {@code ibv_query_port} as {@code verbs.h} compiles it: through the extended context's
     * query_port with the full 52-byte struct (so port_cap_flags2 is filled), falling back to the
     * exported 48-byte compatibility call only for a provider without it.
     */
    public PortAttributes queryPort(final int port)
    {
        requireOpen("ibv_query_port");
        requirePortNumber("ibv_query_port", port);
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment attr = arena.allocate(IBV_PORT_ATTR);
            if (ops.hasExtendedQueryPort())
            {
                ops.queryPort(context, port, attr);
            }
            else
            {
                LibIbverbs.check("ibv_query_port", deviceName + " port " + port,
                    errno -> (int)LibIbverbs.Contexts.QUERY_PORT_COMPAT.invokeExact(errno, context, (byte)port, attr));
            }
            return PortAttributes.read(attr);
        }
    }

    /** {@code ibv_query_gid_ex}: one GID entry with its type and netdev. */
    public GidEntry queryGid(final int port, final int index)
    {
        requireOpen("ibv_query_gid_ex");
        requirePortNumber("ibv_query_gid_ex", port);
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment entry = arena.allocate(IBV_GID_ENTRY);
            LibIbverbs.check("ibv_query_gid_ex", deviceName + " port " + port + " index " + index + " (ENODATA: an empty entry)",
                errno -> (int)LibIbverbs.Contexts.QUERY_GID_EX.invokeExact(errno, context, port, index, entry, 0, IBV_GID_ENTRY.byteSize()));
            return gidEntry(entry, (entryPort, entryIndex, ifindex) -> netdevName(ifindex, arena));
        }
    }

    /** {@code ibv_query_gid_table}: the valid GID entries of {@code port}, by index. */
    public List<GidEntry> gidTable(final int port)
    {
        requirePortNumber("ibv_query_gid_table", port);
        final int ports = queryDevice().physPortCount();
        int capacity = 0;
        for (int p = 1; p <= ports; p++)
        {
            capacity += queryPort(p).gidTableLength();
        }
        return allGids(capacity, this::netdevInThisNamespace).stream().filter(entry -> entry.port() == port).map(PortGid::entry).toList();
    }

    /**
     * Every valid GID entry of every port, in a table with room for {@code capacity} entries: one
     * {@code ibv_query_gid_table}, which libibverbs 44 makes one ioctl (UVERBS_METHOD_QUERY_GID_TABLE)
     * on kernels that have it, 5.9 and later.
     */
    private List<PortGid> allGids(final int capacity, final NetdevNaming naming)
    {
        requireOpen("ibv_query_gid_table");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment errnoState = LibIbverbs.errnoState(arena);
            final MemorySegment entries = arena.allocate(IBV_GID_ENTRY, Math.max(capacity, 1));
            final long count;
            try
            {
                count = (long)LibIbverbs.Contexts.QUERY_GID_TABLE.invokeExact(errnoState, context, entries, (long)capacity, 0,
                    IBV_GID_ENTRY.byteSize());
            }
            catch (final Throwable ex)
            {
                throw LibIbverbs.unexpected("ibv_query_gid_table", ex);
            }
            if (count < 0)
            {
                throw new VerbsException("ibv_query_gid_table", LibIbverbs.errnoOf((int)count, errnoState),
                    deviceName + ", room for " + capacity + " entries");
            }
            final List<PortGid> table = new ArrayList<>();
            for (long i = 0; i < count; i++)
            {
                final MemorySegment entry = entries.asSlice(i * IBV_GID_ENTRY.byteSize(), IBV_GID_ENTRY);
                table.add(new PortGid(entry.get(JAVA_INT, GID_ENTRY_PORT_NUM_OFFSET), gidEntry(entry, naming)));
            }
            table.sort(Comparator.comparingInt(PortGid::port).thenComparingInt(g -> g.entry().index()));
            return table;
        }
    }

    /** A GID entry and the port whose table holds it. */
    private record PortGid(int port, GidEntry entry)
    {
    }

    /** {@code ibv_query_pkey} over the whole table: the non-zero P_Keys of {@code port}. */
    public List<PkeyEntry> pkeyTable(final int port)
    {
        final int length = queryPort(port).pkeyTableLength();
        final List<PkeyEntry> table = new ArrayList<>();
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pkey = arena.allocate(JAVA_SHORT);
            for (int index = 0; index < length; index++)
            {
                final int pkeyIndex = index;
                LibIbverbs.check("ibv_query_pkey", deviceName + " port " + port + " index " + index,
                    errno -> (int)LibIbverbs.Contexts.QUERY_PKEY.invokeExact(errno, context, (byte)port, pkeyIndex, pkey));
                final int value = Short.toUnsignedInt(pkey.get(BE16, 0));
                if (value != 0)
                {
                    table.add(new PkeyEntry(index, value));
                }
            }
        }
        return table;
    }

    /**
     * The device as the sysfs view describes it, read through libibverbs, the netdevs of its GIDs named
     * by {@code if_indextoname} in the calling thread's network namespace.
     */
    public RdmaDevice describe()
    {
        return describe(this::netdevInThisNamespace);
    }

    /**
     * The device as the sysfs view describes it, read through libibverbs: {@code ibv_query_device}, an
     * {@code ibv_query_port} per port, one {@code ibv_query_gid_table} for every port's GIDs and the
     * P_Key tables; the netdevs of its GIDs named by {@code naming}.
     */
    public RdmaDevice describe(final NetdevNaming naming)
    {
        final DeviceAttributes device = queryDevice();
        final List<PortAttributes> attributes = new ArrayList<>();
        int gidCapacity = 0;
        for (int number = 1; number <= device.physPortCount(); number++)
        {
            attributes.add(queryPort(number));
            gidCapacity += attributes.get(number - 1).gidTableLength();
        }
        final List<PortGid> gids = allGids(gidCapacity, naming);
        final List<RdmaPort> ports = new ArrayList<>();
        for (int number = 1; number <= device.physPortCount(); number++)
        {
            final PortAttributes port = attributes.get(number - 1);
            final int portNumber = number;
            ports.add(new RdmaPort(number,
                Objects.requireNonNullElse(port.portState(), PortState.NOP),
                Objects.requireNonNullElse(PhysicalPortState.ofValue(port.physState()), PhysicalPortState.NO_STATE_CHANGE),
                port.linkLayerType(), port.lid(), port.lmc(), port.smLid(), port.smSl(), port.rateText(),
                gids.stream().filter(g -> g.port() == portNumber).map(PortGid::entry).toList(),
                pkeyTable(number)));
        }
        final MemorySegment ibvDevice = context.get(ADDRESS, DEVICE_OFFSET).reinterpret(IBV_DEVICE.byteSize());
        return new RdmaDevice(deviceName, NodeType.ofValue(ibvDevice.get(JAVA_INT, Verbs.DEVICE_NODE_TYPE_OFFSET)),
            device.nodeGuid(), ports);
    }

    /** {@code ibv_alloc_pd}. */
    public ProtectionDomain allocateProtectionDomain()
    {
        requireOpen("ibv_alloc_pd");
        return new ProtectionDomain(this);
    }

    /** {@code ibv_create_comp_channel}. */
    public CompletionChannel createCompletionChannel()
    {
        requireOpen("ibv_create_comp_channel");
        return new CompletionChannel(this);
    }

    /**
     * {@code ibv_create_cq} with at least {@code entries} entries, its events delivered to
     * {@code channel} (or nowhere when {@code null}).
     */
    public CompletionQueue createCompletionQueue(final int entries, final CompletionChannel channel)
    {
        requireOpen("ibv_create_cq");
        return new CompletionQueue(this, entries, channel);
    }

    /** Closes every resource still open, newest first, then {@code ibv_close_device}. Idempotent. */
    @Override
    public void close()
    {
        if (registry.isClosed())
        {
            return;
        }
        VerbsException failure = registry.closeAll();
        try
        {
            LibIbverbs.check("ibv_close_device", deviceName, errno -> (int)LibIbverbs.Contexts.CLOSE_DEVICE.invokeExact(errno, context));
        }
        catch (final VerbsException ex)
        {
            failure = ResourceRegistry.suppress(failure, ex);
        }
        if (failure != null)
        {
            throw failure;
        }
    }

    public boolean isClosed()
    {
        return registry.isClosed();
    }

    @Override
    public String toString()
    {
        return "VerbsContext[" + deviceName + (isClosed() ? ", closed" : "") + "]";
    }

    MemorySegment segment()
    {
        return context;
    }

    ContextOps ops()
    {
        return ops;
    }

    ResourceRegistry registry()
    {
        return registry;
    }

    void requireOpen(final String call)
    {
        registry.requireOpen(call);
    }

    private static GidEntry gidEntry(final MemorySegment entry, final NetdevNaming naming)
    {
        final Gid gid = new Gid(entry.get(BE64, GID_ENTRY_GID_OFFSET), entry.get(BE64, GID_ENTRY_GID_OFFSET + Long.BYTES));
        final int ifindex = entry.get(JAVA_INT, GID_ENTRY_NDEV_IFINDEX_OFFSET);
        final int index = entry.get(JAVA_INT, GID_ENTRY_GID_INDEX_OFFSET);
        return new GidEntry(index, gid, GidType.ofValue(entry.get(JAVA_INT, GID_ENTRY_GID_TYPE_OFFSET)),
            ifindex == 0 ? Optional.empty() : naming.name(entry.get(JAVA_INT, GID_ENTRY_PORT_NUM_OFFSET), index, ifindex));
    }

    private Optional<String> netdevInThisNamespace(final int port, final int index, final int ifindex)
    {
        try (Arena arena = Arena.ofConfined())
        {
            return netdevName(ifindex, arena);
        }
    }

    private static Optional<String> netdevName(final int ifindex, final Arena arena)
    {
        if (ifindex == 0)
        {
            return Optional.empty();
        }
        final MemorySegment buffer = arena.allocate(Libc.IF_NAMESIZE);
        final String name;
        try
        {
            name = Libc.ifIndexToName(new Libc.CallState(arena), ifindex, buffer);
        }
        catch (final NativeCallException ex)
        {
            throw new VerbsException(ex.call(), ex.errno(), "naming the netdev of a GID");
        }
        // the netdev can vanish between the two calls: then the GID has no netdev any more
        return Optional.ofNullable(name);
    }

    private static void requirePortNumber(final String call, final int port)
    {
        if (port < 1 || port > 255)
        {
            throw new IllegalArgumentException(call + ": port " + port + " is not a port number (1-255)");
        }
    }
}
