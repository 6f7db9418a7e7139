package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.resolver.RoutePath;
import dev.rdmacm.sa.path.PathRecordValue;

/**
 * One path as librdmacm hands it to an application in {@code id->route.path_rec} (a
 * {@code struct ibv_sa_path_rec} that {@code ucma_convert_path} fills from the kernel's
 * {@code ibv_path_data}, see {@link RoutePath}), under the C field names (but {@code tclass} for {@code traffic_class}, its name in the route records and in
 * {@code ip}, and true/false for one-bit fields, docs/json.md): what the kernel-CM comparison
 * checks field by field, so a user can hold the CLI's output against a librdmacm program's. LIDs and the
 * P_Key are in host order here (librdmacm keeps them big-endian in the struct).
 */
final class PathRecJson
{
    private PathRecJson()
    {
    }

    static JsonObject of(final RoutePath path)
    {
        final PathRecordValue p = path.record();
        return new JsonObject()
            .put("dgid", p.dgid().toString())
            .put("sgid", p.sgid().toString())
            .put("dlid", p.dlid().value())
            .put("slid", p.slid().value())
            .put("raw_traffic", false)
            .put("flow_label", path.librdmacmFlowLabel())
            .put("hop_limit", p.hopLimit())
            .put("tclass", p.tClass())
            .put("reversible", p.reversible())
            .put("numb_path", 1)
            .put("pkey", String.format("0x%04x", p.pKey().value()))
            .put("sl", p.sl())
            .put("mtu_selector", RoutePath.LIBRDMACM_SELECTOR)
            .put("mtu", p.mtu() & RoutePath.LIBRDMACM_CODE_MASK)
            .put("rate_selector", RoutePath.LIBRDMACM_SELECTOR)
            .put("rate", p.rate() & RoutePath.LIBRDMACM_CODE_MASK)
            .put("packet_life_time_selector", RoutePath.LIBRDMACM_SELECTOR)
            .put("packet_life_time", p.packetLifeTime() & RoutePath.LIBRDMACM_CODE_MASK)
            .put("preference", path.librdmacmPreference());
    }
}
