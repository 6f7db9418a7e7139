package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * "pkeys": [{"index", "pkey"}]}]}]}}. LIDs and MTUs (bytes; only through libibverbs) are numbers,
 * GUIDs, GIDs and P_Keys strings as sysfs prints them.
 */
final class DevicesJson
{
    private static final ObjectMapper MAPPER = JsonOutput.MAPPER;

    private DevicesJson()
    {
    }

    static ObjectNode toJson(final RdmaDevices devices, final PortMtus mtus, final Optional<String> libibverbsNote)
    {
        final ObjectNode root = MAPPER.createObjectNode().put("source", devices.source());
        libibverbsNote.ifPresent(note -> root.put("libibverbs", note));
        final ArrayNode list = root.putArray("devices");
        for (final RdmaDevice device : devices.devices())
        {
            final ObjectNode node = list.addObject()
                .put("name", device.name())
                .put("node_type", device.nodeType().text())
                .put("node_guid", RdmaDevice.guidText(device.nodeGuid()));
            final ArrayNode ports = node.putArray("ports");
            device.ports().forEach(port -> port(ports.addObject(), port, mtus.of(device.name(), port.number())));
        }
        return root;
    }

    private static void port(final ObjectNode node, final RdmaPort port, final Optional<PortMtus.Mtu> mtu)
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
        mtu.ifPresent(m -> node.put("max_mtu", m.maxBytes()).put("active_mtu", m.activeBytes()));
        final ArrayNode gids = node.putArray("gids");
        for (final GidEntry gid : port.gids())
        {
            gids.addObject()
                .put("index", gid.index())
                .put("gid", gid.gid().toString())
                .put("type", gid.type().text())
                .put("netdev", gid.netdev().orElse(null));
        }
        final ArrayNode pkeys = node.putArray("pkeys");
        for (final PkeyEntry pkey : port.pkeys())
        {
            pkeys.addObject().put("index", pkey.index()).put("pkey", pkey.text());
        }
    }
}
