package dev.rdmacm.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * One {@code ibv_get_device_list}, kept until closed, so that opening a device it lists costs no listing of
 * its own: each listing scans sysfs for every device (tens of milliseconds for the kernel guest's 13 devices
 * under TCG), where {@link Verbs#open} lists again at every call. librdmacm does the same: {@code ucma_init}
 * lists the devices once, and a device is opened from that list when an id first needs it. A device added
 * after the listing is not in it ({@link #open} says so with null; {@link Verbs#open} lists afresh). Thread-safe.
 */
public final class HeldDeviceList implements AutoCloseable
{
    private final Arena arena = Arena.ofShared();
    private final MemorySegment errnoState = LibIbverbs.errnoState(arena);
    /** The native list; NULL when libibverbs gave none, or once closed. */
    private MemorySegment list;
    private final int devices;

    private HeldDeviceList(final MemorySegment list, final int devices)
    {
        this.list = list;
        this.devices = devices;
    }

    /**
     * Lists the devices now. An absent library or a failed listing gives a list with no device, as
     * {@link Verbs#listDevices()} reports none.
     *
     * @return the list, to close.
     */
    public static HeldDeviceList now()
    {
        if (LibIbverbs.unavailableReason() != null)
        {
            return new HeldDeviceList(MemorySegment.NULL, 0);
        }
        try (Arena call = Arena.ofConfined())
        {
            final MemorySegment count = call.allocate(JAVA_INT);
            final MemorySegment listed = Verbs.getDeviceList(LibIbverbs.errnoState(call), count);
            return new HeldDeviceList(listed, listed.address() == 0 ? 0 : count.get(JAVA_INT, 0));
        }
    }

    /**
     * {@code ibv_open_device} of the device called {@code name}, if this list has it.
     *
     * @return the open device, or null when the list has no device of that name (or is closed).
     * @throws VerbsException naming ibv_open_device and the errno when the device cannot be opened.
     */
    public synchronized VerbsContext open(final String name)
    {
        if (list.address() == 0)
        {
            return null;
        }
        return Verbs.openListed(list, devices, name, errnoState);
    }

    /**
     * {@code ibv_open_device} of the device called {@code name}: from this list, or, when it does not list it (a
     * device added since, or none of that name), as {@link Verbs#open} opens it, from a listing of its own.
     *
     * @return the open device.
     * @throws VerbsException naming ibv_open_device and the errno; ENODEV when no listing has the device.
     */
    public VerbsContext openOrListAgain(final String name)
    {
        final VerbsContext listed = open(name);
        return listed != null ? listed : Verbs.open(name);
    }

    /** {@code ibv_free_device_list}; the devices opened from it stay open. */
    @Override
    public synchronized void close()
    {
        if (list.address() != 0)
        {
            Verbs.freeDeviceList(list);
            list = MemorySegment.NULL;
        }
        arena.close();
    }
}
