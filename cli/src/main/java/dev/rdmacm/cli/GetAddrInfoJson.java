package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.AddressFamily;
import dev.rdmacm.addrinfo.IbSockaddr;
import dev.rdmacm.addrinfo.Ipv6Sockaddr;
import dev.rdmacm.addrinfo.OpaqueSockaddr;
import dev.rdmacm.addrinfo.QpType;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.cli.json.JsonArray;
import dev.rdmacm.cli.json.JsonObject;
import dev.rdmacm.protocol.ServiceId;

import java.util.HexFormat;
import java.util.List;

/**
 * The {@code --json} form of a getaddrinfo result: {@code {"entries": [...]}} with the C struct's field
 * names and librdmacm's numeric values, each enum's name beside its number ({@code ai_family_name}), a
 * NULL {@code ai_route} as null; or the error of {@link JsonOutput} with {@code "call": "rdma_getaddrinfo"}.
 * IP addresses are {@code ADDR:PORT} strings ({@code [ADDR%IFNAME]:PORT} for IPv6, docs/json.md), AF_IB
 * addresses objects.
 */
final class GetAddrInfoJson
{
    private static final String CALL = "rdma_getaddrinfo";

    private GetAddrInfoJson()
    {
    }

    static String toJson(final AddrInfoResult result)
    {
        return JsonOutput.write(tree(result));
    }

    /** The result as a tree: {@code {"entries": [...]}} or the error. */
    static JsonObject tree(final AddrInfoResult result)
    {
        // an instanceof chain, not a pattern switch: that one bootstraps a class at run time, on every start
        if (result instanceof AddrInfoResult.Success success)
        {
            return new JsonObject().put("entries", entries(success.entries()));
        }
        if (result instanceof AddrInfoResult.EaiError eai)
        {
            return JsonOutput.error(eai.name(), eai.code(), eai.message()).put("call", CALL);
        }
        final AddrInfoResult.ErrnoError errno = (AddrInfoResult.ErrnoError)result;
        return JsonOutput.error(errno.name(), errno.errno(), errno.message()).put("call", CALL);
    }

    /** The {@code "entries"} array: one object per entry. */
    static JsonArray entries(final List<RdmaAddrInfo> entries)
    {
        final JsonArray array = new JsonArray();
        for (final RdmaAddrInfo entry : entries)
        {
            array.add(entry(entry));
        }
        return array;
    }

    private static JsonObject entry(final RdmaAddrInfo entry)
    {
        final JsonObject node = new JsonObject();
        node.put("ai_flags", entry.flags());
        node.put("ai_flags_names", JsonOutput.names(RaiFlags.describe(entry.flags())));
        node.put("ai_family", entry.family());
        node.put("ai_family_name", AddressFamily.name(entry.family()));
        node.put("ai_qp_type", entry.qpType());
        node.put("ai_qp_type_name", QpType.name(entry.qpType()));
        node.put("ai_port_space", entry.portSpace());
        node.put("ai_port_space_name", GetAddrInfoText.portSpaceName(entry.portSpace()));
        address(node, "ai_src_addr", entry.srcAddr());
        address(node, "ai_dst_addr", entry.dstAddr());
        node.put("ai_src_canonname", entry.srcCanonName());
        node.put("ai_dst_canonname", entry.dstCanonName());
        if (entry.pathData().length == 0)
        {
            // a NULL ai_route, as every absent value is null
            node.put("ai_route", (JsonArray)null);
        }
        else
        {
            final JsonArray route = node.putArray("ai_route");
            for (final byte[] pathData : entry.pathData())
            {
                route.add(PathDataJson.of(pathData));
            }
        }
        node.put("ai_connect", entry.connect().length == 0 ? null : HexFormat.of().formatHex(entry.connect()));
        return node;
    }

    /**
     * An IP socket address as text, {@code 192.0.2.1:7471} or {@code [fe80::2%eth0]:7471}: inet_ntop's
     * text and the scope's interface name, as the CLI writes every IPv6 address; null for null.
     */
    static String sockaddrText(final RdmaSockaddr address)
    {
        if (address instanceof Ipv6Sockaddr in6)
        {
            return "[" + AddressText.of(in6.address(), in6.scopeId(), AddressText::localInterfaceName) + "]:" + in6.port();
        }
        return address == null ? null : address.toText();
    }

    /** An address as member {@code name}: null, an object for AF_IB and unknown families, else its text. */
    private static void address(final JsonObject node, final String name, final RdmaSockaddr address)
    {
        if (address == null)
        {
            node.put(name, (String)null);
        }
        else if (address instanceof IbSockaddr ib)
        {
            node.putObject(name)
                .put("gid", ib.gid().toString())
                .put("pkey", ib.pkey().toString())
                .put("sid", ServiceId.format(ib.serviceId()))
                .put("sid_mask", String.format("0x%016x", ib.serviceIdMask()))
                .put("flowinfo", ib.flowInfo())
                .put("scope_id", Long.toUnsignedString(ib.scopeId()));
        }
        else if (address instanceof OpaqueSockaddr opaque)
        {
            node.putObject(name)
                .put("family", opaque.family())
                .put("bytes", HexFormat.of().formatHex(opaque.bytes()));
        }
        else
        {
            node.put(name, sockaddrText(address));
        }
    }
}
