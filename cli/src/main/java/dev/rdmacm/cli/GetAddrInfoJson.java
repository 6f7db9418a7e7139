package dev.rdmacm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.addrinfo.OpaqueSockaddr;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.protocol.ServiceId;

import java.util.HexFormat;

/**
 * The {@code --json} form of a getaddrinfo result: {@code {"entries": [...]}} with the C struct's field
 * names and librdmacm's numeric values, or the error of {@link JsonOutput} with {@code "call": "rdma_getaddrinfo"}.
 * IP addresses are strings as the text output prints them, AF_IB addresses objects.
 */
final class GetAddrInfoJson
{
    private static final ObjectMapper MAPPER = JsonOutput.MAPPER;

    private static final String CALL = "rdma_getaddrinfo";

    private GetAddrInfoJson()
    {
    }

    static String toJson(final AddrInfoResult result)
    {
        return JsonOutput.write(tree(result));
    }

    /** The result as a tree: {@code {"entries": [...]}} or the error. */
    static ObjectNode tree(final AddrInfoResult result)
    {
        return switch (result)
        {
            case AddrInfoResult.Success success ->
            {
                final ObjectNode object = MAPPER.createObjectNode();
                final ArrayNode entries = object.putArray("entries");
                success.entries().forEach(entry -> entries.add(entry(entry)));
                yield object;
            }
            case AddrInfoResult.EaiError eai -> JsonOutput.error(eai.name(), eai.code(), eai.message()).put("call", CALL);
            case AddrInfoResult.ErrnoError errno ->
                JsonOutput.error(errno.name(), errno.errno(), errno.message()).put("call", CALL);
        };
    }

    private static ObjectNode entry(final RdmaAddrInfo entry)
    {
        final ObjectNode node = MAPPER.createObjectNode();
        node.put("ai_flags", entry.flags());
        node.put("ai_family", entry.family());
        node.put("ai_qp_type", entry.qpType());
        node.put("ai_port_space", entry.portSpace());
        node.set("ai_src_addr", address(entry.srcAddr()));
        node.set("ai_dst_addr", address(entry.dstAddr()));
        node.put("ai_src_canonname", entry.srcCanonName());
        node.put("ai_dst_canonname", entry.dstCanonName());
        final ArrayNode route = node.putArray("ai_route");
        for (final byte[] pathData : entry.pathData())
        {
            route.add(PathDataJson.of(MAPPER, pathData));
        }
        node.put("ai_connect", entry.connect().length == 0 ? null : HexFormat.of().formatHex(entry.connect()));
        return node;
    }

    private static JsonNode address(final RdmaSockaddr address)
    {
        return switch (address)
        {
            case null -> MAPPER.nullNode();
            case IbSockaddr ib -> MAPPER.createObjectNode()
                .put("gid", ib.gid().toString())
                .put("pkey", ib.pkey().toString())
                .put("sid", ServiceId.format(ib.serviceId()))
                .put("sid_mask", String.format("0x%016x", ib.serviceIdMask()))
                .put("flowinfo", ib.flowInfo())
                .put("scope_id", Long.toUnsignedString(ib.scopeId()));
            case OpaqueSockaddr opaque -> MAPPER.createObjectNode()
                .put("family", opaque.family())
                .put("bytes", HexFormat.of().formatHex(opaque.bytes()));
            default -> MAPPER.getNodeFactory().textNode(address.toText());
        };
    }
}
