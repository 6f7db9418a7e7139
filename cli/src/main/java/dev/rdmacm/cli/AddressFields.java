package dev.rdmacm.cli;

import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.resolver.AddressResolution;
import dev.rdmacm.cm.RdmaCmId;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The fields of a resolved address under the names every command uses for them: {@code destination},
 * {@code dst_port}, {@code source}, {@code src_port} (the port the id is bound to, random unless
 * given, as {@code rdma_get_src_port}), {@code netdev}, {@code ifindex}, {@code gateway}, {@code network}, {@code src_hw},
 * {@code dst_hw}, {@code sgid}, {@code dgid}, {@code pkey}, {@code device}, {@code port},
 * {@code gid_index}, {@code gid_type}, {@code loopback}; the text form is one {@code name value} line
 * each. resolve-addr prints them, resolve-route prints them before its route.
 */
final class AddressFields
{
    private AddressFields()
    {
    }

    /**
     * The fields of {@code id}'s resolution in order, as text or numbers (null where there is none, e.g. no gateway),
     * addresses as {@link AddressText} writes them.
     *
     * @param interfaceName the names of scopes DST or --src gave; the resolution's own netdev names its ifindex.
     */
    static Map<String, Object> fields(final RdmaCmId id, final IntFunction<String> interfaceName)
    {
        final AddressResolution r = id.resolution();
        // a scope is the interface the resolution went out of, else one DST or --src named
        final IntFunction<String> names = index -> index == r.ifindex() ? r.netdev() : interfaceName.apply(index);
        final Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("destination", AddressText.of(r.destination(), names));
        fields.put("dst_port", id.destinationPort());
        fields.put("source", AddressText.of(r.source(), names));
        fields.put("src_port", id.sourcePort());
        fields.put("netdev", r.netdev());
        fields.put("ifindex", r.ifindex());
        fields.put("gateway", AddressText.of(r.gateway(), names));
        fields.put("network", r.networkType().name());
        fields.put("src_hw", r.sourceHardwareText());
        fields.put("dst_hw", r.destinationHardwareText());
        fields.put("sgid", r.sgid().toString());
        fields.put("dgid", r.dgid().toString());
        fields.put("pkey", r.pkey().toString());
        fields.put("device", r.binding().device());
        fields.put("port", r.binding().port());
        fields.put("gid_index", r.binding().gidIndex());
        fields.put("gid_type", r.binding().gidType().text());
        fields.put("loopback", r.loopback());
        return fields;
    }

    /** {@code {"event": EVENT, <the fields>}}. */
    static JsonObject json(final String event, final RdmaCmId id, final IntFunction<String> interfaceName)
    {
        final JsonObject tree = new JsonObject().put("event", event);
        for (final Map.Entry<String, Object> field : fields(id, interfaceName).entrySet())
        {
            tree.putValue(field.getKey(), field.getValue());
        }
        return tree;
    }

    /** One {@code name value} line a field, {@code -} for none. */
    static void text(final PrintWriter out, final RdmaCmId id, final IntFunction<String> interfaceName)
    {
        fields(id, interfaceName).forEach((key, value) -> out.printf("%-12s %s%n", key, value == null ? "-" : value));
    }
}
