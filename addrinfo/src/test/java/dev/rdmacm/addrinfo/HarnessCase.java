package dev.rdmacm.addrinfo;

import java.util.HexFormat;

/**
 * One input of the conformance matrix, and its line on getaddrinfo_harness.c's standard input:
 * {@code NODE TAB SERVICE TAB HINTS}, {@code (null)} for NULL, hints as
 * {@code FLAGS:FAMILY:QP:PS:SRCHEX:DSTHEX}.
 */
record HarnessCase(String node, String service, RdmaAddrInfoHints hints)
{
    private static final String NULL = "(null)";

    String inputLine()
    {
        return text(node) + '\t' + text(service) + '\t' + (hints == null ? NULL :
            "0x" + Integer.toHexString(hints.flags()) + ':' + hints.family() + ':' + hints.qpType() + ':' + hints.portSpace() +
                ':' + hex(hints.srcAddr()) + ':' + hex(hints.dstAddr()));
    }

    @Override
    public String toString()
    {
        return "node=" + text(node) + " service=" + text(service) + " hints=" + hints;
    }

    private static String text(final String value)
    {
        return value == null ? NULL : value;
    }

    private static String hex(final RdmaSockaddr address)
    {
        return address == null ? "-" : HexFormat.of().formatHex(address.toBytes());
    }
}
