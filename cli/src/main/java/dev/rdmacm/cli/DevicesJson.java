package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.cm.ConnectionManager;
import dev.rdmacm.verbs.GidEntry;
import dev.rdmacm.verbs.PkeyEntry;
import dev.rdmacm.verbs.RdmaDevice;
import dev.rdmacm.verbs.RdmaDevices;
import dev.rdmacm.verbs.RdmaPort;

import java.util.Optional;

/**
 * The {@code --json} form of {@code rdmacm devices}:
 * {@code {"source": ..., ["libibverbs": why it was not used,] "devices": [{"name", "node_type",
 * "node_guid", "ports": [{"port", "state", "phys_state", "link_layer", "lid", "lmc", "sm_lid",
 * "sm_sl", "rate", ["max_mtu", "active_mtu",] "gids": [{"index", "gid", "type", "netdev"}],
 * "pkeys": [{"index", "pkey"}]}]}], "connection_manager"}}. LIDs and MTUs (bytes; only through libibverbs) are numbers,
 * GUIDs, GIDs and P_Keys strings as sysfs prints them.
 */
final class DevicesJson
{
    private DevicesJson()
    {
    }

    static JsonObject toJson(final RdmaDevices devices, final PortMtus mtus, final Optional<String> libibverbsNote)
    {
        final JsonObject root = new JsonObject().put("source", devices.source());
        if (libibverbsNote.isPresent())
        {
            root.put("libibverbs", libibverbsNote.get());
        }
        final JsonArray list = root.putArray("devices");
        for (final RdmaDevice device : devices.devices())
        {
            final JsonObject node = list.addObject()
                .put("name", device.name())
                .put("node_type", device.nodeType().text())
                .put("node_guid", RdmaDevice.guidText(device.nodeGuid()));
            final JsonArray ports = node.putArray("ports");
            for (final RdmaPort port : device.ports())
            {
                port(ports.addObject(), port, mtus.of(device.name(), port.number()));
            }
        }
        // what RdmaCm's AUTO takes on this host: the kernel's CM where ib_cm holds the CM class
        return root.put("connection_manager", ConnectionManager.autoOnThisHost().text());
    }

    private static void port(final JsonObject node, final RdmaPort port, final Optional<PortMtus.Mtu> mtu)
    {
        node.put("port", port.number())
            .put("state", port.state().text())
            .put("phys_state", port.physState().text())
            .put("link_layer", port.linkLayer().text())
            .put("lid", port.lid())
            .put("lmc", port.lmc())
            .put("sm_lid", port.smLid())
            .put("sm_sl", port.smSl())
            .put("rate", port.rate());
        if (mtu.isPresent())
        {
            node.put("max_mtu", mtu.get().maxBytes()).put("active_mtu", mtu.get().activeBytes());
        }
        final JsonArray gids = node.putArray("gids");
        for (final GidEntry gid : port.gids())
        {
            gids.addObject()
                .put("index", gid.index())
                .put("gid", gid.gid().toString())
                .put("type", gid.type().text())
                .put("netdev", gid.netdev().orElse(null));
        }
        final JsonArray pkeys = node.putArray("pkeys");
        for (final PkeyEntry pkey : port.pkeys())
        {
            pkeys.addObject().put("index", pkey.index()).put("pkey", pkey.text());
        }
    }
}
