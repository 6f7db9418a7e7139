package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rdmacm.verbs.IbvDevinfo;
import dev.rdmacm.verbs.PeerTools;
import dev.rdmacm.verbs.SysfsPort;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rdmacm devices} on real rxe devices ({@link DevicesGuest}, in the conformance module's kernel guest), field by field against the real
 * {@code ibv_devinfo -v} and the kernel's sysfs files, read raw at the same moment.
 */
public class DevicesCommandInGuest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The kernel updates GID tables and port MTUs from netdev events on a workqueue: give it time. */
    private static final Duration SETTLE = Duration.ofSeconds(20);

    @Test
    void shouldListTheDevicesIbvDevinfoLists() throws IOException
    {
        final JsonNode devices = devicesJson("--json");

        assertEquals("libibverbs", devices.get("source").asText());
        assertEquals(IbvDevinfo.run().devices().stream().map(IbvDevinfo.Device::name).sorted().toList(),
            names(devices).stream().sorted().toList());
    }

    @Test
    void shouldShowEachDeviceAndPortAsIbvDevinfoDoes() throws IOException
    {
        final JsonNode devices = devicesJson("--json");
        final IbvDevinfo devinfo = IbvDevinfo.run();

        for (final JsonNode device : devices.get("devices"))
        {
            final IbvDevinfo.Device expected = devinfo.device(device.get("name").asText());
            assertEquals(expected.field("node_guid"), device.get("node_guid").asText(), device.get("name").asText());
            assertEquals(expected.ports().size(), device.get("ports").size());
            for (final JsonNode port : device.get("ports"))
            {
                final IbvDevinfo.Port ibv = expected.ports().get(port.get("port").asInt() - 1);
                final String where = device.get("name").asText() + "/" + port.get("port").asInt();
                assertEquals(ibv.field("state"), "PORT_" + port.get("state").asText() + " (" + IbvDevinfo.number(ibv.field("state")) + ")",
                    where);
                assertEquals(ibv.field("link_layer"), port.get("link_layer").asText(), where);
                assertEquals(IbvDevinfo.number(ibv.field("port_lid")), port.get("lid").asLong(), where);
                assertEquals(IbvDevinfo.number(ibv.field("port_lmc")), port.get("lmc").asLong(), where);
                assertEquals(IbvDevinfo.number(ibv.field("sm_lid")), port.get("sm_lid").asLong(), where);
                assertEquals(IbvDevinfo.number(ibv.field("sm_sl")), port.get("sm_sl").asLong(), where);
                assertEquals(ibv.field("max_mtu").split(" ")[0], port.get("max_mtu").asText(), where);
                assertEquals(ibv.field("active_mtu").split(" ")[0], port.get("active_mtu").asText(), where);
            }
        }
    }

    @Test
    void shouldShowEachPortsStatesAndRateAsSysfsDoes() throws IOException
    {
        for (final JsonNode device : devicesJson("--json").get("devices"))
        {
            for (final JsonNode port : device.get("ports"))
            {
                final SysfsPort sysfs = new SysfsPort(device.get("name").asText(), port.get("port").asInt());
                assertEquals(sysfs.file("state"), stateCode(sysfs.file("state")) + ": " + port.get("state").asText());
                assertEquals(sysfs.file("phys_state"), stateCode(sysfs.file("phys_state")) + ": " + port.get("phys_state").asText());
                assertEquals(sysfs.file("rate"), port.get("rate").asText());
                assertEquals(sysfs.deviceFile("node_type"), "1: " + device.get("node_type").asText());
            }
        }
    }

    @Test
    void shouldListEveryGidWithItsTypeAndNetdevAsSysfsDoesIncludingTheVlan() throws IOException
    {
        final JsonNode devices = devicesJson("--json");

        for (final JsonNode device : devices.get("devices"))
        {
            for (final JsonNode port : device.get("ports"))
            {
                final SysfsPort sysfs = new SysfsPort(device.get("name").asText(), port.get("port").asInt());
                assertEquals(sysfsGids(sysfs.freshGids()), ourGids(port), device.get("name").asText());
            }
        }
        assertTrue(ourGids(port(devices, DevicesGuest.VLAN_DEVICE)).stream().anyMatch(g -> g.endsWith(" " + DevicesGuest.VLAN)),
            "no GID of " + DevicesGuest.VLAN + " on " + DevicesGuest.VLAN_DEVICE);
    }

    @Test
    void shouldListTheGidsIbvDevinfoLists() throws IOException
    {
        final JsonNode devices = devicesJson("--json");
        final IbvDevinfo devinfo = IbvDevinfo.run();

        for (final JsonNode device : devices.get("devices"))
        {
            final IbvDevinfo.Port ibv = devinfo.device(device.get("name").asText()).ports().get(0);
            final List<String> expected = ibv.gids().stream().map(g -> g.index() + " " + g.gid() + " " + g.type()).toList();
            final List<String> ours = new ArrayList<>();
            for (final JsonNode gid : device.get("ports").get(0).get("gids"))
            {
                ours.add(gid.get("index").asInt() + " " + gid.get("gid").asText() + " " + gid.get("type").asText());
            }
            assertEquals(expected, ours, device.get("name").asText());
        }
    }

    @Test
    void shouldPrintEachGidLineOfTheTextFormAsIbvDevinfoAndSysfsShowIt()
    {
        final String text = devicesText();
        final IbvDevinfo devinfo = IbvDevinfo.run();

        for (final IbvDevinfo.Device device : devinfo.devices())
        {
            final List<SysfsPort.Gid> netdevs = new SysfsPort(device.name(), 1).freshGids();
            for (final IbvDevinfo.GidLine gid : device.ports().get(0).gids())
            {
                final String netdev = netdevs.stream().filter(g -> g.index() == gid.index()).findFirst().orElseThrow().ndev();
                final String line = "\n    GID " + gid.index() + ": " + gid.gid() + " " + gid.type() + " " + netdev + "\n";
                assertTrue(text.contains(line), "no line '" + line.strip() + "' in:\n" + text);
            }
        }
    }

    @Test
    void shouldShowAnIpv6AddressAddedAfterTheDeviceWasCreated() throws IOException
    {
        final SysfsPort sysfs = new SysfsPort(DevicesGuest.CHANGING_DEVICE, 1);
        final String added = hex(DevicesGuest.ADDED_ADDRESS);
        PeerTools.output("ip", "address", "add", DevicesGuest.ADDED_ADDRESS + "/64", "dev", DevicesGuest.CHANGING_NETDEV, "nodad");

        awaitKernel(() -> sysfs.freshGids().stream().anyMatch(g -> hex(g.gid()).equals(added)),
            "a GID for " + DevicesGuest.ADDED_ADDRESS + " in sysfs");

        final List<String> ours = ourGids(port(devicesJson("--json"), DevicesGuest.CHANGING_DEVICE));
        assertEquals(sysfsGids(sysfs.freshGids()), ours);
        assertTrue(ours.stream().anyMatch(g -> g.contains(" " + added + " RoCE v2 " + DevicesGuest.CHANGING_NETDEV)), ours.toString());
    }

    @Test
    void shouldFollowAnMtuChangeOfTheNetdev() throws IOException
    {
        PeerTools.output("ip", "link", "set", "dev", DevicesGuest.CHANGING_NETDEV, "mtu", "9000");
        awaitKernel(() -> activeMtu(IbvDevinfo.run()).equals("4096"), "active_mtu 4096 after MTU 9000");

        final JsonNode port = port(devicesJson("--json"), DevicesGuest.CHANGING_DEVICE);
        final String text = devicesText();

        assertEquals(activeMtu(IbvDevinfo.run()), port.get("active_mtu").asText());
        assertTrue(text.contains("\n    MTU " + port.get("max_mtu").asText() + " max, 4096 active\n"), text);
    }

    @Test
    void shouldDescribeTheSameTablesThroughSysfsAndLibibverbs() throws IOException
    {
        final JsonNode verbs = devicesJson("--json", "--source", "libibverbs");
        final JsonNode sysfs = devicesJson("--json", "--source", "sysfs");

        for (final JsonNode device : verbs.get("devices"))
        {
            for (final JsonNode port : device.get("ports"))
            {
                ((ObjectNode)port).remove(List.of("max_mtu", "active_mtu"));
            }
        }
        // by name: libibverbs lists in the kernel's index order, sysfs by name, and the two agree only while KernelCmGuest's
        // rxe6 (made before rxe30) is gone, which it is after DeviceRemovalAgainstKernelCmInGuest, not in a run without it
        assertEquals(byName(sysfs.get("devices")), byName(verbs.get("devices")));
    }

    private static List<JsonNode> byName(final JsonNode devices)
    {
        return StreamSupport.stream(devices.spliterator(), false).sorted(Comparator.comparing(d -> d.get("name").asText())).toList();
    }

    private static String activeMtu(final IbvDevinfo devinfo)
    {
        return devinfo.device(DevicesGuest.CHANGING_DEVICE).ports().get(0).field("active_mtu").split(" ")[0];
    }

    private static List<String> sysfsGids(final List<SysfsPort.Gid> gids)
    {
        return gids.stream().map(g -> g.index() + " " + hex(g.gid()) + " " + g.type() + " " + g.ndev()).toList();
    }

    private static List<String> ourGids(final JsonNode port)
    {
        return StreamSupport.stream(port.get("gids").spliterator(), false)
            .map(g -> g.get("index").asInt() + " " + hex(g.get("gid").asText()) + " " + g.get("type").asText() + " "
                + g.get("netdev").asText())
            .toList();
    }

    /** A GID as 32 hex digits: sysfs prints all eight groups, we print RFC 5952 text (as ibv_devinfo does). */
    private static String hex(final String gid)
    {
        if (gid.length() == 39 && gid.chars().filter(c -> c == ':').count() == 7)
        {
            return gid.replace(":", "");
        }
        try
        {
            final byte[] bytes = InetAddress.getByName(gid).getAddress();
            return (bytes.length == 4 ? "00000000000000000000ffff" : "") + HexFormat.of().formatHex(bytes);
        }
        catch (final IOException ex)
        {
            throw new AssertionError("GID " + gid + " is not an address", ex);
        }
    }

    private static String stateCode(final String sysfsState)
    {
        return sysfsState.substring(0, sysfsState.indexOf(':'));
    }

    private static JsonNode port(final JsonNode devices, final String device)
    {
        for (final JsonNode candidate : devices.get("devices"))
        {
            if (candidate.get("name").asText().equals(device))
            {
                return candidate.get("ports").get(0);
            }
        }
        throw new AssertionError("rdmacm devices lists no " + device + ": " + devices);
    }

    private static List<String> names(final JsonNode devices)
    {
        return StreamSupport.stream(devices.get("devices").spliterator(), false).map(d -> d.get("name").asText()).toList();
    }

    private static JsonNode devicesJson(final String... args) throws IOException
    {
        return JSON.readTree(devices(args));
    }

    private static String devicesText()
    {
        return devices();
    }

    /** {@code rdmacm devices ARGS} through the command's own entry point, as {@code ./rdmacm} runs it. */
    private static String devices(final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CommandLine main = Main.commandLine();
        main.setOut(new PrintWriter(out, true));
        main.setErr(new PrintWriter(err, true));
        final List<String> all = new ArrayList<>(List.of("devices"));
        all.addAll(List.of(args));
        final int exit = main.execute(all.toArray(String[]::new));
        assertEquals(0, exit, "rdmacm " + all + " failed: " + err);
        return out.toString();
    }

    /** Polls the kernel's own view until {@code settled}; the deadline bounds a kernel that never gets there. */
    private static void awaitKernel(final BooleanSupplier settled, final String what)
    {
        final long deadline = System.nanoTime() + SETTLE.toNanos();
        while (!settled.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                throw new AssertionError("the kernel never showed " + what + " within " + SETTLE.toSeconds() + " s");
            }
            try
            {
                Thread.sleep(100);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, ex);
            }
        }
    }
}
