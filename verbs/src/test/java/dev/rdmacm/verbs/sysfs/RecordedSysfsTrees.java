package dev.rdmacm.verbs.sysfs;

import dev.rdmacm.protocol.Gid;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The recorded sysfs trees shipped in this module's test jar ({@code sysfs/<tree>/class/infiniband/...}),
 * copied to a directory that {@code SYSFS_PATH} or {@link SysfsDevices#read(Path)} can point at.
 * Other modules get them through the {@code verbs} test-jar dependency.
 * <ul>
 *   <li>{@value #IB_HCA}: {@code mlx5_0}, an InfiniBand HCA with two ports. Port 1 ACTIVE, LID 0x5,
 *       SM LID 0x1, GIDs {@code fe80::2:c903:a1:b2c5} (index 0) and {@code fec0::1:2:c903:a1:b2c5}
 *       (index 1), P_Keys 0xffff, 0x8001 and 0x0002 (a limited member) at indexes 0-2. Port 2 DOWN
 *       and Disabled, LID 0, GID {@code fe80::2:c903:a1:b2c6}, P_Key 0xffff.</li>
 *   <li>{@value #SOFT_ROCE}: {@code rxe0}, a soft-RoCE device on netdev {@value #SOFT_ROCE_NETDEV}
 *       (MAC 52:54:00:12:34:56) with a RoCE v1 and a RoCE v2 GID for each of its addresses: the
 *       link-local {@code fe80::5054:ff:fe12:3456} (indexes 0, 1), IPv4 {@value #SOFT_ROCE_IPV4}
 *       as {@code ::ffff:192.0.2.1} (2, 3) and IPv6 {@value #SOFT_ROCE_IPV6} (4, 5).</li>
 * </ul>
 * Tests that create their own netdev (a veth with a unique name) use
 * {@link #softRoce(Path, String)} to get the soft-RoCE tree bound to that name instead.
 */
public final class RecordedSysfsTrees
{
    public static final String IB_HCA = "ib-hca";
    public static final String SOFT_ROCE = "soft-roce";
    public static final String SOFT_ROCE_NETDEV = "veth-rdma0";
    public static final String SOFT_ROCE_IPV4 = "192.0.2.1";
    public static final String SOFT_ROCE_IPV6 = "2001:db8::1";
    public static final Gid SOFT_ROCE_LINK_LOCAL_GID = Gid.parse("fe80::5054:ff:fe12:3456");
    public static final Gid SOFT_ROCE_IPV4_GID = Gid.parse("::ffff:" + SOFT_ROCE_IPV4);
    public static final Gid SOFT_ROCE_IPV6_GID = Gid.parse(SOFT_ROCE_IPV6);
    public static final Gid IB_HCA_PORT1_GID = Gid.parse("fe80::2:c903:a1:b2c5");

    private static final String RESOURCE_ROOT = "/sysfs/";

    private RecordedSysfsTrees()
    {
    }

    /**
     * Copies the named trees into {@code target}, merged into one sysfs root (so that
     * {@code copy(dir, IB_HCA, SOFT_ROCE)} holds both devices), and returns {@code target}.
     */
    public static Path copy(final Path target, final String... trees)
    {
        for (final String tree : trees)
        {
            copyTree(tree, target, null);
        }
        return target;
    }

    /**
     * Copies the soft-RoCE tree into {@code target} with every reference to its netdev
     * ({@code gid_attrs/ndevs/*} and the device's {@code parent}) naming {@code netdev} instead of
     * {@value #SOFT_ROCE_NETDEV}, and returns {@code target}.
     */
    public static Path softRoce(final Path target, final String netdev)
    {
        if (netdev.isEmpty() || netdev.length() > 15 || netdev.contains("/") || netdev.isBlank())
        {
            throw new IllegalArgumentException("netdev '" + netdev + "': a Linux interface name has 1-15 characters, no '/'");
        }
        copyTree(SOFT_ROCE, target, netdev);
        return target;
    }

    private static void copyTree(final String tree, final Path target, final String renamedNetdev)
    {
        final URL url = RecordedSysfsTrees.class.getResource(RESOURCE_ROOT + tree);
        if (url == null)
        {
            throw new IllegalArgumentException("no recorded sysfs tree '" + tree + "' on the class path; known: "
                + IB_HCA + ", " + SOFT_ROCE);
        }
        try
        {
            final URI uri = url.toURI();
            FileSystem opened = null;
            if ("jar".equals(uri.getScheme()))
            {
                try
                {
                    opened = FileSystems.newFileSystem(uri, Map.of());
                }
                catch (final FileSystemAlreadyExistsException alreadyOpen)
                {
                    // another caller has the jar open: Path.of(uri) finds that file system
                }
            }
            try
            {
                copyFiles(Path.of(uri), target, renamedNetdev);
            }
            finally
            {
                if (opened != null)
                {
                    opened.close();
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("copying recorded sysfs tree " + tree + " to " + target, ex);
        }
        catch (final URISyntaxException ex)
        {
            throw new IllegalStateException(url + " is not a valid URI", ex);
        }
    }

    private static void copyFiles(final Path source, final Path target, final String renamedNetdev) throws IOException
    {
        try (Stream<Path> files = Files.walk(source))
        {
            for (final Path file : files.toList())
            {
                final Path destination = target.resolve(source.relativize(file).toString());
                if (Files.isDirectory(file))
                {
                    Files.createDirectories(destination);
                    continue;
                }
                String text = Files.readString(file, StandardCharsets.UTF_8);
                if (renamedNetdev != null && isNetdevReference(file) && text.strip().equals(SOFT_ROCE_NETDEV))
                {
                    text = renamedNetdev + "\n";
                }
                Files.writeString(destination, text, StandardCharsets.UTF_8);
            }
        }
    }

    private static boolean isNetdevReference(final Path file)
    {
        final Path parent = file.getParent();
        return "parent".equals(file.getFileName().toString())
            || (parent != null && "ndevs".equals(parent.getFileName().toString()));
    }
}
