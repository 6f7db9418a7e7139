package dev.rdmacm.verbs.sysfs;

import dev.rdmacm.protocol.Gid;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.GidType;
import dev.rdmacm.verbs.LinkLayer;
import dev.rdmacm.verbs.NetdevNaming;
import dev.rdmacm.verbs.NodeType;
import dev.rdmacm.verbs.PhysicalPortState;
import dev.rdmacm.verbs.PkeyEntry;
import dev.rdmacm.verbs.PortState;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the RDMA devices, ports, GID and P_Key tables the kernel publishes under
 * {@code <sysfs>/class/infiniband}:
 * <pre>
 *   class/infiniband/&lt;dev&gt;/node_type                     1: CA
 *   class/infiniband/&lt;dev&gt;/node_guid                     0002:c903:00a1:b2c4
 *   class/infiniband/&lt;dev&gt;/ports/&lt;n&gt;/state               4: ACTIVE
 *                                  /phys_state          5: LinkUp
 *                                  /link_layer          InfiniBand | Ethernet
 *                                  /lid, /sm_lid        0x5
 *                                  /lid_mask_count      0
 *                                  /sm_sl               0
 *                                  /rate                100 Gb/sec (4X EDR)
 *                                  /gids/&lt;i&gt;            fe80:0000:0000:0000:0002:c903:00a1:b2c5
 *                                  /gid_attrs/types/&lt;i&gt; IB/RoCE v1 | RoCE v2
 *                                  /gid_attrs/ndevs/&lt;i&gt; veth-rdma0
 *                                  /pkeys/&lt;i&gt;           0xffff
 * </pre>
 * The root is {@code $SYSFS_PATH} when set (trailing slashes removed), else {@code /sys}, as
 * libibverbs does, so tests and users can point it at a recorded tree.
 * <p>
 * An all-zero GID or P_Key is an empty slot and is left out; so are its gid_attrs (the kernel fails
 * reads of those). {@code IB/RoCE v1} means IB on an InfiniBand port and RoCE v1 on an Ethernet one.
 * A missing or unreadable {@code ndevs/<i>} means "no netdev" (the kernel fails that read for IB
 * GIDs). Every other missing, empty or malformed file is a {@link SysfsFormatException} naming the
 * file and the rule.
 */
public final class SysfsDevices
{
    public static final String SYSFS_PATH_VARIABLE = "SYSFS_PATH";
    public static final Path DEFAULT_ROOT = Path.of("/sys");
    /** Where the devices live under the sysfs root. */
    public static final String CLASS_DIRECTORY = "class/infiniband";

    private static final Pattern NUMBERED = Pattern.compile("(\\d+): (.+)");
    private static final Pattern HEX16 = Pattern.compile("0x([0-9a-fA-F]{1,4})");
    private static final Pattern DECIMAL = Pattern.compile("\\d{1,3}");
    private static final Pattern GUID = Pattern.compile("([0-9a-fA-F]{4}):([0-9a-fA-F]{4}):([0-9a-fA-F]{4}):([0-9a-fA-F]{4})");
    private static final Pattern LONG_GID = Pattern.compile("[0-9a-fA-F]{4}(:[0-9a-fA-F]{4}){7}");
    private static final String TYPE_IB_OR_ROCE_V1 = "IB/RoCE v1";
    private static final String TYPE_ROCE_V2 = "RoCE v2";

    private SysfsDevices()
    {
    }

    /** {@code $SYSFS_PATH} (trailing slashes removed) when set and not empty, else {@code /sys}. */
    public static Path root(final Map<String, String> environment)
    {
        String path = environment.get(SYSFS_PATH_VARIABLE);
        if (path == null || path.isEmpty())
        {
            return DEFAULT_ROOT;
        }
        while (path.length() > 1 && path.endsWith("/"))
        {
            path = path.substring(0, path.length() - 1);
        }
        return Path.of(path);
    }

    /** The devices under this process's sysfs root ({@code $SYSFS_PATH} or {@code /sys}). */
    public static RdmaDevices read()
    {
        return read(root(System.getenv()));
    }

    /**
     * The devices under {@code <root>/class/infiniband}, by name; none when that directory does not
     * exist (no RDMA driver loaded).
     *
     * @throws SysfsFormatException naming the file and the rule it breaks.
     */
    public static RdmaDevices read(final Path root)
    {
        final Path classDirectory = root.resolve(CLASS_DIRECTORY);
        final List<RdmaDevice> devices = new ArrayList<>();
        if (Files.isDirectory(classDirectory))
        {
            for (final Path device : list(classDirectory, Comparator.comparing(p -> p.getFileName().toString())))
            {
                devices.add(readDevice(device));
            }
        }
        return new RdmaDevices("sysfs " + root, devices);
    }

    /** The names of the devices under {@code <root>/class/infiniband}, sorted: one directory listing. */
    public static List<String> names(final Path root)
    {
        final Path classDirectory = root.resolve(CLASS_DIRECTORY);
        if (!Files.isDirectory(classDirectory))
        {
            return List.of();
        }
        return list(classDirectory, Comparator.comparing(p -> p.getFileName().toString())).stream()
            .map(p -> p.getFileName().toString()).toList();
    }

