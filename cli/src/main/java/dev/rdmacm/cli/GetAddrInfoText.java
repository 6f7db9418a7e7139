package dev.rdmacm.cli;

import dev.rdmacm.addrinfo.AddrInfoResult;
import dev.rdmacm.addrinfo.AddressFamily;
import dev.rdmacm.addrinfo.QpType;
import dev.rdmacm.addrinfo.RaiFlags;
import dev.rdmacm.addrinfo.RdmaAddrInfo;
import dev.rdmacm.addrinfo.RdmaSockaddr;
import dev.rdmacm.protocol.PortSpace;
import dev.rdmacm.protocol.path.IbvPathData;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.HexFormat;
import java.util.List;

/** The human form of a getaddrinfo result: one block per entry, one line per field, names and numbers. */
final class GetAddrInfoText
{
    private GetAddrInfoText()
    {
    }

    static String entries(final AddrInfoResult.Success success)
    {
        final StringBuilder text = new StringBuilder();
        final List<RdmaAddrInfo> entries = success.entries();
        for (int i = 0; i < entries.size(); i++)
        {
            final RdmaAddrInfo entry = entries.get(i);
            final String flagNames = RaiFlags.describe(entry.flags());
            text.append("entry ").append(i).append('\n');
            field(text, "ai_flags", "0x" + Integer.toHexString(entry.flags()) + (flagNames.isEmpty() ? "" : " (" + flagNames + ")"));
            field(text, "ai_family", AddressFamily.name(entry.family()) + " (" + entry.family() + ")");
            field(text, "ai_qp_type", QpType.name(entry.qpType()) + " (" + entry.qpType() + ")");
            field(text, "ai_port_space", portSpaceName(entry.portSpace()) + " (0x" + Integer.toHexString(entry.portSpace()) + ")");
            field(text, "ai_src_addr", address(entry.srcAddr()));
            field(text, "ai_dst_addr", address(entry.dstAddr()));
            field(text, "ai_src_canonname", entry.srcCanonName() == null ? "-" : entry.srcCanonName());
            field(text, "ai_dst_canonname", entry.dstCanonName() == null ? "-" : entry.dstCanonName());
            final byte[][] route = entry.pathData();
            field(text, "ai_route", route.length == 0 ? "-" : route.length + " path record(s)");
            for (final byte[] pathData : route)
            {
                field(text, "", new IbvPathData().wrap(new UnsafeBuffer(pathData), 0, pathData.length).toString());
            }
            field(text, "ai_connect", entry.connect().length == 0 ? "-" : HexFormat.of().formatHex(entry.connect()));
        }
        return text.toString();
    }

    /** {@code EAI_NONAME (-2): Name or service not known} / {@code EINVAL (errno 22): Invalid argument}. */
    static String portSpaceName(final int code)
    {
        if (code == 0)
        {
            return "unset";
        }
        for (final PortSpace space : PortSpace.values())
        {
            if (space.code() == code)
            {
                return "RDMA_PS_" + space.name();
            }
        }
        return "port space 0x" + Integer.toHexString(code);
    }

    private static String address(final RdmaSockaddr address)
    {
        return address == null ? "-" : address.toText();
    }

    private static void field(final StringBuilder text, final String name, final String value)
    {
        text.append("  ").append(String.format("%-17s", name)).append(' ').append(value).append('\n');
    }
}
