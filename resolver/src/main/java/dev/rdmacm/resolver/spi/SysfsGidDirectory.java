package dev.rdmacm.resolver.spi;

import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.sysfs.SysfsDevices;

import java.nio.file.Path;

/**
 * The GID tables of the RDMA devices as the verbs module reads them from sysfs ({@code $SYSFS_PATH}
 * or {@code /sys}, or any root given), file by file: what a recorded tree (the host tests') needs,
 * and the lookups and miss policy of {@link ReadGidDirectory}. On a machine's own {@code /sys}, where
 * each port's table is 1024 files, {@link VerbsGidDirectory} reads the same tables through libibverbs.
 */
public final class SysfsGidDirectory extends ReadGidDirectory
{
    /**
     * A directory of {@code devices}, however they were read: never read again.
     *
     * @param devices the devices and their GID tables.
     */
    public SysfsGidDirectory(final RdmaDevices devices)
    {
        super(null, devices);
    }

    private SysfsGidDirectory(final Path sysfsRoot, final RdmaDevices devices)
    {
        super(sysfsRoot, devices);
    }

    /**
     * The devices under a sysfs root as they are now, e.g. a recorded tree: never read again.
     *
     * @param sysfsRoot the root, {@code /sys} or a recorded tree.
     * @return the directory.
     */
    public static SysfsGidDirectory read(final Path sysfsRoot)
    {
        return new SysfsGidDirectory(SysfsDevices.read(sysfsRoot));
    }

    /**
     * The devices under a sysfs root ({@link SysfsDevices#root}), read again whenever a lookup misses.
     *
     * @param sysfsRoot the root, {@code /sys} or a recorded tree.
     * @return the directory.
     */
    public static SysfsGidDirectory live(final Path sysfsRoot)
    {
        return new SysfsGidDirectory(sysfsRoot, SysfsDevices.read(sysfsRoot));
    }

    @Override
    RdmaDevices readAll(final Path sysfsRoot)
    {
        return SysfsDevices.read(sysfsRoot);
    }

    @Override
    RdmaDevice readDevice(final Path sysfsRoot, final String name)
    {
        return SysfsDevices.readDevice(sysfsRoot, name);
    }
}
