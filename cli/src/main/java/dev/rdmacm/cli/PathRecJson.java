package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rdmacm.resolver.PathRec;

/**
 * One {@link PathRec}, librdmacm's {@code struct ibv_sa_path_rec} as an application reads it, under
 * the C field names: what the kernel-CM comparison checks field by field, so a user can hold the CLI's
 * output against a librdmacm program's.
 */
final class PathRecJson
{
    private PathRecJson()
    {
    }

    static ObjectNode of(final ObjectMapper mapper, final PathRec p)
    {
        return mapper.createObjectNode()
            .put("dgid", p.dgid().toString())
            .put("sgid", p.sgid().toString())
            .put("dlid", p.dlid())
            .put("slid", p.slid())
            .put("raw_traffic", p.rawTraffic())
            .put("flow_label", p.flowLabel())
            .put("hop_limit", p.hopLimit())
            .put("traffic_class", p.trafficClass())
            .put("reversible", p.reversible())
            .put("numb_path", p.numbPath())
            .put("pkey", String.format("0x%04x", p.pkey()))
            .put("sl", p.sl())
            .put("mtu_selector", p.mtuSelector())
            .put("mtu", p.mtu())
            .put("rate_selector", p.rateSelector())
            .put("rate", p.rate())
            .put("packet_life_time_selector", p.packetLifeTimeSelector())
            .put("packet_life_time", p.packetLifeTime())
            .put("preference", p.preference());
    }
}
