package dev.rdmacm.cli;

import dev.rdmacm.libc.Errno;
import dev.rdmacm.verbs.DeviceInfo;
import dev.rdmacm.verbs.DeviceListing;
import dev.rdmacm.verbs.HeldDeviceList;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.sysfs.SysfsDevices;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.Callable;

import static dev.rdmacm.cli.StartModels.option;

/**
 * {@code rdmacm devices [--json]}: the RDMA devices, their ports (state, LIDs, link layer, rate,
 * and through libibverbs the MTUs), GID tables (type and netdev) and P_Key tables, read through
 * libibverbs when it lists devices and from sysfs ({@code $SYSFS_PATH} or {@code /sys}) otherwise.
 */
public final class DevicesCommand implements Callable<Integer>
{
    /** Where the devices are read from. */
    enum Source
    {
        /** libibverbs when it lists devices, else sysfs. */
        AUTO,
        LIBIBVERBS,
        SYSFS
    }

    private final JsonOption json = new JsonOption();

    private String sourceName;

    private String deviceName;

    private Integer portNumber;

    private CommandSpec spec;

    private final Map<String, String> environment;

    public DevicesCommand()
    {
        this(System.getenv());
    }

    /** With the environment whose {@code SYSFS_PATH} names the sysfs root. */
    DevicesCommand(final Map<String, String> environment)
    {
        this.environment = environment;
    }

    /** This command as picocli's model, built by hand ({@link StartModels}): no annotation is read at start. */
    CommandSpec model()
    {
        spec = CommandSpec.wrapWithoutInspection(this).name("devices")
            .addMixin("json", json.model())
            .addOption(option(String.class, OptionValue.of(() -> sourceName, value -> sourceName = value), "--source")
                .paramLabel("auto|libibverbs|sysfs").defaultValue("auto")
                .description("Where to read the devices: libibverbs, sysfs, or auto: libibverbs when it lists devices, "
                    + "else sysfs (default: ${DEFAULT-VALUE}).").build())
            .addOption(option(String.class, OptionValue.of(() -> deviceName, value -> deviceName = value), "-d", "--ib-dev")
                .paramLabel("DEV").description("only this device, as ibv_devinfo -d (default all devices)").build())
            .addOption(option(Integer.class, OptionValue.of(() -> portNumber, value -> portNumber = value), "-i", "--ib-port")
                .paramLabel("PORT").description("only this port of each device listed, as ibv_devinfo -i (default all ports)").build());
        spec.usageMessage().description(
            "Lists RDMA devices, ports, state, LIDs, link layer, MTUs, GIDs with type and netdev, and P_Keys.",
            "Reads libibverbs when it has devices, sysfs otherwise ($SYSFS_PATH when set, else /sys).",
            "Exit 0 listed, 1 no device (as ibv_devinfo, which exits 255) or no such device or port, 2 usage.");
        return StartModels.withStandardHelp(spec);
    }

    @Override
    public Integer call()
    {
        final Source source = source();
        if (portNumber != null && portNumber < 1)
        {
            throw new CommandLine.ParameterException(spec.commandLine(), "-i " + portNumber + ": a port number, 1 or more");
        }
        final CommandOutput output = CommandOutput.of(spec, json.json);
        warnOfAnEmptySysfsPath();
        final Optional<String> libibverbsNote;
        final RdmaDevices devices;
        final PortMtus mtus = new PortMtus();
        if (source == Source.SYSFS)
        {
            libibverbsNote = Optional.empty();
            devices = SysfsDevices.read(SysfsDevices.root(environment));
        }
        else
        {
            final DeviceListing listing = Verbs.listDevices();
            if (!listing.isEmpty())
            {
                libibverbsNote = Optional.empty();
                devices = describe(listing, SysfsDevices.root(environment), mtus);
            }
            else if (source == Source.LIBIBVERBS)
            {
                return output.error(JsonOutput.errno(Errno.ENODEV, listing.whyNone().orElse("libibverbs lists no devices")));
            }
            else
            {
                libibverbsNote = listing.whyNone();
                devices = SysfsDevices.read(SysfsDevices.root(environment));
            }
        }
        if (devices.devices().isEmpty())
        {
            // ibv_devinfo's "No IB devices found", exit 255 (rdma dev: 1): with where it looked
            final Path classDirectory = SysfsDevices.root(environment).resolve(SysfsDevices.CLASS_DIRECTORY);
            return output.error(JsonOutput.errno(Errno.ENODEV, libibverbsNote.map(note -> "none under sysfs " + classDirectory + "; " + note)
                .orElse("no RDMA devices under sysfs " + classDirectory)));
        }
        final RdmaDevices selected;
        try
        {
            selected = select(devices);
        }
        catch (final NoSuchElementException ex)
        {
            return output.error(JsonOutput.errno(Errno.ENODEV, ex.getMessage()));
        }
        return output.result(DevicesJson.toJson(selected, mtus, libibverbsNote),
            out -> DevicesText.write(selected, mtus, libibverbsNote, out));
    }

