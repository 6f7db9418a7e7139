package dev.rdmacm.cli;

import dev.rdmacm.protocol.sa.MtuCode;
import dev.rdmacm.protocol.sa.PacketLifetime;
import dev.rdmacm.protocol.sa.RateCode;
import dev.rdmacm.protocol.sa.Selector;
import dev.rdmacm.sa.path.PathRecordValue;

import java.util.List;

/**
 * The text form of {@code rdmacm path}: one block per PathRecord, every field on its own line, codes
 * followed by what they mean ({@code mtu 4 (2048)}, {@code rate 3 (10 Gb/s)}).
 */
final class PathText
{
    private PathText()
    {
    }

    static String format(final List<PathRecordValue> paths)
    {
        final StringBuilder text = new StringBuilder();
        for (final PathRecordValue path : paths)
        {
            text.append("PathRecord:\n");
            line(text, "service_id", String.format("0x%016x", path.serviceId()));
            line(text, "dgid", path.dgid().toString());
            line(text, "sgid", path.sgid().toString());
            line(text, "dlid", Integer.toString(path.dlid().value()));
            line(text, "slid", Integer.toString(path.slid().value()));
            line(text, "raw_traffic", Boolean.toString(path.rawTraffic()));
            line(text, "flow_label", String.format("0x%05x", path.flowLabel()));
            line(text, "hop_limit", Integer.toString(path.hopLimit()));
            line(text, "tclass", Integer.toString(path.tClass()));
            line(text, "reversible", Boolean.toString(path.reversible()));
            line(text, "numb_path", Integer.toString(path.numbPath()));
            line(text, "pkey", path.pKey().toString());
            line(text, "qos_class", Integer.toString(path.qosClass()));
            line(text, "sl", Integer.toString(path.sl()));
            line(text, "mtu_selector", selector(path.mtuSelector()));
            line(text, "mtu", MtuCode.describe(path.mtu()));
            line(text, "rate_selector", selector(path.rateSelector()));
            line(text, "rate", RateCode.describe(path.rate()));
            line(text, "packet_life_time_selector", selector(path.packetLifeTimeSelector()));
            line(text, "packet_life_time", PacketLifetime.describe(path.packetLifeTime()));
            line(text, "preference", Integer.toString(path.preference()));
        }
        return text.toString();
    }

    private static String selector(final int code)
    {
        return code + " (" + Selector.fromCode(code).symbol() + ")";
    }

    private static void line(final StringBuilder text, final String name, final String value)
    {
        text.append(String.format("  %-26s %s%n", name, value));
    }
}
