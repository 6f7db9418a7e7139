package dev.rdmacm.sa.path;

import java.util.LinkedHashMap;
import java.util.Map;

/** A PathRecordValue printed field by field exactly as saquery's dump_path_record prints it (resv2 aside). */
public final class SaqueryPathFields
{
    private SaqueryPathFields()
    {
    }

    public static Map<String, String> of(final PathRecordValue path)
    {
        final Map<String, String> fields = new LinkedHashMap<>();
        fields.put("service_id", String.format("0x%016x", path.serviceId()));
        fields.put("dgid", path.dgid().toString());
        fields.put("sgid", path.sgid().toString());
        fields.put("dlid", Integer.toString(path.dlid().value()));
        fields.put("slid", Integer.toString(path.slid().value()));
        final long hopFlowRaw = ((path.rawTraffic() ? 1L : 0L) << 31) | ((long)path.flowLabel() << 8) | path.hopLimit();
        fields.put("hop_flow_raw", String.format("0x%X", hopFlowRaw));
        fields.put("tclass", String.format("0x%X", path.tClass()));
        fields.put("num_path_revers", String.format("0x%X", (path.reversible() ? 0x80 : 0) | path.numbPath()));
        fields.put("pkey", String.format("0x%X", path.pKey().value()));
        fields.put("qos_class", String.format("0x%X", path.qosClass()));
        fields.put("sl", String.format("0x%X", path.sl()));
        fields.put("mtu", String.format("0x%X", (path.mtuSelector() << 6) | path.mtu()));
        fields.put("rate", String.format("0x%X", (path.rateSelector() << 6) | path.rate()));
        fields.put("pkt_life", String.format("0x%X", (path.packetLifeTimeSelector() << 6) | path.packetLifeTime()));
        fields.put("preference", String.format("0x%X", path.preference()));
        return fields;
    }

    /** saquery's fields without resv2, which PathRecordValue does not keep (it is reserved). */
    public static Map<String, String> withoutReserved(final Map<String, String> saquery)
    {
        final Map<String, String> fields = new LinkedHashMap<>(saquery);
        fields.remove("resv2");
        return fields;
    }
}
