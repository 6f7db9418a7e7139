package dev.rdmacm.verbs;

import dev.rdmacm.libc.Errno;
import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.rdmacm.verbs.IbvLayouts.IBV_DEVICE;
import static dev.rdmacm.verbs.IbvLayouts.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The entry point of the libibverbs binding: lists devices and opens them.
 * <p>
 * Listing never throws for an absent library or an absent device: libibverbs 44 returns NULL with
 * errno ENOSYS from {@code ibv_get_device_list} when no device has a usable provider, and
 * {@link DeviceListing#whyNone()} then says so (the NULL list is never passed to
 * {@code ibv_free_device_list}, which would crash).
 */
public final class Verbs
{
    static final long DEVICE_NODE_TYPE_OFFSET = offset(IBV_DEVICE, "node_type");
    private static final long DEVICE_NAME_MAX = IBV_DEVICE.select(MemoryLayout.PathElement.groupElement("name")).byteSize();

    private Verbs()
    {
    }

    /** Why libibverbs cannot be used at all (missing library, denied native access), or {@code null}. */
    public static String unavailableReason()
    {
        return LibIbverbs.unavailableReason();
    }

    /** The devices libibverbs lists; when there are none, {@link DeviceListing#whyNone()} says why. */
    public static DeviceListing listDevices()
    {
        final String unavailable = LibIbverbs.unavailableReason();
        if (unavailable != null)
        {
            return DeviceListing.none(unavailable);
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment errnoState = LibIbverbs.errnoState(arena);
            final MemorySegment count = arena.allocate(JAVA_INT);
            final MemorySegment list = getDeviceList(errnoState, count);
            if (list.address() == 0)
            {
                return DeviceListing.none(noList(LibIbverbs.errno(errnoState)));
            }
            try
            {
                final List<DeviceInfo> devices = describe(list, count.get(JAVA_INT, 0));
                return devices.isEmpty()
                    ? DeviceListing.none("libibverbs lists no RDMA devices (ibv_get_device_list returned an empty list)")
                    : new DeviceListing(devices, Optional.empty());
            }
            finally
            {
                freeDeviceList(list);
            }
        }
    }

    /**
     * Opens the device called {@code name}.
     *
     * @throws VerbsException naming ibv_open_device and the errno; ENODEV when no device has that
     *                        name (the message lists the devices there are, or why there are none).
     */
    public static VerbsContext open(final String name)
    {
        LibIbverbs.requireAvailable("ibv_open_device");
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment errnoState = LibIbverbs.errnoState(arena);
            final MemorySegment count = arena.allocate(JAVA_INT);
            final MemorySegment list = getDeviceList(errnoState, count);
            if (list.address() == 0)
            {
                throw new VerbsException("ibv_open_device", Errno.ENODEV,
                    "no RDMA device named " + name + ": " + noList(LibIbverbs.errno(errnoState)));
            }
            try
            {
                final VerbsContext opened = openListed(list, count.get(JAVA_INT, 0), name, errnoState);
                if (opened == null)
                {
                    throw new VerbsException("ibv_open_device", Errno.ENODEV,
                        "no RDMA device named " + name + "; libibverbs lists " + names(list, count.get(JAVA_INT, 0)));
                }
                return opened;
            }
            finally
            {
                freeDeviceList(list);
            }
        }
    }

    /**
     * Opens the device called {@code name} of {@code list} ({@code devices} long), or null when it lists none
     * of that name.
     */
    static VerbsContext openListed(final MemorySegment list, final int devices, final String name, final MemorySegment errnoState)
    {
        final MemorySegment array = list.reinterpret(ADDRESS.byteSize() * (devices + 1L));
        for (int i = 0; i < devices; i++)
        {
            final MemorySegment device = array.getAtIndex(ADDRESS, i);
            if (deviceName(device).equals(name))
            {
                return openDevice(device, name, errnoState);
            }
        }
        return null;
    }

    /** The names {@code list} holds, for an error: "none" for no device. */
    private static String names(final MemorySegment list, final int devices)
    {
        final MemorySegment array = list.reinterpret(ADDRESS.byteSize() * (devices + 1L));
        final List<String> names = new ArrayList<>();
        for (int i = 0; i < devices; i++)
        {
            names.add(deviceName(array.getAtIndex(ADDRESS, i)));
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    private static VerbsContext openDevice(final MemorySegment device, final String name, final MemorySegment errnoState)
    {
        final MemorySegment context;
        try
        {
            context = (MemorySegment)LibIbverbs.Contexts.OPEN_DEVICE.invokeExact(errnoState, device);
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_open_device", ex);
        }
        if (context.address() == 0)
        {
            final int errno = LibIbverbs.errno(errnoState);
            throw new VerbsException("ibv_open_device", errno, name
                + (errno == Errno.EACCES || errno == Errno.EPERM ? " (check the permissions of /dev/infiniband/uverbs*)" : ""));
        }
        // the context holds its own reference to the device, so the list can be freed now
        return new VerbsContext(context, name);
    }

    private static String noList(final int errno)
    {
        if (errno == Errno.ENOSYS)
        {
            return "libibverbs found no RDMA devices (ibv_get_device_list returned NULL, errno 38 ENOSYS: no "
                + "/sys/class/infiniband_verbs/uverbs* device with a provider in ibverbs-providers)";
        }
        return "ibv_get_device_list failed: errno " + errno + " " + Errno.name(errno);
    }

    private static List<DeviceInfo> describe(final MemorySegment list, final int count)
    {
        final MemorySegment array = list.reinterpret(ADDRESS.byteSize() * (count + 1L));
        final List<DeviceInfo> devices = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final MemorySegment device = array.getAtIndex(ADDRESS, i);
            final long guid;
            try
            {
                guid = (long)LibIbverbs.Devices.GET_DEVICE_GUID.invokeExact(device);
            }
            catch (final Throwable ex)
            {
                throw LibIbverbs.unexpected("ibv_get_device_guid", ex);
            }
            final int nodeType = device.reinterpret(IBV_DEVICE.byteSize()).get(JAVA_INT, DEVICE_NODE_TYPE_OFFSET);
            // __be64 returned in a register: the bytes are in network order, the long in host order
            devices.add(new DeviceInfo(deviceName(device), Long.reverseBytes(guid), NodeType.ofValue(nodeType)));
        }
        return devices;
    }

    private static String deviceName(final MemorySegment device)
    {
        final MemorySegment name;
        try
        {
            name = (MemorySegment)LibIbverbs.Devices.GET_DEVICE_NAME.invokeExact(device);
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_get_device_name", ex);
        }
        return name.reinterpret(DEVICE_NAME_MAX).getString(0);
    }

    static MemorySegment getDeviceList(final MemorySegment errnoState, final MemorySegment count)
    {
        try
        {
            return (MemorySegment)LibIbverbs.Devices.GET_DEVICE_LIST.invokeExact(errnoState, count);
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_get_device_list", ex);
        }
    }

    static void freeDeviceList(final MemorySegment list)
    {
        try
        {
            LibIbverbs.Devices.FREE_DEVICE_LIST.invokeExact(list);
        }
        catch (final Throwable ex)
        {
            throw LibIbverbs.unexpected("ibv_free_device_list", ex);
        }
    }
}
