package dev.rdmacm.verbs.sysfs;

import dev.rdmacm.verbs.HeldDeviceList;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.VerbsException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The devices sysfs lists under a root, in its order (by name), each with its tables read through
 * libibverbs: one {@code ibv_query_gid_table} ioctl for every GID of the device, where
 * {@link SysfsDevices} reads each port's table file by file (1024 files a port on rxe, a quarter of a
 * second a device in a TCG guest, against a few milliseconds to open, query and close it).
 * <p>
 * What libibverbs does not give comes from sysfs: the netdev names of the GIDs
 * ({@link SysfsDevices#netdevNaming}, which the kernel writes whatever namespace the netdev is in), and
 * every table of a device libibverbs cannot open (no user-space provider, no access to its uverbs
 * device, or the library itself unavailable), which {@link SysfsDevices#readDevice} reads instead. The
 * device stays closed between reads: an open context would hold up the kernel's unregistration of a
 * device that goes away.
 */
public final class LibibverbsDevices
{
    /** What {@link RdmaDevices#source()} says of devices read here. */
    public static final String SOURCE = "libibverbs";

    private LibibverbsDevices()
    {
    }

    /**
     * Whether the devices of {@code environment}'s sysfs are this machine's own, for libibverbs to read:
     * not when {@code $SYSFS_PATH} names a tree (a recorded one, which has no uverbs devices behind it)
     * and {@link SysfsDevices} must read it file by file.
     */
    public static boolean readsTheMachinesOwn(final Map<String, String> environment)
    {
        final String path = environment.get(SysfsDevices.SYSFS_PATH_VARIABLE);
        return path == null || path.isEmpty();
    }

    /**
     * The devices under {@code <root>/class/infiniband}, by name; none, and libibverbs never loaded,
     * when there are none.
     *
     * @throws SysfsFormatException naming the file and the rule it breaks, for what is read from sysfs.
     */
    public static RdmaDevices read(final Path root)
    {
        final List<String> names = SysfsDevices.names(root);
        final List<RdmaDevice> devices = new ArrayList<>(names.size());
        if (names.isEmpty())
        {
            return new RdmaDevices(SOURCE, devices);
        }
        // one listing for all of them: Verbs.open lists every device again at each call, and the kernel guest's 13
        // rxe devices made 13 listings (of 14 netlink round trips and 13 stats each) at every RdmaCm opened there
        try (HeldDeviceList listed = HeldDeviceList.now())
        {
            for (final String name : names)
            {
                devices.add(readDevice(root, name, listed::openOrListAgain));
            }
        }
        return new RdmaDevices(SOURCE, devices);
    }

    /**
     * One device, read as {@link #read(Path)} reads each.
     *
     * @throws SysfsFormatException naming the file and the rule it breaks, for what is read from sysfs.
     */
    public static RdmaDevice readDevice(final Path root, final String name)
    {
        return readDevice(root, name, Verbs::open);
    }

    /**
     * One device, opened by {@code opener} ({@link Verbs#open}, or {@link HeldDeviceList#openOrListAgain} of a listing
     * that serves several devices).
     */
    private static RdmaDevice readDevice(final Path root, final String name, final Function<String, VerbsContext> opener)
    {
        if (Verbs.unavailableReason() == null)
        {
            try (VerbsContext context = opener.apply(name))
            {
                return context.describe(SysfsDevices.netdevNaming(root, name));
            }
            catch (final VerbsException ex)
            {
                // not libibverbs' to open (ENODEV: no provider; EACCES), or going away: sysfs has it all,
                // and fails naming the file for a device that is gone
            }
        }
        return SysfsDevices.readDevice(root, name);
    }
}