    /**
     * One device under {@code <root>/class/infiniband}, read as {@link #read(Path)} reads each.
     *
     * @throws SysfsFormatException naming the file and the rule it breaks.
     */
    public static RdmaDevice readDevice(final Path root, final String name)
    {
        return readDevice(root.resolve(CLASS_DIRECTORY).resolve(name));
    }

    /**
     * Names the netdevs of {@code device}'s GIDs as this reader does, from
     * {@code ports/<port>/gid_attrs/ndevs/<index>}: the kernel writes the netdev's name there whatever
     * network namespace it is in, where an ifindex would need that namespace. One file per entry that
     * has a netdev, not the table's 1024.
     */
    public static NetdevNaming netdevNaming(final Path root, final String device)
    {
        final Path ports = root.resolve(CLASS_DIRECTORY).resolve(device).resolve("ports");
        return (port, index, ifindex) -> netdev(ports.resolve(Integer.toString(port)).resolve("gid_attrs/ndevs")
            .resolve(Integer.toString(index)));
    }

    /**
     * The node GUID of device {@code name} under {@code root} ({@code node_guid}), without the port
     * tables {@link #readDevice(Path, String)} reads too.
     *
     * @throws SysfsFormatException when the file is missing or not 4 groups of 4 hex digits.
     */
    public static long nodeGuid(final Path root, final String name)
    {
        return nodeGuid(root.resolve(CLASS_DIRECTORY).resolve(name));
    }

    private static long nodeGuid(final Path device)
    {
        final Path guidFile = device.resolve("node_guid");
        final Matcher guid = GUID.matcher(required(guidFile));
        if (!guid.matches())
        {
            throw malformed(guidFile, "4 groups of 4 hex digits separated by ':', e.g. 0002:c903:00a1:b2c4");
        }
        long nodeGuid = 0;
        for (int group = 1; group <= 4; group++)
        {
            nodeGuid = (nodeGuid << 16) | Long.parseLong(guid.group(group), 16);
        }
        return nodeGuid;
    }

    private static RdmaDevice readDevice(final Path device)
    {
        final Path nodeTypeFile = device.resolve("node_type");
        final Matcher nodeType = NUMBERED.matcher(required(nodeTypeFile));
        if (!nodeType.matches())
        {
            throw malformed(nodeTypeFile, "'<number>: <name>', e.g. '1: CA'");
        }
        final long nodeGuid = nodeGuid(device);

        final Path portsDirectory = device.resolve("ports");
        if (!Files.isDirectory(portsDirectory))
        {
            throw new SysfsFormatException(portsDirectory, "missing; every device has a ports directory");
        }
        final List<RdmaPort> ports = new ArrayList<>();
        for (final Path port : list(portsDirectory, Comparator.comparing(SysfsDevices::numericName)))
        {
            ports.add(readPort(port));
        }
        return new RdmaDevice(device.getFileName().toString(), NodeType.ofValue(Integer.parseInt(nodeType.group(1))),
            nodeGuid, ports);
    }

    private static RdmaPort readPort(final Path port)
    {
        final int number = numericName(port);
        final Path stateFile = port.resolve("state");
        final PortState state = PortState.ofValue(numbered(stateFile, "'<number>: <name>' with a number 0-5, e.g. '4: ACTIVE'"));
        if (state == null)
        {
            throw malformed(stateFile, "'<number>: <name>' with a number 0-5, e.g. '4: ACTIVE'");
        }
        final Path physStateFile = port.resolve("phys_state");
        final PhysicalPortState physState = PhysicalPortState.ofValue(
            numbered(physStateFile, "'<number>: <name>' with a number 0-7, e.g. '5: LinkUp'"));
        if (physState == null)
        {
            throw malformed(physStateFile, "'<number>: <name>' with a number 0-7, e.g. '5: LinkUp'");
        }
        final Path linkLayerFile = port.resolve("link_layer");
        final LinkLayer linkLayer = LinkLayer.ofText(required(linkLayerFile));
        if (linkLayer == null)
        {
            throw malformed(linkLayerFile, "InfiniBand, Ethernet or Unknown");
        }
        final Path rateFile = port.resolve("rate");
        return new RdmaPort(
            number,
            state,
            physState,
            linkLayer,
            hex16(port.resolve("lid"), "LID"),
            decimal(port.resolve("lid_mask_count"), 7),
            hex16(port.resolve("sm_lid"), "LID"),
            decimal(port.resolve("sm_sl"), 15),
            required(rateFile),
            gids(port, linkLayer),
            pkeys(port));
    }

