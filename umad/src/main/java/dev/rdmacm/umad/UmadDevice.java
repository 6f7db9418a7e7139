package dev.rdmacm.umad;

import dev.rdmacm.libc.Errno;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One umad character device: the MAD interface of one port of one RDMA device, as ib_umad publishes
 * it in sysfs ({@code /sys/class/infiniband_mad/umadN/ibdev} and {@code port}) and devtmpfs
 * ({@code /dev/infiniband/umadN}). The numbering follows the order devices and ports were added, so
 * it is looked up, never computed; the {@code issmN} entries beside them (the SM's capability
 * devices) are not MAD interfaces and are skipped.
 *
 * @param name      {@code umadN}.
 * @param ibDevice  the RDMA device, e.g. {@code rxe10}.
 * @param port      its port number, from 1.
 * @param linkLayer {@code InfiniBand} or {@code Ethernet} (RoCE: every MAD needs a GRH), from
 *                  {@code /sys/class/infiniband/DEV/ports/N/link_layer}.
 */
public record UmadDevice(String name, String ibDevice, int port, String linkLayer)
{
    /** The one ABI this binding speaks: {@code IB_USER_MAD_ABI_VERSION} 5, the header with pkey_index. */
    public static final int ABI_VERSION = 5;
    public static final String ETHERNET = "Ethernet";

    static final Path SYSFS_CLASS = Path.of("/sys/class/infiniband_mad");
    private static final Path SYSFS_INFINIBAND = Path.of("/sys/class/infiniband");
    private static final Path DEV = Path.of("/dev/infiniband");

    /** {@code /dev/infiniband/umadN}. */
    public Path devicePath()
    {
        return DEV.resolve(name);
    }

    /** Whether the port is RoCE, where the kernel builds no address handle without a GRH. */
    public boolean isEthernet()
    {
        return ETHERNET.equals(linkLayer);
    }

    /**
     * The umad device of {@code ibDevice} port {@code port}.
     *
     * @throws UmadException (ENODEV) naming what is missing: ib_umad not loaded, no such device or port.
     * @throws IllegalArgumentException for a name that cannot be a device's or a port below 1.
     */
    public static UmadDevice find(final String ibDevice, final int port)
    {
        if (ibDevice == null || ibDevice.isEmpty() || ibDevice.contains("/") || ibDevice.startsWith("."))
        {
            throw new IllegalArgumentException("RDMA device name '" + ibDevice + "': must be a non-empty sysfs name");
        }
        if (port < 1)
        {
            throw new IllegalArgumentException("port " + port + " of " + ibDevice + ": ports are numbered from 1");
        }
        final List<UmadDevice> all = list();
        for (final UmadDevice device : all)
        {
            if (device.ibDevice.equals(ibDevice) && device.port == port)
            {
                return device;
            }
        }
        throw new UmadException("no umad device for " + ibDevice + " port " + port + " in " + SYSFS_CLASS + " (there are " +
            all.stream().map(d -> d.name + "=" + d.ibDevice + "/" + d.port).toList() + ")", Errno.ENODEV);
    }

    /** Every umad device, by number. */
    public static List<UmadDevice> list()
    {
        requireAbi();
        final List<UmadDevice> devices = new ArrayList<>();
        try (Stream<Path> entries = Files.list(SYSFS_CLASS))
        {
            for (final Path entry : entries.toList())
            {
                final String name = entry.getFileName().toString();
                if (!name.startsWith("umad"))
                {
                    continue;
                }
                final String ibDevice = read(entry.resolve("ibdev"));
                final int port = Integer.parseInt(read(entry.resolve("port")));
                final Path linkLayer = SYSFS_INFINIBAND.resolve(ibDevice).resolve("ports").resolve(Integer.toString(port))
                    .resolve("link_layer");
                devices.add(new UmadDevice(name, ibDevice, port, Files.exists(linkLayer) ? read(linkLayer) : "unknown"));
            }
        }
        catch (final IOException ex)
        {
            throw new UmadException("cannot list " + SYSFS_CLASS + ": " + ex, Errno.EIO, ex);
        }
        devices.sort(Comparator.comparingInt(d -> Integer.parseInt(d.name.substring("umad".length()))));
        return devices;
    }

    /**
     * {@code /sys/class/infiniband_mad/abi_version}.
     *
     * @throws UmadException (ENODEV) when ib_umad is not loaded.
     */
    public static int abiVersion()
    {
        final Path file = SYSFS_CLASS.resolve("abi_version");
        try
        {
            return Integer.parseInt(Files.readString(file).strip());
        }
        catch (final NoSuchFileException ex)
        {
            throw new UmadException(file + " does not exist: the ib_umad module is not loaded (modprobe ib_umad)",
                Errno.ENODEV, ex);
        }
        catch (final IOException | NumberFormatException ex)
        {
            throw new UmadException("cannot read the umad ABI version from " + file + ": " + ex, Errno.EIO, ex);
        }
    }

    private static void requireAbi()
    {
        final int abi = abiVersion();
        if (abi != ABI_VERSION)
        {
            throw new UmadException("umad ABI version " + abi + " (" + SYSFS_CLASS.resolve("abi_version") +
                "): this binding speaks version " + ABI_VERSION + " only", Errno.EPROTONOSUPPORT);
        }
    }

    private static String read(final Path file) throws IOException
    {
        return Files.readString(file).strip();
    }
}
