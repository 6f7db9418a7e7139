package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.protocol.PKey;
import dev.rdmacm.protocol.ServiceId;
import dev.rdmacm.protocol.path.IbvPathData;
import dev.rdmacm.protocol.path.IbvPathRecord;
import dev.rdmacm.resolver.RoutePath;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One {@code ibv_path_data} as JSON: its flags and the path record's fields under the C struct's
 * names, with the wire record's codes ({@code mtu} 4 is 2048). Used by {@code ai_route} of getaddrinfo
 * and by the route of resolve-route.
 */
final class PathDataJson
{
    private PathDataJson()
    {
    }

    /** A route's path, from the {@code ibv_path_data} the kernel would return for it. */
    static JsonObject of(final RoutePath path)
    {
        return of(path.toPathData());
    }

    static JsonObject of(final byte[] bytes)
    {
        final IbvPathData data = new IbvPathData().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        final IbvPathRecord path = data.path();
        return new JsonObject()
            .put("flags", data.flags())
            .put("flags_names", JsonOutput.names(IbvPathData.flagNames(data.flags())))
            .put("service_id", ServiceId.format(path.serviceId()))
            .put("dgid", path.dgid().toString())
            .put("sgid", path.sgid().toString())
            .put("dlid", path.dlid())
            .put("slid", path.slid())
            // RawTraffic is reserved in ibv_path_record: only the SA wire record carries it
            .put("raw_traffic", false)
            .put("flow_label", path.flowLabel())
            .put("hop_limit", path.hopLimit())
            .put("tclass", path.tClass())
            .put("reversible", path.reversible())
            .put("numb_path", path.numbPath())
            .put("pkey", PKey.format(path.pKey()))
            .put("qos_class", path.qosClass())
            .put("sl", path.sl())
            .put("mtu_selector", path.mtuSelector())
            .put("mtu", path.mtu())
            .put("rate_selector", path.rateSelector())
            .put("rate", path.rate())
            .put("packet_life_time_selector", path.packetLifeTimeSelector())
            .put("packet_life_time", path.packetLifeTime())
            .put("preference", path.preference());
    }
}