    private static List<GidEntry> gids(final Path port, final LinkLayer linkLayer)
    {
        final Path gidsDirectory = port.resolve("gids");
        final List<GidEntry> gids = new ArrayList<>();
        if (!Files.isDirectory(gidsDirectory))
        {
            throw new SysfsFormatException(gidsDirectory, "missing; every port has a gids directory");
        }
        for (final Path gidFile : list(gidsDirectory, Comparator.comparing(SysfsDevices::numericName)))
        {
            final String text = required(gidFile);
            if (!LONG_GID.matcher(text).matches())
            {
                throw malformed(gidFile, "8 groups of 4 hex digits separated by ':', e.g. fe80:0000:0000:0000:0002:c903:00a1:b2c5");
            }
            final Gid gid = Gid.parse(text);
            if (gid.isZero())
            {
                continue;
            }
            final int index = numericName(gidFile);
            final String name = gidFile.getFileName().toString();
            gids.add(new GidEntry(index, gid, gidType(port.resolve("gid_attrs/types").resolve(name), linkLayer),
                netdev(port.resolve("gid_attrs/ndevs").resolve(name))));
        }
        return gids;
    }

    private static GidType gidType(final Path typeFile, final LinkLayer linkLayer)
    {
        final Optional<String> text = optional(typeFile);
        final GidType ibOrRoceV1 = linkLayer == LinkLayer.ETHERNET ? GidType.ROCE_V1 : GidType.IB;
        if (text.isEmpty())
        {
            // kernels before 4.5 have no gid_attrs: every GID is IB or RoCE v1
            return ibOrRoceV1;
        }
        return switch (text.get())
        {
            case TYPE_IB_OR_ROCE_V1 -> ibOrRoceV1;
            case TYPE_ROCE_V2 -> GidType.ROCE_V2;
            default -> throw malformed(typeFile, "'" + TYPE_IB_OR_ROCE_V1 + "' or '" + TYPE_ROCE_V2 + "'");
        };
    }

    private static Optional<String> netdev(final Path ndevFile)
    {
        try
        {
            final String name = Files.readString(ndevFile, StandardCharsets.UTF_8).strip();
            return name.isEmpty() ? Optional.empty() : Optional.of(name);
        }
        catch (final IOException ex)
        {
            // missing, or the kernel's ENODEV/EINVAL for a GID without a netdev
            return Optional.empty();
        }
    }

    private static List<PkeyEntry> pkeys(final Path port)
    {
        final Path pkeysDirectory = port.resolve("pkeys");
        final List<PkeyEntry> pkeys = new ArrayList<>();
        if (!Files.isDirectory(pkeysDirectory))
        {
            return pkeys;
        }
        for (final Path pkeyFile : list(pkeysDirectory, Comparator.comparing(SysfsDevices::numericName)))
        {
            final int pkey = hex16(pkeyFile, "P_Key");
            if (pkey != 0)
            {
                pkeys.add(new PkeyEntry(numericName(pkeyFile), pkey));
            }
        }
        return pkeys;
    }

    private static int numbered(final Path file, final String rule)
    {
        final Matcher matcher = NUMBERED.matcher(required(file));
        if (!matcher.matches() || matcher.group(1).length() > 3)
        {
            throw malformed(file, rule);
        }
        return Integer.parseInt(matcher.group(1));
    }

    private static int hex16(final Path file, final String what)
    {
        final Matcher matcher = HEX16.matcher(required(file));
        if (!matcher.matches())
        {
            throw malformed(file, "a " + what + ": 0x followed by 1 to 4 hex digits, e.g. 0x5");
        }
        return Integer.parseInt(matcher.group(1), 16);
    }

    private static int decimal(final Path file, final int max)
    {
        final String text = required(file);
        if (!DECIMAL.matcher(text).matches() || Integer.parseInt(text) > max)
        {
            throw malformed(file, "a decimal number 0-" + max);
        }
        return Integer.parseInt(text);
    }

    /** The text of a file without its trailing newline; missing, empty or unreadable is an error. */
    private static String required(final Path file)
    {
        final String text = optional(file)
            .orElseThrow(() -> new SysfsFormatException(file, "missing; the kernel always writes this file"));
        if (text.isEmpty())
        {
            throw new SysfsFormatException(file, "empty; the kernel never writes an empty value here");
        }
        return text;
    }

    private static Optional<String> optional(final Path file)
    {
        try
        {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            if (text.endsWith("\n"))
            {
                text = text.substring(0, text.length() - 1);
            }
            return Optional.of(text);
        }
        catch (final NoSuchFileException ex)
        {
            return Optional.empty();
        }
        catch (final IOException ex)
        {
            throw new SysfsFormatException(file, "unreadable (" + ex.getMessage() + ")");
        }
    }

    private static int numericName(final Path entry)
    {
        final String name = entry.getFileName().toString();
        if (name.isEmpty() || name.length() > 5 || !name.chars().allMatch(Character::isDigit))
        {
            throw new SysfsFormatException(entry, "unexpected entry; this directory holds only numbered entries");
        }
        return Integer.parseInt(name);
    }

    private static SysfsFormatException malformed(final Path file, final String rule)
    {
        final String text = optional(file).orElse("");
        return new SysfsFormatException(file, "'" + text + "' breaks the format; expected " + rule);
    }

    private static List<Path> list(final Path directory, final Comparator<Path> order)
    {
        try (Stream<Path> entries = Files.list(directory))
        {
            return entries.sorted(order).toList();
        }
        catch (final IOException ex)
        {
            throw new SysfsFormatException(directory, "cannot be listed (" + ex.getMessage() + ")");
        }
    }
}