    /**
     * {@code -d} and {@code -i} as ibv_devinfo takes them: the one device named, and of each device listed
     * the one port; a device or port that is not there fails, naming what there is.
     */
    private RdmaDevices select(final RdmaDevices devices)
    {
        List<RdmaDevice> listed = devices.devices();
        if (deviceName != null)
        {
            listed = listed.stream().filter(device -> device.name().equals(deviceName)).toList();
            if (listed.isEmpty())
            {
                throw new NoSuchElementException("-d " + deviceName + ": no such RDMA device; there are "
                    + String.join(", ", devices.devices().stream().map(RdmaDevice::name).toList()));
            }
        }
        if (portNumber == null)
        {
            return new RdmaDevices(devices.source(), listed);
        }
        final List<RdmaDevice> withPort = new ArrayList<>();
        for (final RdmaDevice device : listed)
        {
            final List<RdmaPort> ports = device.ports().stream().filter(port -> port.number() == portNumber).toList();
            if (ports.isEmpty())
            {
                throw new NoSuchElementException("-i " + portNumber + ": " + device.name() + " has ports "
                    + String.join(", ", device.ports().stream().map(port -> String.valueOf(port.number())).toList()));
            }
            withPort.add(new RdmaDevice(device.name(), device.nodeType(), device.nodeGuid(), ports));
        }
        return new RdmaDevices(devices.source(), withPort);
    }

    /** A {@code SYSFS_PATH} that names no directory reads as a tree without devices: said once on stderr, not hidden. */
    private void warnOfAnEmptySysfsPath()
    {
        final String sysfsPath = environment.get(SysfsDevices.SYSFS_PATH_VARIABLE);
        if (sysfsPath != null && !sysfsPath.isEmpty() && !Files.isDirectory(SysfsDevices.root(environment)))
        {
            spec.commandLine().getErr().println(CommandOutput.name(spec) + ": warning: SYSFS_PATH=" + sysfsPath
                + " is not a directory: no device can be read there");
            spec.commandLine().getErr().flush();
        }
    }

    /** The devices libibverbs lists, their GIDs' netdevs named by sysfs as the resolver's directory names them. */
    private static RdmaDevices describe(final DeviceListing listing, final Path sysfsRoot, final PortMtus mtus)
    {
        final List<RdmaDevice> devices = new ArrayList<>();
        // one listing to open them from: each Verbs.open would list every device again
        try (HeldDeviceList listed = HeldDeviceList.now())
        {
            for (final DeviceInfo info : listing.devices())
            {
                try (VerbsContext context = listed.openOrListAgain(info.name()))
                {
                    final RdmaDevice device = context.describe(SysfsDevices.netdevNaming(sysfsRoot, info.name()));
                    for (final RdmaPort port : device.ports())
                    {
                        mtus.put(device.name(), port.number(), PortMtus.Mtu.of(context.queryPort(port.number())));
                    }
                    devices.add(device);
                }
            }
        }
        return new RdmaDevices("libibverbs", devices);
    }

    private Source source()
    {
        for (final Source candidate : Source.values())
        {
            if (candidate.name().equalsIgnoreCase(sourceName))
            {
                return candidate;
            }
        }
        throw new CommandLine.ParameterException(spec.commandLine(),
            "--source '" + sourceName + "': expected auto, libibverbs or sysfs");
    }
}
