package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.sa.SaQueryException;
import dev.rdmacm.sa.path.PathRecordValue;

import java.util.List;

/**
 * The {@code --json} form of {@code rdmacm path}: {@code {"paths": [...]}} with every PathRecord field
 * under its IBA name in snake case, numbers as numbers, one-bit fields true or false (docs/json.md),
 * GIDs, P_Keys and Service IDs as text, the keys and forms of {@link PathDataJson}; or
 * the error of {@link JsonOutput}, {@code {"error": ERRNO, "code": N, "message": TEXT}}, plus the SA's
 * own {@code "sa_error": NAME} and {@code "mad_status": N}.
 */
final class PathJson
{
    private PathJson()
    {
    }

    static JsonObject toJson(final List<PathRecordValue> paths)
    {
        final JsonObject root = new JsonObject();
        final JsonArray array = root.putArray("paths");
        for (final PathRecordValue path : paths)
        {
            array.add(path(path));
        }
        return root;
    }

    static JsonObject toJson(final SaQueryException failure)
    {
        final String errno = failure.error().errno();
        return JsonOutput.error(errno, JsonOutput.errnoNumber(errno), failure.getMessage())
            .put("sa_error", failure.error().name()).put("mad_status", failure.madStatus());
    }

    private static JsonObject path(final PathRecordValue path)
    {
        final JsonObject node = new JsonObject();
        node.put("service_id", ServiceId.format(path.serviceId()));
        node.put("dgid", path.dgid().toString());
        node.put("sgid", path.sgid().toString());
        node.put("dlid", path.dlid().value());
        node.put("slid", path.slid().value());
        node.put("raw_traffic", path.rawTraffic());
        node.put("flow_label", path.flowLabel());
        node.put("hop_limit", path.hopLimit());
        node.put("tclass", path.tClass());
        node.put("reversible", path.reversible());
        node.put("numb_path", path.numbPath());
        node.put("pkey", path.pKey().toString());
        node.put("qos_class", path.qosClass());
        node.put("sl", path.sl());
        node.put("mtu_selector", path.mtuSelector());
        node.put("mtu", path.mtu());
        node.put("rate_selector", path.rateSelector());
        node.put("rate", path.rate());
        node.put("packet_life_time_selector", path.packetLifeTimeSelector());
        node.put("packet_life_time", path.packetLifeTime());
        node.put("preference", path.preference());
        return node;
    }
}
