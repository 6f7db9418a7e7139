package dev.rdmacm.cli;

import dev.rdmacm.verbs.DeviceInfo;
import dev.rdmacm.verbs.DeviceListing;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;
import dev.rdmacm.verbs.Verbs;
import dev.rdmacm.verbs.VerbsContext;
import dev.rdmacm.verbs.sysfs.SysfsDevices;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code rdmacm devices [--json]}: the RDMA devices, their ports (state, LIDs, link layer, rate,
 * and through libibverbs the MTUs), GID tables (type and netdev) and P_Key tables, read through
 * libibverbs when it lists devices and from sysfs ({@code $SYSFS_PATH} or {@code /sys}) otherwise.
 */
@Command(
    name = "devices",
    mixinStandardHelpOptions = true,
    description = {
        "Lists RDMA devices, ports, state, LIDs, link layer, MTUs, GIDs with type and netdev, and P_Keys.",
        "Reads libibverbs when it has devices, sysfs otherwise ($SYSFS_PATH when set, else /sys)."
    })
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

    @CommandLine.Mixin
    private JsonOption json = new JsonOption();

    @Option(names = "--source", paramLabel = "auto|libibverbs|sysfs", defaultValue = "auto",
        description = "Where to read the devices: libibverbs, sysfs, or auto: libibverbs when it lists devices, "
            + "else sysfs (default: ${DEFAULT-VALUE}).")
    private String sourceName;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

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

    @Override
    public Integer call()
    {
        final Source source = source();
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
                throw new IllegalStateException(listing.whyNone().orElse("libibverbs lists no devices"));
            }
            else
            {
                libibverbsNote = listing.whyNone();
                devices = SysfsDevices.read(SysfsDevices.root(environment));
            }
        }
        return CommandOutput.of(spec, json.json).result(DevicesJson.toJson(devices, mtus, libibverbsNote),
            out -> DevicesText.write(devices, mtus, libibverbsNote, out));
    }

    /** The devices libibverbs lists, their GIDs' netdevs named by sysfs as the resolver's directory names them. */
    private static RdmaDevices describe(final DeviceListing listing, final Path sysfsRoot, final PortMtus mtus)
    {
        final List<RdmaDevice> devices = new ArrayList<>();
        for (final DeviceInfo info : listing.devices())
        {
            try (VerbsContext context = Verbs.open(info.name()))
            {
                final RdmaDevice device = context.describe(SysfsDevices.netdevNaming(sysfsRoot, info.name()));
                for (final RdmaPort port : device.ports())
                {
                    mtus.put(device.name(), port.number(), PortMtus.Mtu.of(context.queryPort(port.number())));
                }
                devices.add(device);
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
