package dev.rdmacm.addrinfo;

import java.util.HexFormat;

/**
 * The one-line form of an {@code rdma_getaddrinfo} outcome that getaddrinfo_harness.c prints for the
 * real librdmacm: {@code ret=R [errno=E]} then, per entry, {@code | flags=0x.. family=.. qp=.. ps=0x..
 * src=LEN:HEX dst=LEN:HEX srccanon=.. dstcanon=.. route=LEN:HEX connect=LEN:HEX} ({@code -} for none).
 */
final class CanonicalLine
{
    private CanonicalLine()
    {
    }

    static String of(final AddrInfoResult result)
    {
        final StringBuilder line = new StringBuilder("ret=").append(result.returnCode());
        switch (result)
        {
            case AddrInfoResult.ErrnoError errno -> line.append(" errno=").append(errno.errno());
            case AddrInfoResult.EaiError ignored ->
            {
                // glibc errors leave errno alone; the harness does not print it
            }
            case AddrInfoResult.Success success ->
            {
                for (final RdmaAddrInfo entry : success.entries())
                {
                    line.append(" | flags=0x").append(Integer.toHexString(entry.flags()))
                        .append(" family=").append(entry.family())
                        .append(" qp=").append(entry.qpType())
                        .append(" ps=0x").append(Integer.toHexString(entry.portSpace()));
                    bytes(line, "src", entry.srcAddr() == null ? null : entry.srcAddr().toBytes());
                    bytes(line, "dst", entry.dstAddr() == null ? null : entry.dstAddr().toBytes());
                    line.append(" srccanon=").append(entry.srcCanonName() == null ? "-" : entry.srcCanonName())
                        .append(" dstcanon=").append(entry.dstCanonName() == null ? "-" : entry.dstCanonName());
                    bytes(line, "route", entry.route());
                    bytes(line, "connect", entry.connect());
                }
            }
        }
        return line.toString();
    }

    private static void bytes(final StringBuilder line, final String name, final byte[] bytes)
    {
        line.append(' ').append(name).append('=').append(bytes == null ? 0 : bytes.length).append(':');
        line.append(bytes == null || bytes.length == 0 ? "-" : HexFormat.of().formatHex(bytes));
    }
}
